#!/bin/sh
# --cluster's master_rps: each master's own rate, named by its address;
# with -n (the same requests on each) the point lasts as long as the
# slowest master, so rps is the masters' number times the lowest rate,
# and the others sum above it.  rsweep plot --kind masters draws them, a
# line per master; a file without the column (an older one, resumed) is
# refused naming its line.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
f=$T/m.csv

t_rates() {
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t get -P 1,4,16 -n 6000 -r 10000 \
		-c 2 --repeat 1 -o "$f" -q
	check_csv "$f"
	[ "$(rows "$f")" = 3 ] || fail "$(rows "$f") rows, wanted 3"
	want=$(printf '127.0.0.1:%s\n' "$P1" "$P2" "$P3" | sort | paste -sd' ')
	python3 - "$f" "$want" <<'PY' || fail "master_rps: $(csv_col "$f" master_rps)"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    items = [i.rsplit("=", 1) for i in r["master_rps"].split(";")]
    names = " ".join(sorted(n for n, _ in items))
    rates = [float(v) for _, v in items]
    rps = float(r["rps"])
    # Each figure is rounded to 2 decimals: 0.005 each, four of them.
    ok = (names == sys.argv[2] and min(rates) > 0 and abs(3 * min(rates) - rps) <= 0.02
          and sum(rates) >= rps - 0.02)
    if not ok:
        print("P=%s: rps %s, master_rps %s" % (r["pipeline"], r["rps"], r["master_rps"]))
        sys.exit(1)
PY
}
tcase "master_rps: each master's rate, rps the masters' number times the lowest" t_rates

# The chart: a line per master.
t_chart() {
	tcase_needs "master_rps: each master's rate, rps the masters' number times the lowest"
	expect_status 0 "$RSWEEP" plot "$f" --kind masters -o "$T/m.png"
	[ "$(head -c 8 "$T/m.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG"
	expect_status 0 "$RSWEEP" plot "$f" --kind masters -o "$T/m.pdf"
	head -c 5 "$T/m.pdf" | grep -q '%PDF-' || fail "not a PDF"
}
tcase 'plot --kind masters draws a PNG and a PDF' t_chart

# One test's masters at a time; rps only.
t_one_test() {
	tcase_needs "master_rps: each master's rate, rps the masters' number times the lowest"
	sed '2{p;s/^\([^,]*\),GET,/\1,SET,/}' "$f" >"$T/two.csv"
	expect_status 2 "$RSWEEP" plot "$T/two.csv" --kind masters -o "$T/two.png"
	grep -q "the data has 2 tests: choose one with --tests" "$T/err" || fail "two tests: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" plot "$T/two.csv" --kind masters --tests get -o "$T/two.png"
	expect_status 2 "$RSWEEP" plot "$f" --kind masters --metric p99 -o "$T/p.png"
	grep -q "drop --metric" "$T/err" || fail "--metric: $(cat "$T/err")"
}
tcase "one test's masters at a time, rps only" t_one_test

# An older file without the column: --resume adds rows in its columns,
# it reads back, and --kind masters names a row that has none.
t_old() {
	tcase_needs "master_rps: each master's rate, rps the masters' number times the lowest"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "master_rps") d = i }
		{ s = ""; for (i = 1; i <= NF; i++) if (i != d) s = s (s == "" ? "" : OFS) $i; print s }' \
		"$f" >"$T/old.csv"
	head -1 "$T/old.csv" | grep -q master_rps && fail "the test did not drop the column"
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t get -P 1,4,16,32 -n 6000 \
		-r 10000 -c 2 --repeat 1 -o "$T/old.csv" -q --resume
	grep -q "leave out master_rps" "$T/err" || fail "no note of the column left out: $(cat "$T/err")"
	check_csv "$T/old.csv"
	[ "$(rows "$T/old.csv")" = 4 ] || fail "$(rows "$T/old.csv") rows after --resume, wanted 4"
	expect_status 0 "$RSWEEP" report "$T/old.csv"
	expect_status 2 "$RSWEEP" plot "$T/old.csv" --kind masters -o "$T/old.png"
	grep -q "old.csv:2: no master_rps in this row" "$T/err" || fail "old file: $(cat "$T/err")"
	[ ! -e "$T/old.png" ] || fail "a chart written from a file it refused"
}
tcase 'an older file without the column: --resume keeps its columns, plot names the row' t_old

tcase_done
