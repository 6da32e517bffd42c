#!/bin/sh
# rsweep export: benchstat lines, one per row, with each row's rps; hgrm
# blocks, one per point, whose counts add up to the point's requests and
# whose Max is the rows' max_ms; bad input fails with file:line, status 2,
# and leaves no -o file.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,4 -n 3001 --repeat 2 -q -l m1 -o "$T/r.csv"

t_benchstat() {
	expect_status 0 "$RSWEEP" export --format benchstat -o "$T/b.txt" "$T/r.csv"
	[ "$(head -1 "$T/b.txt")" = "Unit rps better=higher" ] || fail "benchstat: $(head -1 "$T/b.txt")"
	# The whole file in benchfmt's grammar (golang.org/x/perf/benchfmt).
	awk -f "$RS_SRCDIR/tests/cli/benchfmt.awk" "$T/b.txt" >"$T/g" || fail "benchfmt: $(cat "$T/g")"
	[ "$(grep -c '^Benchmark\(GET\|SET\)/label=m1/P=[14] 1 [0-9.e+]* ns/op [0-9.e+]* rps ' "$T/b.txt")" = 8 ] ||
		fail "benchstat lines: $(cat "$T/b.txt")"
	# The rps of each row, and 1e9 / ns/op, are the CSV's within 6 digits.
	# (Compared as numbers, not as rounded text: 7.1955e5 rounds either way.)
	awk -F, 'NR > 1 { printf "%s %s %.10g\n", $2, $3, $8 }' "$T/r.csv" | sort -k1,1 -k2,2n -k3,3g >"$T/a"
	awk '/^Benchmark/ { split($1, n, "/"); sub("Benchmark", "", n[1]); sub("P=", "", n[3]);
		printf "%s %s %.10g\n", n[1], n[3], $5; if (($5 * $3 / 1e9 - 1)^2 > 1e-10) print "ns/op", $0 }' \
		"$T/b.txt" | sort -k1,1 -k2,2n -k3,3g >"$T/c"
	[ "$(wc -l <"$T/a")" = "$(wc -l <"$T/c")" ] || fail "benchstat lines: $(diff "$T/a" "$T/c")"
	paste -d' ' "$T/a" "$T/c" | awk '$1 != $4 || $2 != $5 || ($3 - $6)^2 > (1e-5 * $3)^2 { bad = 1; print }
		END { exit bad }' >"$T/d" || fail "benchstat figures: $(cat "$T/d")"
}
tcase "benchstat: a line a row, with the row's rps" t_benchstat

t_hgrm() {
	expect_status 0 "$RSWEEP" export --format hgrm -o "$T/h.hgrm" "$T/r.csv"
	[ "$(grep -c '^#\[label=m1 test=[GS]ET P=[14] repeats=2\]$' "$T/h.hgrm")" = 4 ] || fail "hgrm blocks: $(grep '^#\[l' "$T/h.hgrm")"
	# Each block: percentiles rise from 0 to 1, values never fall, the last
	# line's count is both repeats' requests, and Max is the rows' largest max_ms.
	awk -F, 'NR > 1 { k = $2 " " $3; if (!(k in m) || $14 > m[k]) m[k] = $14 }
		END { for (k in m) printf "%s %.3f 6002\n", k, m[k] }' "$T/r.csv" | sort >"$T/a"
	awk '/^#\[label/ { split($2, t, "="); split($3, p, "="); sub("]", "", p[2]); k = t[2] " " p[2]; v = 0; q = -1 }
		/^ +[0-9]/ { if ($1 < v || $2 <= q) print "not rising in", k, $0; v = $1; q = $2; n = $3 }
		/^#\[Max/ { gsub(",", "", $3); printf "%s %.3f %s\n", k, $3, n; if (q != 1) print "last", q, k }' \
		"$T/h.hgrm" | sort >"$T/c"
	# Max to the hgrm's 3 decimals of a ms, against the CSV's rounding of its own.
	[ "$(wc -l <"$T/a")" = "$(wc -l <"$T/c")" ] || fail "hgrm figures: $(diff "$T/a" "$T/c")"
	paste -d' ' "$T/a" "$T/c" | awk '$1 != $5 || $2 != $6 || $4 != $8 || ($3 - $7)^2 > 0.0015^2 { bad = 1; print }
		END { exit bad }' >"$T/d" || fail "hgrm figures: $(cat "$T/d")"
}
tcase "hgrm: a block a point, counts adding up, Max the rows' max_ms" t_hgrm

