#!/bin/sh
# report_words.sh: answers in the user's words (issue 42), on data whose
# answer is known, so nothing here depends on a live measurement.
#  - The seed-003 pair (UNIX socket against TCP, one redis-benchmark -q
#    capture a side, imported): every test's sentence has its rps
#    difference, its ratio and a verdict; the imports carry
#    redis-benchmark's defaults (50 clients, 100000 requests, 3 bytes);
#    no zero-width interval in any format; the overall figure (geometric
#    mean of the 19 ratios) leads the words, and csv and json carry it.
#  - Two labels over P=1,8,32, three repeats each: the prose names the
#    verdict at P=1 and at the peaks for each test, and an interval wholly
#    above 1 is never "cannot tell".
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
D=${RS_SRCDIR:-.}/tests/data/import

t_seed003() {
	expect_status 0 "$RSWEEP" import -l tcp -o "$T/tcp.csv" "$D/seed003-tcp.txt"
	grep -q "names no -c -n -d: taken as redis-benchmark's defaults (50 clients, 100000 requests, 3 bytes)" \
		"$T/err" || fail "no note of the defaults: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" import -q -l unix -o "$T/unix.csv" "$D/seed003-unix.txt"
	python3 - "$T/tcp.csv" <<'PY' || fail "the imported rows lack the defaults"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    assert (r["clients"], r["requests"], r["data_size"]) == ("50", "100000", "3"), r
PY
	for f in text csv json markdown; do
		expect_status 0 "$RSWEEP" report --prose --format "$f" "$T/tcp.csv" "$T/unix.csv" \
			-o "$T/rep.$f"
	done
	grep -c "^  [A-Z_0-9]*: unix showed" "$T/rep.text" | grep -qx 19 ||
		fail "not 19 sentences: $(cat "$T/rep.text")"
	# Overall: the geometric mean of the 19 ratios, first among the words.
	sed -n '/^In words/{n;p;}' "$T/rep.text" | grep -q "^  Overall, unix showed 1.30x the throughput of tcp (the geometric mean of 19 tests' ratios, 95% interval 1.2[0-9]x..1.3[0-9]x: faster); 1 test faster, 0 slower, 0 the same, 18 undecided" ||
		fail "no overall figure first: $(cat "$T/rep.text")"
	grep -q '"overall":\[$' "$T/rep.json" || grep -q '"overall":' "$T/rep.json" || fail "json: no overall"
	head -1 "$T/rep.csv" | grep -q ",overall_ratio,overall_lo,overall_hi,overall_verdict,overall_tests$" ||
		fail "csv: no overall columns"
	# Issue 44: one depth everywhere: no table of "gain 1.00x", said once.
	grep -q "^Saturation (" "$T/rep.text" && fail "a saturation table of P=1-only data"
	grep -c "every series has one depth" "$T/rep.text" | grep -qx 1 || fail "not said once"
	python3 - "$T/rep.text" <<'PY' || fail "a sentence without its number or verdict"
import re, sys
for l in open(sys.argv[1]):
    if "showed" not in l or "Overall" in l:
        continue
    assert re.search(r"a [0-9.]+k (higher|lower) throughput \([0-9.]+x", l), l
    assert re.search(r": (faster|slower|cannot tell)\)|by how much is unsure\)|cannot tell whether", l), l
PY
	grep -q "GET: unix showed a 33.53k higher throughput (1.34x), one measurement a side: cannot tell whether it is the difference between unix and tcp or the machine's noise; measure again with --repeat 5." \
		"$T/rep.text" || fail "GET: $(grep GET: "$T/rep.text")"
	python3 - "$T"/rep.* <<'PY' || fail "a zero-width interval"
import re, sys
for f in sys.argv[1:]:
    t = open(f).read()
    for m in re.finditer(r"([0-9.]+)x\.\.([0-9.]+)x", t):
        assert m.group(1) != m.group(2), (f, m.group(0))
PY
	grep -q "0.72x; its repeats identical: no interval" "$T/rep.text" ||
		fail "LPUSH's identical p50s: $(grep LPUSH: "$T/rep.text")"
}
tcase 'the seed-003 pair: every sentence with its difference, ratio and verdict; no zero-width interval' \
	t_seed003

