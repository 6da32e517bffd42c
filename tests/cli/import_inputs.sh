#!/bin/sh
# import_inputs.sh: rsweep import on captures that are long or wrong in
# ways a real terminal produces: a long test's progress rewritten with CR
# past the line buffer, and a command line whose -P redis-benchmark would
# not have run.  No server is needed.
. "$(dirname "$0")/lib.sh"

# ---- a test longer than about 8 s: 60 CR progress updates on one line ----
{
	printf 'redis-benchmark -t set -q -P 4\n'
	i=0
	while [ $i -lt 60 ]; do
		printf 'SET: rps=81234.5 (overall: 80123.4) avg_msec=0.612 (overall: 0.613)\r'
		i=$((i + 1))
	done
	printf 'SET: 80123.40 requests per second, p50=0.607 msec                    \n'
} >"$T/long.txt"

t_long() {
	[ "$(wc -c <"$T/long.txt")" -gt 4096 ] || fail "the capture is too short to test anything"
	expect_status 0 "$RSWEEP" import -o "$T/long.csv" "$T/long.txt"
	[ "$(rows "$T/long.csv")" = 1 ] || fail "long progress: $(rows "$T/long.csv") rows"
	grep -q ',80123.4' "$T/long.csv" || fail "long progress: not the final figure: $(cat "$T/long.csv")"
}
tcase "a test's progress rewritten with CR past the line buffer reads its final figure" t_long

# The same with an escape sequence closing each update.
t_long_esc() {
	sed 's/\r/\x1b[K\r/g' "$T/long.txt" >"$T/long-esc.txt"
	expect_status 0 "$RSWEEP" import -o "$T/long-esc.csv" "$T/long-esc.txt"
	[ "$(rows "$T/long-esc.csv")" = 1 ] || fail "long progress with escapes: $(rows "$T/long-esc.csv") rows"
}
tcase 'the same with an escape sequence closing each update' t_long_esc

# One segment that is itself longer than the buffer is still refused.
t_one_segment() {
	{ head -c 3000 /dev/zero | tr '\0' x; printf '\n'; } >"$T/one.txt"
	expect_status 2 "$RSWEEP" import -o "$T/one.csv" "$T/one.txt"
	grep -q "one.txt:1: line longer than 2048 characters" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'one segment longer than the buffer is still refused' t_one_segment

# ---- -P out of range in the captured command line ----
t_bad_depth() {
	for p in 99999999999 0 1000001 123456789012345678901; do
		printf 'redis-benchmark -t set -q -P %s\nSET: 1000.00 requests per second\n' "$p" >"$T/p.txt"
		rm -f "$T/p.csv"
		expect_status 2 "$RSWEEP" import -o "$T/p.csv" "$T/p.txt"
		grep -q "p.txt:1: redis-benchmark -P $(printf %s "$p" | cut -c1-23): a pipeline depth must be 1 to 1000000" "$T/err" ||
			fail "-P $p: $(cat "$T/err")"
		expect_status 2 "$RSWEEP" import --skip-bad -o "$T/p.csv" "$T/p.txt"
		[ ! -e "$T/p.csv" ] || fail "-P $p: rows written"
	done
}
tcase '-P out of range in the captured command line is refused, even with --skip-bad' t_bad_depth

# A depth in range, or a shell variable, is still read or left unknown.
t_depth_ok() {
	printf 'redis-benchmark -t set -q -P 16\nSET: 1000.00 requests per second\n' >"$T/p.txt"
	expect_status 0 "$RSWEEP" import -o "$T/p16.csv" "$T/p.txt"
}
tcase 'a depth in range is still read' t_depth_ok

tcase_done
