#!/bin/sh
# report_gate.sh: verdicts a CI can gate on (issue 31): report
# --fail-on slower[:PCT] exits 3 when a comparison is slower than the
# baseline, after writing the report whole; --baseline FILE takes a CSV
# kept from an earlier run; markdown opens with the verdicts.  The
# slowdown is real: a server that syncs its append-only file on every
# write (--appendonly yes --appendfsync always) against one that keeps
# none.  No timing is asserted beyond a slowdown of that size.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

sweep() {
	label=$1 file=$2
	shift 2
	expect_status 0 "$RSWEEP" run --spawn "$@" -t set -P 1,2,4,8,16 -n 3000 -c 4 --repeat 3 -q \
		-l "$label" -o "$file"
}

t_aa() {
	sweep ci "$T/main.csv"
	cp "$T/main.csv" "$T/new.csv"
	expect_status 0 "$RSWEEP" report "$T/new.csv" --baseline "$T/main.csv" --fail-on slower
	grep -q "Compared with baseline" "$T/out" || fail "no comparison: $(cat "$T/out")"
}
tcase 'A/A: a file against a copy of itself passes --fail-on slower' t_aa

t_slower() {
	sweep ci "$T/plain.csv"
	sweep ci "$T/aof.csv" --spawn-args '--appendonly yes --appendfsync always'
	expect_status 3 "$RSWEEP" report "$T/aof.csv" --baseline "$T/plain.csv" --fail-on slower:5 \
		--format markdown -o "$T/comment.md"
	grep -q "^rsweep report: --fail-on: 1 comparison slower than baseline by more than 5%: ci SET " \
		"$T/err" || fail "message: $(cat "$T/err")"
	[ "$(head -1 "$T/comment.md")" = "## Verdicts against baseline, peak to peak" ] ||
		fail "markdown: $(head -3 "$T/comment.md")"
	grep -q "| SET | ci | .* | \*\*slower\*\* |" "$T/comment.md" || fail "$(cat "$T/comment.md")"
	# The other way round it is faster: nothing fails.
	expect_status 0 "$RSWEEP" report "$T/plain.csv" --baseline "$T/aof.csv" --fail-on slower
}
tcase 'an fsync on every write fails --fail-on slower:5 with status 3, the comment written' t_slower

t_bad() {
	printf 'label,test,pipeline,rps\na,GET,1,5\nb,GET,1,6\n' >"$T/two.csv"
	printf 'label,test,pipeline,rps\nc,GET,1,5\n' >"$T/one.csv"
	expect_status 2 "$RSWEEP" report "$T/one.csv" --fail-on faster
	grep -q "fail-on: 'faster' is not slower or slower:PCT" "$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" report "$T/one.csv" --fail-on slower:150
	expect_status 2 "$RSWEEP" report "$T/one.csv" --baseline "$T/two.csv"
	grep -q "holds labels 'a' and 'b'" "$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" report "$T/one.csv" --baseline "$T/missing.csv"
}
tcase 'a bad --fail-on, a baseline file of two labels or none: status 2' t_bad

# Issue 40: PCT in plain decimal digits only (strtod took 0x10 as 16 and
# " 5" as 5), and a gate with nothing to compare fails with its reason
# instead of passing silently.
t_pct_and_nothing() {
	printf 'label,test,pipeline,rps\nc,GET,1,5\nc,GET,2,9\n' >"$T/base.csv"
	for bad in 'slower:0x10' 'slower: 5' 'slower:5 ' 'slower:1e1' 'slower:.5' 'slower:5.' \
		'slower:-1' 'slower:5%%'; do
		expect_status 2 "$RSWEEP" report "$T/base.csv" --fail-on "$bad"
		grep -q "PCT must be a percentage" "$T/err" || fail "$bad: $(cat "$T/err")"
	done
	expect_status 0 "$RSWEEP" report "$T/two.csv" --fail-on slower:5%
	expect_status 0 "$RSWEEP" report "$T/two.csv" --fail-on slower:2.5
	# Only the baseline's rows: one file, or a new run's file that holds none.
	expect_status 2 "$RSWEEP" report "$T/base.csv" --fail-on slower
	grep -q "fail-on: nothing to compare: every series is c's" "$T/err" || fail "$(cat "$T/err")"
	printf 'label,test,pipeline,rps\n' >"$T/empty.csv"
	expect_status 2 "$RSWEEP" report "$T/empty.csv" --baseline "$T/base.csv" --fail-on slower
	grep -q "nothing to compare" "$T/err" || fail "$(cat "$T/err")"
}
tcase '--fail-on: PCT in decimal digits; nothing to compare is status 2 with its reason' \
	t_pct_and_nothing

tcase_done
