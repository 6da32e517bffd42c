#!/bin/sh
# Agents that fail: kill -9 of one mid-sweep ends the run within a bounded
# time (exit 1, rows so far whole) or, under --retries, the sweep goes on
# with the two left and no row claims three after the loss; a stalled
# agent (SIGSTOP) fails its point by the heartbeat's deadline; a leader
# killed mid-sweep leaves the agents waiting, and --resume takes them over;
# a message an agent must not run (unknown field, too old, a run without a
# leader) is refused; an agent that cannot reach the target says so, and so
# does its leader.
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

start_redis
start_control
args="--control $CTL --agents-key $KEYF --agents 3 --agents-wait 10 --target t=unix://$SOCK -t get -P 1,2,4,8 --repeat 8 -n 20000 -c 2"

# ---- kill -9 of one agent, no retries: the run fails, the rows are whole
for a in k1 k2 k3; do start_agent $a; done
t_kill() {
	timeout 120 "$RSWEEP" run $args -q -o "$T/k.csv" >/dev/null 2>"$T/k.err" &
	run=$!
	wait_rows "$T/k.csv" 2
	kill -KILL "$PID_k3"
	wait "$run"
	st=$?
	[ "$st" = 1 ] || fail "the run exited $st after an agent died, wanted 1: $(cat "$T/k.err")"
	grep -q "agent k3 stopped heartbeating" "$T/k.err" || fail "no line names the lost agent: $(cat "$T/k.err")"
	check_csv "$T/k.csv"
	[ "$(col "$T/k.csv" agents_ok | sort -u)" = 3 ] || fail "a row of the failed run is not of 3 agents"
}
tcase 'kill -9 of one agent, no retries: the run fails naming it, the rows are whole' t_kill

# ---- the same under --retries (and a warm-up on the agents before each
# point): it goes on with two, and says so in the rows
start_agent k4
t_retries() {
	tcase_needs 'kill -9 of one agent, no retries: the run fails naming it, the rows are whole'
	timeout 180 "$RSWEEP" run $args --retries 3 --warmup 0.1 -q -o "$T/r.csv" >/dev/null 2>"$T/r.err" &
	run=$!
	wait_rows "$T/r.csv" 2
	kill -KILL "$PID_k4"
	wait "$run"
	st=$?
	[ "$st" = 0 ] || fail "the run with --retries exited $st: $(cat "$T/r.err")"
	check_csv "$T/r.csv"
	[ "$(rows "$T/r.csv")" = 32 ] || fail "$(rows "$T/r.csv") rows, wanted 32"
	# Run order: once a row has 2 agents, none after it has 3.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 { print $c["order"], $c["agents_ok"], $c["agents_expected"], $c["requests"], $c["server_calls"] }' \
		"$T/r.csv" | sort -n | awk '$3 != 3 || $4 != 20000 || $5 != $4 { print "row " $0; bad = 1 }
					    $2 == 2 { two = 1 } two && $2 != 2 { print "after the loss: " $0; bad = 1 }
					    END { exit bad || !two }' ||
		fail "rows after the loss: $(cat "$T/r.csv")"
}
tcase 'under --retries the sweep goes on with two agents, and no row after the loss claims three' t_retries

# ---- a stalled agent fails its point by the heartbeat's deadline
for a in s1 s2 s3; do start_agent $a; done
t_stall() {
	tcase_needs 'under --retries the sweep goes on with two agents, and no row after the loss claims three'
	timeout 120 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 --agents-wait 10 --target t=unix://"$SOCK" \
		-t get -P 1 --repeat 40 -n 20000 -c 2 -q -o "$T/s.csv" >/dev/null 2>"$T/s.err" &
	run=$!
	wait_rows "$T/s.csv" 1
	kill -STOP "$PID_s1"
	wait "$run"
	st=$?
	kill -CONT "$PID_s1"
	[ "$st" = 1 ] || fail "the run exited $st with a stalled agent, wanted 1: $(cat "$T/s.err")"
	grep -q "agent s1 stopped heartbeating" "$T/s.err" || fail "no line names the stalled agent: $(cat "$T/s.err")"
	check_csv "$T/s.csv"
}
tcase 'a stalled agent fails its point by the heartbeat deadline' t_stall

