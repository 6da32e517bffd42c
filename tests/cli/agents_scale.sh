#!/bin/sh
# Twenty agents at once (issue 47): every agent's requests, as its own log
# says, add up to the rows' requests and to the server's commandstats,
# exactly; agent_rps says how many agents and names the slowest and the
# fastest rather than a list cut short; the run ends with one line of the
# start skews; an agent killed mid-point fails it naming the agent, and
# --retries measures it again with the nineteen left, within a bounded
# time.  And an agent's open files: a soft limit too low for -c is raised
# to the hard one, and a hard limit too low fails the point saying so.
# (Light load: -c 1 an agent, small -n; 100 agents are for
# tests/bench/agents_scale_bench.sh.)
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

start_redis
start_control
# ---- open files: one agent, -c 60, under limits of 40
t_fds() {
	( ulimit -S -n 40 && exec "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id fdsoft \
		--allow-target "unix://$T/*" -v ) >"$T/agent-fdsoft.log" 2>&1 &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 10 "agent fdsoft heartbeating" agent_beats fdsoft
	timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 1 --agents-wait 10 \
		--target t=unix://"$SOCK" -t get -P 1 --repeat 1 -n 600 -c 60 -q -o "$T/f.csv" \
		>/dev/null 2>"$T/f.err" || fail "-c 60 under a soft limit of 40 failed: $(cat "$T/f.err")"
	grep -q "open files: limit raised from 40" "$T/agent-fdsoft.log" ||
		fail "the agent does not say it raised its limit: $(cat "$T/agent-fdsoft.log")"
	[ "$(col "$T/f.csv" requests)" = 600 ] || fail "not 600 requests: $(cat "$T/f.csv")"
	( ulimit -n 40 && exec "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id fdhard \
		--allow-target "unix://$T/*" -v ) >"$T/agent-fdhard.log" 2>&1 &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 10 "agent fdhard heartbeating" agent_beats fdhard
	# (fdhard sorts before fdsoft: the leader takes it.)
	timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 1 --agents-wait 10 \
		--target t=unix://"$SOCK" -t get -P 1 --repeat 1 -n 600 -c 60 -q -o "$T/h.csv" \
		>/dev/null 2>"$T/h.err"
	st=$?
	[ "$st" = 1 ] || fail "-c 60 under a hard limit of 40 exited $st, wanted 1: $(cat "$T/h.err")"
	grep -q "agent fdhard: -c 60 needs some [0-9]* open files, and this agent may open at most 40" "$T/h.err" ||
		fail "the leader's line does not say the agent's limit: $(cat "$T/h.err")"
}
tcase "an agent's open files: a soft limit is raised to the hard one, a hard one too low fails saying so" t_fds

N=20
ids=
i=1
while [ $i -le $N ]; do
	ids="$ids agentscale$(printf %02d $i)"
	i=$((i + 1))
done
for a in $ids; do start_agent "$a"; done
lead="--control $CTL --agents-key $KEYF --agents $N --agents-wait 20 --target t=unix://$SOCK"

# The requests each agent's log says it ran in the timed points of run RUN.
agents_requests() {
	cat "$T"/agent-agentscale*.log | sed -n "s/.*run $1: point [0-9]* done: \([0-9]*\) requests.*/\1/p" |
		awk '{ s += $1 } END { print s + 0 }'
}
run_of() {
	sed -n 's/.*run \([0-9a-f]\{16\}\): point [0-9]* done.*/\1/p' "$T"/agent-agentscale01.log | tail -1
}

t_exact() {
	g0=$(get_calls)
	timeout 120 "$RSWEEP" run $lead -t get -P 1,8 --repeat 2 -n 2000 -c 1 -o "$T/x.csv" \
		>/dev/null 2>"$T/x.err" || fail "the run with $N agents failed: $(cat "$T/x.err")"
	g1=$(get_calls)
	check_csv "$T/x.csv"
	[ "$(rows "$T/x.csv")" = 4 ] || fail "$(rows "$T/x.csv") rows, wanted 4"
	awk -F, -v n=$N 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != 2000 || $c["server_calls"] != 2000 || $c["agents_ok"] != n ||
		$c["agents_expected"] != n { print; bad = 1 } END { exit bad }' "$T/x.csv" ||
		fail "a row is not 2000 requests from $N agents, as the server counted: $(cat "$T/x.csv")"
	rows_sum=$(col "$T/x.csv" requests | awk '{ s += $1 } END { print s }')
	ag=$(agents_requests "$(run_of)")
	[ "$ag" = "$rows_sum" ] || fail "the agents ran $ag requests, the rows say $rows_sum"
	[ $((g1 - g0)) = "$rows_sum" ] || fail "the server ran $((g1 - g0)) GETs, the rows say $rows_sum"
	# 20 agents do not fit agent_rps's list: how many, slowest, median, fastest.
	col "$T/x.csv" agent_rps | grep -vqE "^agents=$N;min=agentscale[0-9]+:[0-9]+;median=[0-9]+;max=agentscale[0-9]+:[0-9]+$" &&
		fail "agent_rps is not the summary of $N agents: $(col "$T/x.csv" agent_rps)"
	grep -q "agents: start skew over 4 points and $((4 * N)) agent starts: median [0-9.]* ms, p90 [0-9.]* ms, p99 [0-9.]* ms, from -\{0,1\}[0-9.]* to [0-9.]* ms" "$T/x.err" ||
		fail "no line of the start skews: $(cat "$T/x.err")"
}
tcase "$N agents: their requests add up exactly to the rows' and the server's" t_exact

# ---- one of twenty killed mid-point: the point fails naming it, the retry
# has nineteen, all within a bounded time
t_kill() {
	# A point of some 4 s (--rate), so that the kill lands inside it.
	timeout 90 "$RSWEEP" run $lead -t get -P 1 --repeat 1 -n 8000 --rate 2000 -c 1 --retries 1 \
		-o "$T/k.csv" >/dev/null 2>"$T/k.err" &
	run=$!
	wait_for 20 "agent agentscale07 started the point" \
		grep -q "run [0-9a-f]*: point 1: " "$T/agent-agentscale07.log"
	sleep 1
	kill -KILL "$PID_agentscale07"
	wait "$run"
	st=$?
	[ "$st" = 0 ] || fail "the run with --retries exited $st: $(cat "$T/k.err")"
	grep -q "agent agentscale07 stopped heartbeating" "$T/k.err" ||
		fail "no line names the lost agent: $(cat "$T/k.err")"
	check_csv "$T/k.csv"
	awk -F, -v n=$N 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != 8000 || $c["server_calls"] != 8000 || $c["agents_ok"] != n - 1 ||
		$c["agents_expected"] != n { print; bad = 1 } END { exit bad || NR != 2 }' "$T/k.csv" ||
		fail "the retried row is not 8000 requests from $((N - 1)) agents: $(cat "$T/k.csv")"
}
tcase 'an agent of twenty killed mid-point: the point fails naming it, the retry has nineteen' t_kill

tcase_done