# Two labels, P=1,8,32, three repeats: tcp 1.37x at P=1 with an interval
# clear of 1 (but not all clear of the band at some seeds of noise), the
# peaks within 1% of each other.
t_depths() {
	python3 - "$T/two.csv" <<'PY'
import sys
rows = ["label,test,pipeline,repeat,rps,avg_ms"]
base = {1: 100000, 8: 600000, 32: 1200000}
gain = {1: 1.37, 8: 1.10, 32: 1.005}
wig = [1.00, 1.04, 0.96]
for t in ("GET", "SET", "INCR"):
    for p in (1, 8, 32):
        for k in range(3):
            rows.append("tcp,%s,%d,%d,%.2f,0.5" % (t, p, k + 1, base[p] * wig[k]))
            rows.append("unix,%s,%d,%d,%.2f,0.4" % (t, p, k + 1, base[p] * gain[p] * wig[(k + 1) % 3]))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
	expect_status 0 "$RSWEEP" report --prose "$T/two.csv" -o "$T/two.txt"
	for t in GET SET INCR; do
		line=$(grep "^  $t: unix showed" "$T/two.txt") || fail "no sentence for $t: $(cat "$T/two.txt")"
		echo "$line" | grep -q "at P=1 and a " || fail "$t: no verdict at P=1: $line"
		echo "$line" | grep -q "at the peaks" || fail "$t: no verdict at the peaks: $line"
		echo "$line" | grep -q "along the 3 depths they share" || fail "$t: not along the depths: $line"
	done
	# The table's verdict for every interval wholly above 1 is never cannot tell.
	expect_status 0 "$RSWEEP" report --format csv "$T/two.csv" -o "$T/two.csv.rep"
	python3 - "$T/two.csv.rep" <<'PY' || fail "an interval wholly above 1 called cannot tell"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    for w in ("1", "peak"):
        lo, v = r["ratio_at_%s_lo" % w], r["verdict_at_%s" % w]
        if lo and float(lo) > 1:
            assert v in ("faster", "faster (size unsure)"), (r["test"], w, lo, v)
PY
}
tcase 'P=1,8,32: the verdict at P=1, at the peaks and along the depths; above 1 is never cannot tell' \
	t_depths

# Issue 44: --goal max-rps with many tied cells gives a small table, not
# 17 cells on one line (data/sweep-unix.csv: seeded, so the same each run).
t_goal_table() {
	expect_status 0 "$RSWEEP" report --goal max-rps -t set "${RS_SRCDIR:-.}/data/sweep-unix.csv" \
		-o "$T/goal.txt"
	grep -q "^  unix SET: P=37 gives the most of 40 cells, .*; 17 cells not told apart from it (ratio to it, 95% interval holding 1):$" \
		"$T/goal.txt" || fail "$(cat "$T/goal.txt")"
	grep -Eq "^      P=23\.\.40 +17  0\.87x-0\.99x$" "$T/goal.txt" || fail "no table row: $(cat "$T/goal.txt")"
	awk '/^  unix/ && length($0) > 160 { exit 1 }' "$T/goal.txt" || fail "a line over 160 columns"
}
tcase '--goal max-rps: many tied cells in a small table' t_goal_table

# Issue 44: which servers were compared is said once, at the top, not on
# every sentence.
t_servers_once() {
	expect_status 0 "$RSWEEP" report --prose "${RS_SRCDIR:-.}/data/valkey-vs-redis.csv" \
		-o "$T/vr.txt"
	head -1 "$T/vr.txt" | grep -q "^Servers: redis = redis 7.0.15, valkey = valkey " ||
		fail "no Servers line first: $(head -3 "$T/vr.txt")"
	grep -q "showed" "$T/vr.txt" || fail "no sentences"
	grep "showed" "$T/vr.txt" | grep -q "against redis" && fail "the servers on a sentence"
	:
}
tcase 'the servers compared: once, at the top' t_servers_once

tcase_done
