#!/bin/sh
# --relabel FILE:OLD=NEW: two sweeps that both say "vm" (run without -l on
# hosts of the same name) become two labels for report, plot and a plot
# file, the rename applied to one file's rows before the files' rows are
# put together (where two files labelled alike are two runs of one label,
# issue 33), and each row keeping its histograms.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
mkdir "$T/data"
for h in hostA hostB; do
	expect_status 0 "$RSWEEP" run -s "$SOCK" -l vm -t get -P 1,2 -n 2000 --repeat 1 -q \
		-o "$T/data/$h.csv"
done
A=$T/data/hostA.csv
B=$T/data/hostB.csv

# labels FILE: the distinct labels of a report's CSV, sorted, on one line.
labels() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["label"] }' "$1" |
		sort -u | tr '\n' ' '
}

t_runs() {
	expect_status 0 "$RSWEEP" report "$A" "$B"
	grep -q "Runs: vm 2 ($A, $B)" "$T/out" || fail "$(cat "$T/out")"
	grep -q "vm is in 2 files, read as runs of one set-up: to compare them give each its own label (--relabel hostA.csv:vm=NAME)" \
		"$T/out" || fail "no hint: $(cat "$T/out")"
	# Without FILE: every file's rows, as before: still one label.
	expect_status 0 "$RSWEEP" report --relabel vm=a "$A" "$B"
	grep -q "Runs: a 2 " "$T/out" || fail "$(cat "$T/out")"
}
tcase 'two files labelled alike are two runs of one label, relabelled alike too' t_runs

t_report() {
	expect_status 0 "$RSWEEP" report --relabel hostA.csv:vm=m1 --relabel "$B:vm=intel" \
		--format csv "$A" "$B"
	[ "$(labels "$T/out")" = "intel m1 " ] || fail "labels: $(labels "$T/out")"
	# The sidecars follow: every point's p99 is its merged histograms'.
	expect_status 0 "$RSWEEP" report --relabel hostA.csv:vm=m1 --relabel hostB.csv:vm=intel \
		--latency-budget 1000ms --format csv "$A" "$B"
	merged=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["merged"] }' \
		"$T/out" | sort -u | tr '\n' ' ')
	[ "$merged" = "1 " ] || fail "histograms lost on relabel: merged '$merged': $(cat "$T/out")"
}
tcase 'report: --relabel FILE:OLD=NEW, given twice, keeps the histograms' t_report

t_plot() {
	expect_status 0 "$RSWEEP" plot --relabel hostA.csv:vm=m1 --relabel hostB.csv:vm=intel \
		-o "$T/two.png" "$A" "$B"
	[ -s "$T/two.png" ] || fail "no chart"
	printf 'relabel = hostA.csv:vm=m1\nrelabel = hostB.csv:vm=intel\n[GET]\ntests = get\n' \
		>"$T/two.plot"
	expect_status 0 "$RSWEEP" plot --plot "$T/two.plot" -o "$T/file.png" "$A" "$B"
	[ -s "$T/file.png" ] || fail "no chart from the plot file"
}
tcase 'plot and plot files: --relabel FILE:OLD=NEW' t_plot

t_bad() {
	expect_status 2 "$RSWEEP" report --relabel hostC.csv:vm=x "$A" "$B"
	grep -q "no row is labelled 'hostC.csv:vm', and 'hostC.csv' is none of the files read" \
		"$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" report --relabel hostA.csv:nosuch=x "$A" "$B"
	grep -q "no row of $A is labelled 'nosuch'" "$T/err" || fail "$(cat "$T/err")"
	mkdir "$T/other"
	cp "$A" "$T/other/hostA.csv"
	expect_status 2 "$RSWEEP" report --relabel hostA.csv:vm=x "$A" "$T/other/hostA.csv"
	grep -q "'hostA.csv' names two of the files" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a FILE not read, an OLD not in FILE, a FILE naming two: refused' t_bad

tcase_done
