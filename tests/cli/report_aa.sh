#!/bin/sh
# A/A at one depth (issue 26): two spawned servers from one binary, the
# seed's default test list (sweeps/redis-benchmark-default.sweep) at P=1,
# three repeats each, interleaved.  Hardly any test may be called faster
# or slower, and the prose never states a difference without its verdict:
# every "higher throughput" or "lower throughput" carries its verdict
# (": faster)", ": slower)", ": cannot tell)", "by how much is unsure)")
# beside its ratio (issue 42).
#
# Why this is not flaky.  The prose check does not depend on the figures:
# it holds on every run.  The verdicts are each ratio's own 95% interval
# from the paired repeats, which must lie wholly beyond 1 +- 3% for a
# verdict; each comparison takes a false one at most a few percent of the
# time (tests/bench/aa_bench.sh measured 2.6% of 190 verdicts, pinned or
# not, with CI and a make check loading the machine), so 19 comparisons
# hold about half a false verdict a run, now and then two.  A run passes
# with at most two of 19; one with more is run again from a fresh file,
# with a note, up to three times (three runs of three or more: under one in
# a million at 2.6%).  A real fault (one target's rows taken for the
# other's, a verdict from a point ratio alone, an interval too narrow)
# gives many in every run.  No timing is asserted; every run is bounded by
# -n and --timeout.
#
# Why on one CPU.  On a 2-core machine the scheduler may keep one server on
# rsweep's core and the other on the free one for a whole run: at P=1 with
# points of 40 ms, one binary was then 1.6x..1.9x itself (PING, ZPOPMIN)
# in 6 of 15 runs, with intervals well clear of the band.  That difference
# is real for those two processes, and no statistics removes it; it is not
# what this test is about.  Run under taskset on one CPU (children inherit
# it), the two servers and rsweep share the core alike: no false verdict
# in 15 runs (285 verdicts), one in 285 with a busy loop on the same core.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

PIN=
if command -v taskset >/dev/null 2>&1; then
	cpu=$(taskset -cp $$ 2>/dev/null | sed -n 's/.*: *\([0-9]*\).*/\1/p')
	[ -n "$cpu" ] && PIN="taskset -c $cpu"
fi

TESTS=$(sed -n 's/^tests = //p' "${RS_SRCDIR:-.}/sweeps/redis-benchmark-default.sweep")
[ -n "$TESTS" ] || fail "no tests line in sweeps/redis-benchmark-default.sweep"

aa() {
	f=$T/aa-$1.csv
	expect_status 0 $PIN "$RSWEEP" run --target a=spawn: --target b=spawn: -t "$TESTS" -P 1 \
		--repeat 3 -n 2000 -c 4 --timeout 10 -q -o "$f"
	[ "$(rows "$f")" = 114 ] || fail "$(rows "$f") rows, wanted 114 (2 targets x 19 tests x 3)"
	expect_status 0 "$RSWEEP" report --prose "$f" -o "$T/prose-$1.txt"
	# 19 sentences, one a test, after the overall figure's.
	grep -c "^  [A-Z_0-9]*: b showed" "$T/prose-$1.txt" | grep -qx 19 ||
		fail "not 19 sentences: $(cat "$T/prose-$1.txt")"
	grep -q "^  Overall, b showed " "$T/prose-$1.txt" || fail "no overall figure"
	if grep -E "(higher|lower) throughput" "$T/prose-$1.txt" |
		grep -vE ": (faster|slower|cannot tell)\)|: (faster|slower), by how much is unsure\)" \
		>"$T/bare-$1"; then
		fail "a difference without its verdict: $(cat "$T/bare-$1")"
	fi
	grep -q "no interval" "$T/prose-$1.txt" && fail "three repeats a side, yet no interval: \
$(cat "$T/prose-$1.txt")"
	expect_status 0 "$RSWEEP" report --format csv "$f" -o "$T/rep-$1.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
			   if (!col["verdict_at_1"]) { print "no verdict_at_1 column"; exit 2 }
			   next }
		 $col["label"] == "b" { n++; v = $col["verdict_at_1"]
			   printf "%s: %s\n", $col["test"], v
			   # A direction of unsure size is what a 95% interval
			   # gives 5% of the time: only a sure one is false here.
			   if (v == "faster" || v == "slower") bad++ }
		 END { if (n != 19) { print n + 0 " rows for label b, wanted 19"; exit 2 }
		       exit (bad > 2) }' "$T/rep-$1.csv" >"$T/verdicts-$1"
}

# The best of three runs is one case, its logic as it was: exit 0 ends the
# case, passed; a fail, in aa (a run that broke outright) or below, ends
# it failed, with no further run, as it ended the script.
t_aa() {
	for n in 1 2 3; do
		if aa "$n"; then
			exit 0
		fi
		[ -s "$T/verdicts-$n" ] || fail "no verdicts in run $n"
		grep -q "rows for label b" "$T/verdicts-$n" && fail "$(cat "$T/verdicts-$n")"
		echo "note: A/A run $n: $(grep -E ': (faster|slower)$' "$T/verdicts-$n" | tr '\n' ';')" >&2
	done
	fail "one binary against itself was called faster or slower more than twice in each of three \
runs: $(cat "$T"/verdicts-*)"
}
tcase 'one binary against itself: no difference without its verdict, and at most two false verdicts in the best of three runs' t_aa

tcase_done
