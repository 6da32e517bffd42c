#!/bin/sh
# import_captures.sh: rsweep import on what people keep of redis-benchmark,
# made here by redis-benchmark against a private server: a shell loop over
# depths with redis-cli flushall between runs, the default (full) output, a
# script(1) capture and a pasted terminal session.  Every imported figure is
# compared with the one the capture shows.
. "$(dirname "$0")/lib.sh"
command -v redis-benchmark >/dev/null 2>&1 || { echo "SKIP: no redis-benchmark"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
start_redis
B="redis-benchmark -s $SOCK -t get,set"

# field CSV ROW COLUMN: column COLUMN of data row ROW (1-based) of CSV.
field() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(rows[int(sys.argv[2]) - 1][sys.argv[3]])' "$1" "$2" "$3"
}

# same_rps CAPTURE CSV: the CSV's rps, in order, are the "N requests per
# second" figures of the capture, in order.
same_rps() {
	got=$(python3 -c 'import csv, sys
print(" ".join("%.2f" % float(r["rps"]) for r in csv.DictReader(open(sys.argv[1]))))' "$2")
	want=$(tr '\r' '\n' <"$1" | sed -n 's/.* \([0-9.]*\) requests per second.*/\1/p' | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "rps of $2: $got; the capture shows $want"
}

# The version rsweep writes in its client column.
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$(dirname "$(dirname "$RSWEEP")")/config.h")

# ---- rsweep's own rows name their client too (before any key exists) ----
t_own() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 200 -t get -q -o "$T/own.csv"
	[ "$(field "$T/own.csv" 1 client)" = "rsweep $version" ] || fail "rsweep's row: client '$(field "$T/own.csv" 1 client)'"
	rcli flushall >/dev/null
}
tcase "rsweep's own rows name rsweep as their client" t_own

# ---- a loop over depths, redis-cli flushall between runs ----
t_loop() {
	for i in 1 2 4; do
		$B -n 2000 -P "$i" -q
		rcli flushall
	done >"$T/loop.txt" 2>&1
	grep -q '^OK' "$T/loop.txt" || fail "the loop printed no OK"
	expect_status 0 "$RSWEEP" import -P 1,2,4 -o "$T/loop.csv" "$T/loop.txt"
	[ "$(rows "$T/loop.csv")" = 6 ] || fail "loop: $(rows "$T/loop.csv") rows, wanted 6"
	check_csv "$T/loop.csv"
	same_rps "$T/loop.txt" "$T/loop.csv"
	for r in 1 2 3 4 5 6; do
		want=$(( r <= 2 ? 1 : r <= 4 ? 2 : 4 ))
		[ "$(field "$T/loop.csv" $r pipeline)" = "$want" ] || fail "loop row $r: P=$(field "$T/loop.csv" $r pipeline), wanted $want"
		[ "$(field "$T/loop.csv" $r repeat)" = 1 ] || fail "loop row $r is a repeat"
		[ "$(field "$T/loop.csv" $r client)" = redis-benchmark ] || fail "loop row $r: client $(field "$T/loop.csv" $r client)"
	done
	# Nothing invented: no -n, -c given and none shown.
	[ -z "$(field "$T/loop.csv" 1 requests)" ] || fail "requests invented: $(field "$T/loop.csv" 1 requests)"
	[ -z "$(field "$T/loop.csv" 1 seconds)" ] || fail "seconds invented"
	[ -z "$(field "$T/loop.csv" 1 clients)" ] || fail "clients invented"
	grep -q "skipped 3 lines that are not results (the first, line [0-9]*: 'OK')" "$T/err" || fail "no word on the skipped OK lines: $(cat "$T/err")"
	# Without -P, or with a count that does not match, nothing is written.
	expect_status 2 "$RSWEEP" import -o "$T/no.csv" "$T/loop.txt"
	grep -q "holds 3 runs of redis-benchmark .* give -P with 3 depths, one per run in order (as -P 1\.\.3)" \
		"$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" import -P 1,2 -o "$T/no.csv" "$T/loop.txt"
	grep -q "holds 3 runs of redis-benchmark (a test seen again starts the next) but -P lists 2 depths" "$T/err" || fail "$(cat "$T/err")"
	[ ! -e "$T/no.csv" ] || fail "a refused import wrote its output"
	# Runs repeated at one depth are repeats.
	expect_status 0 "$RSWEEP" import -P 4 -o "$T/rep.csv" "$T/loop.txt"
	[ "$(field "$T/rep.csv" 5 repeat)" = 3 ] || fail "third run at one depth: repeat $(field "$T/rep.csv" 5 repeat)"
	check_csv "$T/rep.csv"
}
tcase 'a loop over depths with flushall between runs' t_loop

# ---- the default (full) output ----
t_full() {
	$B -n 3000 -c 7 -d 16 >"$T/full.txt" 2>&1
	expect_status 0 "$RSWEEP" import -P 1 -o "$T/full.csv" "$T/full.txt"
	[ "$(rows "$T/full.csv")" = 2 ] || fail "full: $(rows "$T/full.csv") rows"
	same_rps "$T/full.txt" "$T/full.csv"
	# The latency summary's six figures, test by test, in the capture's order.
	want=$(grep -A1 ' avg  *min  *p50' "$T/full.txt" | grep '^ *[0-9]' | awk '{ printf "%s %s %s %s %s %s\n", $1, $2, $3, $4, $5, $6 }')
	got=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(" ".join("%.3f" % float(r[k]) for k in ("avg_ms", "min_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms")))' "$T/full.csv")
	[ "$got" = "$want" ] || fail "full latencies: $got; the capture shows $want"
	for r in 1 2; do
		[ "$(field "$T/full.csv" $r clients)" = 7 ] || fail "full: clients $(field "$T/full.csv" $r clients)"
		[ "$(field "$T/full.csv" $r requests)" = 3000 ] || fail "full: requests $(field "$T/full.csv" $r requests)"
		[ "$(field "$T/full.csv" $r data_size)" = 16 ] || fail "full: data_size $(field "$T/full.csv" $r data_size)"
	done
	[ "$(field "$T/full.csv" 1 test)" = SET ] || fail "full: first test $(field "$T/full.csv" 1 test)"
	expect_status 2 "$RSWEEP" import -c 50 -o "$T/no.csv" "$T/full.txt"
	grep -q "full.txt:[0-9]*: the capture shows -c 7, but -c says 50" "$T/err" || fail "$(cat "$T/err")"
	# Without -P the unknown depth is said, not assumed in silence.
	expect_status 0 "$RSWEEP" import -o "$T/full1.csv" "$T/full.txt"
	grep -q "does not show its pipeline depth: recorded as P=1" "$T/err" || fail "unknown depth not said: $(cat "$T/err")"
}
tcase 'the default (full) output' t_full

# ---- a script(1) capture: its header shows the command line ----
t_script() {
	script -q -c "$B -n 2000 -P 8 -c 5 -q" "$T/script.txt" >/dev/null 2>&1 </dev/null
	grep -q '^Script started' "$T/script.txt" || fail "script wrote no header"
	expect_status 0 "$RSWEEP" import -o "$T/script.csv" "$T/script.txt"
	same_rps "$T/script.txt" "$T/script.csv"
	[ "$(field "$T/script.csv" 1 pipeline)" = 8 ] || fail "script: P=$(field "$T/script.csv" 1 pipeline)"
	[ "$(field "$T/script.csv" 1 clients)" = 5 ] || fail "script: clients $(field "$T/script.csv" 1 clients)"
	[ "$(field "$T/script.csv" 2 requests)" = 2000 ] || fail "script: requests $(field "$T/script.csv" 2 requests)"
	grep -q "is the one its command line shows (line 1: -P 8)" "$T/err" || fail "depth's origin not said: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" import -P 4 -o "$T/no.csv" "$T/script.txt"
	grep -q "script.txt:1: the command line shows -P 8, but -P says 4" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a script(1) capture and its command line' t_script

# ---- a pasted terminal session: prompt, command, output, time ----
t_paste() {
	{
		echo "root@f8529b27833e:/data# time redis-benchmark -q -P 16 -n 2000 -t get,set"
		$B -n 2000 -P 16 -q
		printf '\nreal\t0m0.101s\nuser\t0m0.010s\nsys\t0m0.020s\n'
		echo "root@f8529b27833e:/data# redis-benchmark --version"
		redis-benchmark --version
		echo "root@f8529b27833e:/data# "
	} >"$T/paste.txt" 2>&1
	expect_status 0 "$RSWEEP" import -l paste -o "$T/paste.csv" "$T/paste.txt"
	same_rps "$T/paste.txt" "$T/paste.csv"
	[ "$(field "$T/paste.csv" 1 pipeline)" = 16 ] || fail "paste: P=$(field "$T/paste.csv" 1 pipeline)"
	grep -q "skipped 7 lines that are not results (the first, line 1: 'root@f8529b27833e:/data# time redis-benchmark" "$T/err" || fail "$(cat "$T/err")"
	# Only prompts and time output: still no result.
	grep -v 'requests per second' "$T/paste.txt" >"$T/none.txt"
	expect_status 2 "$RSWEEP" import -o "$T/no.csv" "$T/none.txt"
	grep -q "no redis-benchmark result in it (7 lines that are not results, the first at line 1" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a pasted terminal session' t_paste

# ---- a pasted -q command line without -P ran at P=1, on its -s ----
t_paste_default() {
	{
		echo "me@laptop:~\$ redis-benchmark -q -s $SOCK -n 2000 -t get,set"
		$B -n 2000 -q
	} >"$T/p1.txt" 2>&1
	expect_status 0 "$RSWEEP" import -l p1 -o "$T/p1.csv" "$T/p1.txt"
	! grep -q "does not show its pipeline depth" "$T/err" || fail "P=1 said to be unknown: $(cat "$T/err")"
	grep -q "is the one its command line shows (line 1: no -P, so P=1)" "$T/err" || fail "$(cat "$T/err")"
	for r in 1 2; do
		[ "$(field "$T/p1.csv" $r pipeline)" = 1 ] || fail "P=$(field "$T/p1.csv" $r pipeline)"
		[ "$(field "$T/p1.csv" $r target)" = "unix:$SOCK" ] || fail "target '$(field "$T/p1.csv" $r target)'"
	done
	# -P 16 contradicts a command line without -P.
	expect_status 2 "$RSWEEP" import -P 16 -l p1 -o "$T/no.csv" "$T/p1.txt"
	grep -q "p1.txt:1: the command line has no -P (so P=1), but -P says 16" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a pasted -q command line without -P: P=1 and its target' t_paste_default

# ---- report: a comparison across clients says so; --relabel ----
# own.csv (rsweep, labelled with the host name) against loop.csv.
t_relabel() {
	tcase_needs "rsweep's own rows name rsweep as their client"
	tcase_needs 'a loop over depths with flushall between runs'
	own=$(field "$T/own.csv" 1 label)
	loop=$(field "$T/loop.csv" 1 label)
	expect_status 0 "$RSWEEP" report --relabel "$own=mine,$loop=theirs" --baseline mine "$T/own.csv" "$T/loop.csv"
	grep -q "theirs was measured by redis-benchmark and mine by rsweep $version: every comparison between them includes the difference between the two clients" "$T/out" ||
		fail "no mixed-clients note: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" plot --relabel "$own=mine,$loop=theirs" --baseline mine "$T/own.csv" "$T/loop.csv" -o "$T/mixed.png"
	grep -q "^rsweep plot: note: theirs was measured by redis-benchmark and mine by rsweep $version" "$T/err" ||
		fail "plot: no mixed-clients note: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" report --relabel "nosuch=x" "$T/own.csv"
	grep -q -- "--relabel: no row is labelled 'nosuch'" "$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" plot --relabel "$own" "$T/own.csv" -o "$T/x.png"
	grep -q -- "--relabel: '$own' is not OLD=NEW" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'report and plot across clients say so; --relabel' t_relabel

tcase_done