# ---- the leader killed mid-sweep: the agents wait; --resume finishes on them
t_leader() {
	"$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 --agents-wait 10 --target t=unix://"$SOCK" \
		-t get -P 1,2 --repeat 6 -n 20000 -c 2 -q -o "$T/l.csv" >/dev/null 2>&1 &
	run=$!
	wait_rows "$T/l.csv" 2
	kill -KILL "$run"
	wait "$run" 2>/dev/null
	# It left the preparation's key, which the guard refuses as after any
	# rsweep killed -9: the user empties the server (here, by hand).
	rcli flushall >/dev/null
	expect_status 0 timeout 120 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 --agents-wait 10 \
		--target t=unix://"$SOCK" -t get -P 1,2 --repeat 6 -n 20000 -c 2 -q -o "$T/l.csv" --resume
	check_csv "$T/l.csv"
	[ "$(rows "$T/l.csv")" = 12 ] || fail "$(rows "$T/l.csv") rows after --resume, wanted 12"
}
tcase 'a leader killed mid-sweep leaves its agents waiting, and --resume finishes on them' t_leader

# ---- what an agent refuses: a field it does not know, a start long past, a
# run whose leader does not heartbeat (each signed with the agents' key:
# these checks hold for one who has it)
t_refuse() {
	v=$("$RSWEEP" --version | cut -d' ' -f2)
	calls=$(get_calls)
	now=$(ccli time | head -1)
	msg="v $v run 0123456789abcdef point 1 kind point target unix://$SOCK test GET depth 1 mode lockstep
clients 1 threads 1 keyspace 0 seed 1 requests 10 duration 0 rate 0 timeout 5"
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:s2 $msg job "$JOB_GET" start "${now}000000000" cmd FLUSHALL
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:s2 $msg job "$JOB_GET" start "$((now - 60))000000000"
	# Five seconds ahead (within the agent's ten), read afresh: the signing and
	# a loaded machine must not make it a start long past, refused for that.
	now=$(ccli time | head -1)
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:s2 $msg job "$JOB_GET" start "$((now + 5))000000000"
	wait_for 10 "three refusals in the results" sh -c \
		"[ \"\$(redis-cli -s '$CTL_SOCK' xlen rsweep:run:0123456789abcdef:results)\" = 3 ]"
	ccli xrange rsweep:run:0123456789abcdef:results - + | grep -q "unknown run 0123456789abcdef: no leader heartbeats" ||
		fail "a message of a run without a leader was not refused: $(ccli xrange rsweep:run:0123456789abcdef:results - +)"
	[ "$(get_calls)" = "$calls" ] || fail "an agent ran a refused message: $calls GETs before, $(get_calls) after"
	ccli xrange rsweep:run:0123456789abcdef:results - + | grep -q "unknown field 'cmd'" ||
		fail "the unknown field was not refused: $(ccli xrange rsweep:run:0123456789abcdef:results - +)"
	ccli xrange rsweep:run:0123456789abcdef:results - + | grep -q "s past: no leader waits" ||
		fail "the old message was not refused"
	grep -q "refused: unknown field 'cmd'" "$T/agent-s2.log" || fail "the agent's log does not say why"
}
tcase 'an agent refuses an unknown field, a start long past and a run without a leader' t_refuse

# ---- an agent that cannot reach the target: one line on each side.  The
# leader has the password (REDISCLI_AUTH), the agents do not.
t_unreachable() {
	"$REDIS_SERVER" --port 0 --unixsocket "$T/pw.sock" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$T" --logfile "$T/pw.log" --requirepass sesame &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 5 "the password server started" sh -c "redis-cli -s '$T/pw.sock' ping 2>/dev/null | grep -q NOAUTH"
	expect_status 1 env REDISCLI_AUTH=sesame timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 1 \
		--target p=unix://"$T/pw.sock" -t get -P 1 -n 100 -q
	grep -q "agent k1: .*unix:$T/pw.sock: the server needs a password" "$T/err" ||
		fail "the leader does not say which agent could not reach the target: $(cat "$T/err")"
	grep -q "point [0-9]* failed: .*unix:$T/pw.sock: the server needs a password" "$T/agent-k1.log" ||
		fail "the agent's log does not say it could not reach the target"
}
tcase 'an agent that cannot reach the target says so, and so does its leader' t_unreachable

tcase_done
