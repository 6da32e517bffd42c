#!/bin/sh
# SIGINT (and SIGTERM) mid-sweep: exit 130, completed rows intact, the
# spawned server and its private directory gone; --resume completes.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

mkdir "$T/tmp"
for sig in INT TERM; do
	rm -f "$T/s.csv"
	args="--spawn -t incr,get -P 1..10 -n 20000 -c 10 -o $T/s.csv"
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
done
echo "ok"
