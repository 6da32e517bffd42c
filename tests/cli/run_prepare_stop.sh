#!/bin/sh
# run_prepare_stop.sh: ^C during a read test's preparation stops it where
# it is (it is built and sent a part at a time), exits 130, and the guard's
# flush at the end still leaves the server empty.  The preparation of 3M
# keys is not let finish: the server ran fewer than its 3000 MSETs.  (No
# timing assertion: `timeout` bounds a hang.)  And the guard's flush of a
# large preparation is given the time it takes.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

mset_calls() {
	rcli info commandstats | tr -d '\r' | sed -n 's/^cmdstat_mset:calls=\([0-9]*\).*/\1/p' | grep . ||
		echo 0
}

t_prep_sigint() {
	timeout -s KILL 120 "$RSWEEP" run -s "$SOCK" -t get -P 1 -n 1000 -r 3000000 -v \
		-o "$T/p.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for 30 "the preparation to start" sh -c "[ \$(redis-cli -s '$SOCK' dbsize) -gt 0 ]"
	kill -INT "$pid"
	wait "$pid"
	st=$?
	[ "$st" = 130 ] || fail "exit $st, wanted 130: $(cat "$T/err")"
	grep -q "GET: preparation stopped (^C) after [0-9]* commands" "$T/err" ||
		fail "no word of the stop: $(cat "$T/err")"
	[ "$(mset_calls)" -lt 3000 ] || fail "the preparation ran to its end: $(mset_calls) MSETs"
	[ "$(rcli dbsize)" = 0 ] || fail "$(rcli dbsize) keys left"
}
tcase 'SIGINT in a preparation of 3M keys stops it there: 130, the server empty' t_prep_sigint

# The guard's check-and-flush of what a large preparation left (500,000
# keys, named one by one in the script) takes as long as it takes: its
# timeout grows with the keys the server holds, so that a slow flush is not
# taken for a server that stopped answering (it was: "EVAL timed out after
# 1 s" at the second point).
t_big_flush() {
	rcli FLUSHALL >/dev/null
	expect_status 0 timeout -s KILL 120 "$RSWEEP" run -s "$SOCK" -t get -P 1 -n 1000 \
		-r 500000 --repeat 2 --timeout 1 -q -o "$T/b.csv"
	[ "$(rows "$T/b.csv")" = 2 ] || fail "b.csv has $(rows "$T/b.csv") rows: $(cat "$T/err")"
	[ "$(rcli dbsize)" = 0 ] || fail "$(rcli dbsize) keys left"
}
tcase 'the flush of 500k prepared keys is given the time it takes' t_big_flush

tcase_done
