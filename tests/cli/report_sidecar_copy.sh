#!/bin/sh
# A results file copied over another keeps its own histograms: the sidecar
# left beside the destination (another run's) is not paired with the
# copied rows, whose keys match but whose started_at do not.  Seen before:
# report b.csv, b.csv a copy of a.csv, took b's old histograms (p99 from
# 200 kB values) for a's rows.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1,2 -n 2000 --repeat 1 -q -o "$T/a.csv"
# b at once, most often in the same second as a: started_at, the pairing
# key, has nanoseconds (whole seconds paired a's rows with b's histograms).
expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1,2 -n 2000 -d 200000 --repeat 1 -q \
	-o "$T/b.csv"
cp "$T/a.csv" "$T/b.csv"
# merged: 1 when the percentile is the merged histograms', 0 the rows' own.
merged() {
	expect_status 0 "$RSWEEP" report "$1" --latency-budget 1000ms --format csv
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["merged"] }' "$T/out"
}

t_own() {
	[ "$(merged "$T/a.csv")" = 1 ] || fail "a.csv's own sidecar is not read: $(cat "$T/out")"
}
tcase "a file's own sidecar is read" t_own

t_copy() {
	[ "$(merged "$T/b.csv")" = 0 ] || fail "the copy took the other run's histograms: $(cat "$T/out")"
}
tcase "a copy over another file does not take that file's histograms" t_copy

tcase_done
