#!/bin/sh
# agents_bench.sh: the agents' figures on one machine: a control Redis and a
# target on private UNIX sockets, agents as background processes.
#
#   tests/bench/agents_bench.sh [RSWEEP]
#
# 1. Start skew: a 20-point sweep (GET, P=1..20, -n 20000) with 3 agents;
#    the median and worst of every agent's start off the common instant.
# 2. The leader's overhead per point: the wall time of the sweep per point
#    minus its timed window (seconds), with 3 agents and with the plain
#    local engine on the same points.
# 3. rps of 1, 2 and 3 agents against one target at P=1 and P=16 (GET,
#    -c 10 each, -n 200000 split over them, 3 repeats, the median).
# It prints figures; it does not pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
PIDS=
trap 'for p in $PIDS; do kill -KILL $p 2>/dev/null; done; rm -rf "$T"' EXIT
KEYF=$T/agents.key
head -c 32 /dev/urandom | base64 >"$KEYF" && chmod 600 "$KEYF"

server() {
	redis-server --port 0 --unixsocket "$T/$1.sock" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$T" --logfile "$T/$1.log" &
	PIDS="$PIDS $!"
	until redis-cli -s "$T/$1.sock" ping 2>/dev/null | grep -q PONG; do sleep 0.05; done
}
agent() {
	"$RSWEEP" agent --control "unix://$T/ctl.sock" --agents-key "$KEYF" --id "$1" --allow-target "unix://$T/*" 2>"$T/agent-$1.log" &
	PIDS="$PIDS $!"
	until [ "$(redis-cli -s "$T/ctl.sock" exists "rsweep:agent:$1")" = 1 ]; do sleep 0.05; done
}
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
			      { print $c }' "$1"
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# wall FILE: seconds from the first row's start to the end, per point, minus the timed window
overhead() {
	awk -v wall="$2" -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") s = i; next }
			      { t += $s; n++ } END { printf "%.3f s per point (%.3f s wall, %.3f s timed, %d points)\n", (wall - t) / n, wall / n, t / n, n }' "$1"
}
now() { date +%s.%N; }

server ctl
server tgt
for a in a1 a2 a3; do agent $a; done
tgt="--target t=unix://$T/tgt.sock"

echo "1. start skew, 20 points, 3 agents"
t0=$(now)
"$RSWEEP" run --control "unix://$T/ctl.sock" --agents-key "$KEYF" --agents 3 $tgt -t get -P 1..20 --repeat 1 \
	--order sequential -n 20000 -c 10 -q -o "$T/skew.csv" >/dev/null 2>&1
t1=$(now)
# skew_ms is the worst agent's of each point; agent_rps has each agent's rate.
printf '   worst agent per point: median %s ms, worst %s ms\n' \
	"$(col "$T/skew.csv" skew_ms | median)" "$(col "$T/skew.csv" skew_ms | sort -g | tail -1)"
echo "2. leader's overhead per point (wall minus timed window)"
printf '   3 agents: %s' "$(overhead "$T/skew.csv" "$(echo "$t1 - $t0" | bc)")"
echo
t0=$(now)
"$RSWEEP" run -s "$T/tgt.sock" -t get -P 1..20 --repeat 1 --order sequential -n 20000 -c 30 \
	-q -o "$T/plain.csv" >/dev/null 2>&1
t1=$(now)
printf '   local engine, -c 30: %s' "$(overhead "$T/plain.csv" "$(echo "$t1 - $t0" | bc)")"
echo
echo "3. rps against one target, GET, -c 10 per agent, -n 200000 split, median of 3"
for n in 1 2 3; do
	"$RSWEEP" run --control "unix://$T/ctl.sock" --agents-key "$KEYF" --agents $n $tgt -t get -P 1,16 --repeat 3 \
		-n 200000 -c 10 -q -o "$T/n$n.csv" >/dev/null 2>&1
	for p in 1 16; do
		awk -F, -v p=$p 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				 $c["pipeline"] == p { print $c["rps"] }' "$T/n$n.csv" | median |
			xargs printf '   %d agent(s) P=%-2d %.0f rps\n' "$n" "$p"
	done
done
