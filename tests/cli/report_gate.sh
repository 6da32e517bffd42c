#!/bin/sh
# report_gate.sh: verdicts a CI can gate on (issue 31): report
# --fail-on slower[:PCT] exits 3 when a comparison is slower than the
# baseline, after writing the report whole; --baseline FILE takes a CSV
# kept from an earlier run; markdown opens with the verdicts.  The live
# run is the A/A case (a file against its own copy passes whatever the
# machine did).  The slowdown case is known-answer data: a live one (a
# server that fsyncs every write) gave intervals of 0.22x..1.14x for a
# real 2x beside another test suite on two cores, so the gate's verdict
# was the machine's, not the code's (issue 41).
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

# known FACTOR: a saturating SET curve over P=1..16, three repeats within
# 1% of each other, every rate times FACTOR.
known() {
	awk -v f="$1" 'BEGIN { print "label,test,pipeline,clients,requests,repeat,seconds,rps"
		split("1 2 4 8 16", d, " "); split("0.99 1.01 1.00", j, " ")
		for (i = 1; i <= 5; i++) for (r = 1; r <= 3; r++) {
			rps = f * 200000 * d[i] / (d[i] + 3) * j[r]
			printf "ci,SET,%d,4,3000,%d,%.6f,%.2f\n", d[i], r, 3000 / rps, rps } }'
}

t_slower() {
	known 1 >"$T/plain.csv"
	known 0.5 >"$T/aof.csv"
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
tcase 'a 2x slowdown fails --fail-on slower:5 with status 3, the comment written' t_slower

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
