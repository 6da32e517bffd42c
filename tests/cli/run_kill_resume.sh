#!/bin/sh
# kill -9 of the server mid-sweep: rsweep exits 1 naming the point, the CSV
# keeps every completed row whole; after a restart --resume completes the
# sweep with no duplicate point.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
# 3 tests x 12 depths x 2 repeats = 72 points of 20000 requests.
args="-s $SOCK -t get,set,lpop -P 1..12 --repeat 2 -n 20000 -c 10 --timeout 5 -o $T/k.csv"

t_kill() {
	"$RSWEEP" run $args -q >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/k.csv" 5
	kill -KILL "$REDIS_PID"
	wait "$pid"
	st=$?
	REDIS_PID=
	[ "$st" = 1 ] || fail "exit $st after the server died, wanted 1: $(cat "$T/err")"
	grep -q "point [0-9]* of 72 (" "$T/err" || fail "the error does not name the point: $(cat "$T/err")"
	n=$(rows "$T/k.csv")
	[ "$n" -ge 5 ] && [ "$n" -lt 72 ] || fail "$n rows after the kill"
	check_csv "$T/k.csv"
}
tcase 'kill -9 of the server mid-sweep: exit 1 naming the point, every completed row whole' t_kill

# The first case killed the server; should it have failed before that,
# its server goes too, for a new one.
stop_redis
start_redis

t_resume() {
	tcase_needs 'kill -9 of the server mid-sweep: exit 1 naming the point, every completed row whole'
	expect_status 0 "$RSWEEP" run $args --resume -q
	[ "$(rows "$T/k.csv")" = 72 ] || fail "$(rows "$T/k.csv") rows after --resume, wanted 72"
	check_csv "$T/k.csv"
}
tcase 'after a restart --resume completes the sweep, no point twice' t_resume

# A finished sweep resumed again has nothing left to do.
t_again() {
	tcase_needs 'after a restart --resume completes the sweep, no point twice'
	expect_status 0 "$RSWEEP" run $args --resume -q
	grep -q "every point is already in" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a finished sweep resumed again has nothing left to do' t_again

tcase_done
