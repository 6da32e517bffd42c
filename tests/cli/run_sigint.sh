#!/bin/sh
# SIGINT (and SIGTERM) mid-sweep: exit 130, completed rows intact, the
# spawned server and its private directory gone; --resume completes.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

mkdir "$T/tmp"
# t_sig SIG: a sweep stopped by SIG, then resumed.
t_sig() {
	sig=$1
	rm -f "$T/s.csv"
	args="--spawn -t incr,get -P 1..10 -n 20000 -c 10 --repeat 1 -o $T/s.csv"
	TMPDIR=$T/tmp "$RSWEEP" run $args -q >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/s.csv" 3
	kill -$sig "$pid"
	wait "$pid"
	st=$?
	[ "$st" = 130 ] || fail "SIG$sig: exit $st, wanted 130: $(cat "$T/err")"
	grep -q "interrupted; completed points are in" "$T/err" || fail "$(cat "$T/err")"
	check_csv "$T/s.csv"
	# No server left behind: its private directory is gone, and no
	# redis-server has it on its command line.
	[ -z "$(ls "$T/tmp")" ] || fail "SIG$sig: left $(ls "$T/tmp")"
	pgrep -f "$T/tmp" >/dev/null && fail "SIG$sig: a redis-server survived"
	TMPDIR=$T/tmp expect_status 0 "$RSWEEP" run $args --resume -q
	[ "$(rows "$T/s.csv")" = 20 ] || fail "$(rows "$T/s.csv") rows after resume, wanted 20"
	check_csv "$T/s.csv"
}
for sig in INT TERM; do
	tcase "SIG$sig mid-sweep: exit 130, rows intact, no server left, --resume completes" t_sig $sig
done

# On a server of one's own: SIGTERM at random moments (in a point, in a
# preparation, between points) leaves it as empty as it was found, so the
# next run's guard does not refuse it.  Seen before: a key left by
# requests still in flight, or by a control command cut short whose
# connection could not flush.
start_redis

t_term_random() {
	for i in $(seq 1 12); do
		rm -f "$T/t.csv"
		"$RSWEEP" run -s "$SOCK" -t get,set,lpop -P 1..30 -n 5000 -c 5 --repeat 1 -q -o "$T/t.csv" >/dev/null 2>"$T/err" &
		pid=$!
		sleep "0.$(( (i * 7) % 9 + 1 ))"
		kill -TERM "$pid" 2>/dev/null
		wait "$pid"
		[ "$(rcli dbsize)" = 0 ] || fail "SIGTERM $i left $(rcli dbsize) keys: $(cat "$T/err")"
	done
}
tcase "SIGTERM at random moments leaves a server of one's own empty" t_term_random

tcase_done