t_hlog() {
	expect_status 0 "$RSWEEP" export --format hlog -o "$T/h.hlog" "$T/r.csv"
	grep -q '^#\[StartTime: [0-9]*\.[0-9]* (seconds since epoch), ' "$T/h.hlog" || fail "$(head -5 "$T/h.hlog")"
	grep -q '^"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"$' \
		"$T/h.hlog" || fail "$(head -5 "$T/h.hlog")"
	# A line a row, tagged by its point, starts rising from 0, each
	# window the row's seconds, Max the row's max_ms (3 decimals).
	[ "$(grep -c '^Tag=m1/[GS]ET/P=[14],[0-9.]*,[0-9.]*,[0-9.]*,HISTFAAA[A-Za-z0-9+/=]*$' "$T/h.hlog")" = 8 ] ||
		fail "hlog lines: $(grep Tag "$T/h.hlog")"
	awk -F, '/^Tag=/ { if ($2 < t) print "not in order", $0; t = $2; n++; if (n == 1 && $2 != "0.000") print "first", $0 }' \
		"$T/h.hlog" >"$T/bad"
	[ -s "$T/bad" ] && fail "$(cat "$T/bad")"
	awk -F, 'NR > 1 { printf "%s %s %.3f %.3f\n", $2, $3, $7, $14 }' "$T/r.csv" | sort >"$T/a"
	awk -F, '/^Tag=/ { split($1, t, "/"); sub("P=", "", t[3]); printf "%s %s %.3f %.3f\n", t[2], t[3], $3, $4 }' \
		"$T/h.hlog" | sort >"$T/c"
	paste -d' ' "$T/a" "$T/c" | awk '$1 != $5 || $2 != $6 || ($3 - $7)^2 > 0.0015^2 || ($4 - $8)^2 > 0.0015^2 { bad = 1; print }
		END { exit bad }' >"$T/d" || fail "hlog figures against the rows: $(cat "$T/d")"
}
tcase "hlog: a line a row in start order, its window and Max the row's" t_hlog

# memtier-json: a document a line, one per point; a point of one row is
# memtier's "ALL STATS", read by the JSONPath its users' CI reads; rsweep
# import reads it back to the CSV's figures.
t_memtier() {
	expect_status 0 "$RSWEEP" export --format memtier-json -o "$T/m.jsonl" "$T/r.csv"
	[ "$(wc -l <"$T/m.jsonl")" = 4 ] || fail "documents: $(wc -l <"$T/m.jsonl")"
	# One point, one row: the JSONPath $."ALL STATS".Totals."Ops/sec".
	awk -F, 'NR == 1 || ($2 == "GET" && $3 == 4 && $6 == 1)' "$T/r.csv" >"$T/one.csv"
	rps=$(awk -F, 'NR == 2 { print $8 }' "$T/one.csv")
	expect_status 0 "$RSWEEP" export --format memtier-json -o "$T/one.json" "$T/one.csv"
	path=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("%.2f" % d["ALL STATS"]["Totals"]["Ops/sec"], d["ALL STATS"]["Gets"]["Count"],
      d["configuration"]["pipeline"], d["ALL STATS"]["Totals"]["Misses/sec"],
      d["ALL STATS"]["Totals"]["Percentile Latencies"]["p99.90"] is not None)' "$T/one.json") ||
		fail "python cannot read it: $(cat "$T/one.json")"
	[ "$path" = "$rps 3001 4 0.0 True" ] || fail "JSONPath: '$path', wanted $rps 3001 4 0.0 True"
	# Repeats: memtier's --run-count --print-all-runs sections, beside
	# "ALL STATS", the point's repeats merged: every document answers the
	# README's JSONPath, with the point's requests over its seconds.
	awk -F, 'NR > 1 { k = $2 " " $3; n[k] += $5; s[k] += $7 }
		END { for (k in n) printf "%s %d %.2f\n", k, n[k], n[k] / s[k] }' "$T/r.csv" | sort >"$T/want"
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert [k for k in d if k.startswith("RUN #")] == ["RUN #1 RESULTS", "RUN #2 RESULTS"], d.keys()
    assert "AGGREGATED AVERAGE RESULTS (2 runs)" in d, d.keys()
    t = d["ALL STATS"]["Totals"]
    print(d["configuration"]["test"], d["configuration"]["pipeline"], t["Count"], "%.2f" % t["Ops/sec"])
    for k in ("Hits/sec", "Misses/sec", "KB/sec"):
        assert isinstance(t[k], float), (k, t[k])' "$T/m.jsonl" | sort >"$T/got" ||
		fail "run sections"
	paste -d' ' "$T/want" "$T/got" | awk '$1 != $5 || $2 != $6 || $3 != $7 || ($4 - $8)^2 > ($4 * 1e-4)^2 { bad = 1; print }
		END { exit bad }' >"$T/d" || fail "ALL STATS of repeats: $(cat "$T/d")"
	# Round trip: the rows again, each figure within the JSON's 3 decimals of a ms.
	expect_status 0 "$RSWEEP" import -q -o "$T/back.csv" "$T/m.jsonl"
	for f in "$T/r.csv" "$T/back.csv"; do
		awk -F, 'NR > 1 { print $1, $2, $3, $4, $5, $6, $8, $9, $11, $12, $13, $14, $16 }' "$f" |
			sort >"$f.k"
	done
	paste -d' ' "$T/r.csv.k" "$T/back.csv.k" | awk '{ for (i = 1; i <= 7; i++) if ($i != $(i + 13)) bad = 1
		for (i = 8; i <= 13; i++) if (($i - $(i + 13))^2 > 0.0005001^2) bad = 1
		if (bad) { print; exit 1 } }' >"$T/d" || fail "round trip: $(cat "$T/d")"
	[ "$(wc -l <"$T/back.csv.k")" = 8 ] || fail "round trip rows: $(cat "$T/back.csv")"
}
tcase "memtier-json: a document a point, JSONPath, round trip" t_memtier

