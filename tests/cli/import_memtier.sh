#!/bin/sh
# rsweep import of memtier_benchmark's --json-out-file: the checked-in real
# files (tests/data/memtier/README) give rows whose every figure is the
# file's; --run-count's runs are repeats; bad JSON fails with one line
# naming file and line, exit status 2, and no -o file.  No server is needed.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

D="$RS_SRCDIR/tests/data/memtier"

t_real() {
	expect_status 0 "$RSWEEP" import -o "$T/p1.csv" "$D/ratio11-p1.json"
	grep -q "2 rows from .*ratio11-p1.json (memtier_benchmark JSON, \"ALL STATS\"), label 'ratio11-p1', P=1" "$T/err" ||
		fail "summary: $(cat "$T/err")"
	grep -q "ran together (ratio 1:1)" "$T/err" || fail "mixed run not said: $(cat "$T/err")"
	# label test P clients requests repeat rps avg min p50 p99 max p999 misses client
	cat >"$T/want" <<'W'
ratio11-p1 SET 1 5 5000 1 24153.07 0.1020 0.0240 0.0950 0.2390 0.4550 0.3190 0 memtier_benchmark
ratio11-p1 GET 1 5 5000 1 24153.07 0.1020 0.0240 0.0950 0.2390 0.3990 0.2870 5000 memtier_benchmark
W
	awk -F, 'NR > 1 { print $1, $2, $3, $4, $5, $6, $8, $9, $10, $11, $13, $14, $16, $17, $36 }' \
		"$T/p1.csv" >"$T/got"
	cmp -s "$T/want" "$T/got" || fail "rows: $(diff "$T/want" "$T/got")"
	expect_status 0 "$RSWEEP" import -q -l m "$D/ratio11-p4-runs2.json"
	awk -F, 'NR > 1 { print $2, $3, $6, $8 }' "$T/out" >"$T/got"
	printf 'SET 4 1 81787.55\nGET 4 1 81787.55\nSET 4 2 49907.17\nGET 4 2 49907.17\n' >"$T/want"
	cmp -s "$T/want" "$T/got" || fail "runs: $(diff "$T/want" "$T/got")"
	expect_status 0 "$RSWEEP" import -q -l g -P 16 -c 8 "$D/get-p16.json"
	[ "$(awk -F, 'NR > 1 { print $2, $3, $4, $8, $17 }' "$T/out")" = "GET 16 8 375041.02 4000" ] ||
		fail "get-p16: $(cat "$T/out")"
	# An option the file contradicts.
	expect_status 2 "$RSWEEP" import -q -l g -P 8 "$D/get-p16.json"
	grep -q "get-p16.json:[0-9]*: the file shows pipeline 16, but -P says otherwise" "$T/err" ||
		fail "-P: $(cat "$T/err")"
}
tcase "real memtier files: every figure the file's" t_real

t_bad() {
	printf '{"configuration": {"pipeline": 1},\n "ALL STATS": {"Gets": {"Count": 1 "Ops/sec": 2}}}\n' >"$T/bad.json"
	expect_status 2 "$RSWEEP" import -o "$T/x.csv" "$T/bad.json"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "not one line: $(cat "$T/err")"
	grep -q "bad.json:2: no ',' or '}' after a member" "$T/err" || fail "bad json: $(cat "$T/err")"
	[ ! -e "$T/x.csv" ] || fail "a failed import left its output"
	printf '{"configuration": {"pipeline": 1}}' >"$T/nores.json"
	expect_status 2 "$RSWEEP" import -o "$T/x.csv" "$T/nores.json"
	grep -q 'nores.json:1: no "ALL STATS"' "$T/err" || fail "no results: $(cat "$T/err")"
	printf 'not json\n' >"$T/text.json"
	expect_status 2 "$RSWEEP" import --from memtier -o "$T/x.csv" "$T/text.json"
	grep -q "text.json:1: not a JSON value" "$T/err" || fail "--from memtier: $(cat "$T/err")"
	[ ! -e "$T/x.csv" ] || fail "a failed import left its output"
}
tcase 'bad JSON: one line with file:line, exit 2, no -o file' t_bad

# --hdr-file-prefix: each row's histogram from memtier's HDR log of its
# command and run, into the CSV's sidecar, where report, plot and export
# take percentiles from merged histograms as for rsweep's own rows.
t_hdr() {
	expect_status 0 "$RSWEEP" import -q -o "$T/s16.csv" --hdr-file-prefix "$D/hdr-set16" \
		"$D/hdr-set16.json"
	[ "$(head -1 "$T/s16.csv.hist")" = "label,test,pipeline,mode,rate_offered,arrivals,repeat,started_at,hist" ] ||
		fail "sidecar: $(head -2 "$T/s16.csv.hist")"
	grep -q '^hdr-set16,SET,16,,,,1,[^,]*,v1 8000 ' "$T/s16.csv.hist" || fail "$(cat "$T/s16.csv.hist")"
	# memtier's own text said p50 0.32 ms at 4144 of 8000.
	expect_status 0 "$RSWEEP" export --format hgrm "$T/s16.csv"
	grep -q '^ *0\.31[0-9] 0\.500000000000 *4144 ' "$T/out" || fail "p50: $(head -12 "$T/out")"
	# Two runs, two commands: a histogram a row, each its run's.
	expect_status 0 "$RSWEEP" import -q -o "$T/p4.csv" --hdr-file-prefix "$D/hdr-p4" "$D/hdr-p4.json"
	[ "$(grep -c '^hdr-p4,[GS]ET,4,,,,[12],' "$T/p4.csv.hist")" = 4 ] || fail "$(cat "$T/p4.csv.hist")"
	# No -o, or a log missing: status 2, nothing written.
	expect_status 2 "$RSWEEP" import --hdr-file-prefix "$D/hdr-set16" "$D/hdr-set16.json"
	grep -q -- "--hdr-file-prefix needs -o FILE.csv" "$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" import -o "$T/none.csv" --hdr-file-prefix "$D/nothing" "$D/hdr-set16.json"
	grep -q "nothing_SET_command_run_1.hgrm" "$T/err" || fail "$(cat "$T/err")"
	[ ! -e "$T/none.csv" ] && [ ! -e "$T/none.csv.hist" ] || fail "a file was left"
}
tcase "--hdr-file-prefix: memtier's HDR logs as the rows' histograms" t_hdr

tcase_done
