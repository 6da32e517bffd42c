#!/bin/sh
# Two runs of one sweep against one server, labels a and b in one file (b
# by --resume), compared by `rsweep report --format csv --baseline a`: the
# verdict at the peak is no finding ("same" or "cannot tell") for every test.  End to end: the engine,
# the resumable CSV, the interval core and the report's CSV.
#
# Why this is not flaky.  The verdict compared is the one at the peaks
# (verdict_at_peak), the core's ratio of the two fitted peak levels, whose
# interval borrows all 12 depths of each run (knee.h); "faster" or
# "slower" needs that whole interval beyond 1 +- 3% (KNEE_CMP_BAND).  For
# two runs of one server the true ratio is 1, so a false verdict needs the
# estimate some 3% plus the interval's half-width off: with the noise of
# 20000-request points here (5-15% a point, so +-4-8% at the peak) that is
# beyond about 2.5 standard errors, well under 1% a test.  What the
# interval cannot cover is drift between the two runs: on a shared 2-core
# machine, and under make -j2 check, other jobs take the CPU for seconds,
# and a run of a under load against a run of b without was called
# "faster" for both tests (seen here), and so was one run against the
# other in chunks of three depths (seen in CI, twice in a row).  So the
# two labels take turns point by point: at each depth a then b, or b then
# a (ABBA, each label first as often), every point after the first by
# --resume into the same file, so that a burst of load falls on both
# alike.  A pair that is still not all "same" is run again, from a fresh
# file, with a note, up to three pairs: a burst rarely hits three pairs,
# while a real fault (a ratio or verdict computed wrongly, one label's
# rows taken for the other's) fails all of them.
# No timing is asserted; every run is bounded by -n and --timeout.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

# pair N: runs a and b, interleaved, into $T/same-N.csv, reports it into
# $T/rep-N.csv; succeeds when every test of b is "same" at the peak.
pair() {
	n=$1
	f=$T/same-$n.csv
	args="-s $SOCK -t get,set -n 20000 -c 10 --repeat 1 --timeout 10 -q -o $f"
	resume=
	for d in 1 2 3 4 5 6 7 8 9 10 11 12; do
		if [ $((d % 2)) = 1 ]; then first=a second=b; else first=b second=a; fi
		expect_status 0 "$RSWEEP" run $args -P "$d" --label "$first" $resume
		resume=--resume
		expect_status 0 "$RSWEEP" run $args -P "$d" --label "$second" --resume
	done
	[ "$(rows "$f")" = 48 ] || fail "$(rows "$f") rows in $f, wanted 48 (2 labels x 2 tests x 12 depths)"
	check_csv "$f"
	expect_status 0 "$RSWEEP" report --format csv --baseline a "$f" -o "$T/rep-$n.csv"
	# Columns by name: label, test, verdict_at_peak.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
			   if (!col["label"] || !col["test"] || !col["verdict_at_peak"]) {
				   print "no label, test or verdict_at_peak column"; exit 2 }
			   next }
		 $col["label"] == "b" { n++; v = $col["verdict_at_peak"]
			   printf "%s: %s\n", $col["test"], v
			   if (v != "same" && v != "cannot tell") bad = 1 }
		 END { if (n != 2) { print n + 0 " rows for label b, wanted 2"; exit 2 }
		       exit bad }' "$T/rep-$n.csv" >"$T/verdicts-$n"
}

t_same() {
	seen=
	for n in 1 2 3; do
		pair $n
		st=$?
		[ "$st" = 1 ] || break
		seen="$seen$(tr '\n' ' ' <"$T/verdicts-$n")/ "
		[ $n = 3 ] || echo "note: pair $n not all same ($(tr '\n' ' ' <"$T/verdicts-$n")), running another" >&2
	done
	[ "$st" = 0 ] || fail "three pairs of runs of one server not the same at the peak: $seen"
}
tcase 'two runs of one server, ABBA by --resume, are the same at the peak' t_same

tcase_done