# --split DIR: a file a point, each one memtier document, named by label,
# test and depth; not with -o, nor another format.
t_split() {
	expect_status 0 "$RSWEEP" export --format memtier-json --split "$T/docs" "$T/r.csv"
	ls "$T/docs" >"$T/names"
	printf 'm1+GET+P1.json\nm1+GET+P4.json\nm1+SET+P1.json\nm1+SET+P4.json\n' >"$T/want"
	cmp -s "$T/names" "$T/want" || fail "files: $(cat "$T/names")"
	for f in "$T"/docs/*.json; do
		[ "$(wc -l <"$f")" = 1 ] || fail "$f: not one document"
		grep -q '^{"configuration":.*"ALL STATS":{' "$f" || fail "$f: $(head -c 200 "$f")"
	done
	expect_status 0 "$RSWEEP" export --format memtier-json "$T/r.csv"
	cat "$T"/docs/*.json | cmp -s - "$T/out" || fail "the files are not the JSON Lines' documents"
	expect_status 2 "$RSWEEP" export --format memtier-json --split "$T/docs" -o "$T/x" "$T/r.csv"
	expect_status 2 "$RSWEEP" export --format hgrm --split "$T/docs" "$T/r.csv"
	grep -q -- "--split DIR writes memtier-json" "$T/err" || fail "$(cat "$T/err")"
}
tcase "memtier-json --split DIR: a file a point" t_split

# Bad input: a label benchfmt cannot hold; a row without its histogram.
t_bad() {
	sed '2s/^m1,/m 1,/' "$T/r.csv" >"$T/bad.csv"
	expect_status 2 "$RSWEEP" export --format benchstat -o "$T/x.out" "$T/bad.csv"
	grep -q "bad.csv:2: label 'm 1'" "$T/err" || fail "bad label: $(cat "$T/err")"
	[ ! -e "$T/x.out" ] || fail "a failed export left its output"
	cp "$T/r.csv" "$T/nohist.csv"
	expect_status 2 "$RSWEEP" export --format hgrm -o "$T/x.out" "$T/nohist.csv"
	grep -q "nohist.csv:[0-9]*: the row has no latency histogram" "$T/err" || fail "no sidecar: $(cat "$T/err")"
	[ ! -e "$T/x.out" ] || fail "a failed export left its output"
	expect_status 2 "$RSWEEP" export --format hgrm
	expect_status 2 "$RSWEEP" export --format tsv "$T/r.csv"
}
tcase 'bad input: file:line, exit 2, no -o file' t_bad

tcase_done
