#!/bin/sh
# rsweep plot --kind heatmap: a sweep of a private server over depth and
# two client counts drawn as a PNG and a PDF; the axes and the figure
# chosen; a strip (one value up) drawn without a word; a map for each
# server's arguments; maps that do not fit one chart drawn a chart each;
# bad input (unknown axes and figures, x == y, a file without the axis,
# no rows) one line and exit 2, the chart as it was.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,4,16 -c 1,4 -n 2000 --repeat 2 -q -l m1 \
	-o "$T/r.csv"
# The rows of one client count (no field before clients holds a comma).
awk -F, 'NR == 1 || $4 == 1' "$T/r.csv" >"$T/c1.csv"
[ "$(rows "$T/c1.csv")" = 12 ] && [ "$(rows "$T/r.csv")" = 24 ] ||
	fail "c1.csv: $(rows "$T/c1.csv") rows of $(rows "$T/r.csv"), wanted 12 of 24"

# png_size FILE: "W H" from its IHDR, after checking the signature and IEND.
png_size() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1: not a PNG"
	[ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = IHDR ] || fail "$1: no IHDR"
	[ "$(tail -c 8 "$1" | od -An -c -N4 | tr -d ' \n')" = IEND ] || fail "$1: no IEND at its end"
	od -An -tu1 -j16 -N8 "$1" |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

t_png_pdf() {
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind heatmap -o "$T/h.png"
	[ "$(png_size "$T/h.png")" = "1200 800" ] || fail "h.png is $(png_size "$T/h.png")"
	[ ! -s "$T/err" ] || fail "a complete file: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind heatmap --size 900x600 -o "$T/h.pdf"
	[ "$(head -c 5 "$T/h.pdf")" = "%PDF-" ] || fail "h.pdf: not a PDF"
	if command -v pdftotext >/dev/null; then
		pdftotext "$T/h.pdf" "$T/h.txt" || fail "pdftotext failed"
		for want in "Requests per second by pipeline depth and clients" "GET" "SET" \
			"pipeline depth (log scale: powers of two)" "requests per second, log scale" \
			"1–4 clients"; do
			grep -qF "$want" "$T/h.txt" || fail "h.pdf does not say '$want': $(cat "$T/h.txt")"
		done
	fi
}
tcase 'a sweep over depth and clients draws a PNG and a PDF' t_png_pdf

# --latency-budget outlines the cells within it, and the legend says so
# (issue 44); the cells themselves are as without it.
t_budget() {
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind heatmap --latency-budget 50ms \
		--budget-metric max_ms -o "$T/b.pdf"
	if command -v pdftotext >/dev/null; then
		pdftotext "$T/b.pdf" - | tr '\n' ' ' | grep -qF "max within 50 ms (--latency-budget): the cells inside the outline" ||
			fail "no budget legend: $(pdftotext "$T/b.pdf" -)"
	fi
}
tcase '--latency-budget outlines the cells within it' t_budget

t_axes() {
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind heatmap --x clients --y depth --z p99 \
		--tests get -o "$T/a.pdf"
	if command -v pdftotext >/dev/null; then
		pdftotext "$T/a.pdf" - | grep -qF "p99 latency (ms)" || fail "--z p99: not in the PDF"
		pdftotext "$T/a.pdf" - | grep -q "SET" && fail "--tests get drew SET"
	fi
	# One client count: a strip of one row, said nothing about.
	expect_status 0 "$RSWEEP" plot "$T/c1.csv" --kind heatmap -o "$T/strip.png"
	[ "$(png_size "$T/strip.png")" = "1200 800" ] || fail "strip.png is $(png_size "$T/strip.png")"
	[ ! -s "$T/err" ] || fail "a strip: $(cat "$T/err")"
	# Data size is held: the maps' names say which.
	# (No field before data_size holds a comma.)
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "clients") c = i
		if ($i == "data_size") d = i } } NR > 1 && $c == 4 { $d = 1024 } 1' \
		"$T/r.csv" >"$T/d.csv"
	grep -q ",1024,0,lockstep," "$T/d.csv" || fail "no row of d.csv has data_size 1024"
	expect_status 0 "$RSWEEP" plot "$T/d.csv" --kind heatmap --y data-size -o "$T/d.pdf"
	if command -v pdftotext >/dev/null; then
		pdftotext "$T/d.pdf" - | grep -q "GET c=1" || fail "no map held at c=1"
		pdftotext "$T/d.pdf" - | grep -q "GET c=4" || fail "no map held at c=4"
	fi
}
tcase 'the axes, the figure, a strip, and the axes held' t_axes

# Two servers' arguments under one label: a map each, named by them.
t_server_args() {
	expect_status 0 "$RSWEEP" run --spawn --spawn-args '--io-threads 1|2' -t get -P 1,4 -c 1,2 \
		-n 1000 --repeat 1 -q -l m1 -o "$T/sa.csv"
	expect_status 0 "$RSWEEP" plot "$T/sa.csv" --kind heatmap -o "$T/sa.pdf"
	if command -v pdftotext >/dev/null; then
		pdftotext -raw "$T/sa.pdf" "$T/sa.txt" || fail "pdftotext failed"
		grep -qxF "GET [--io-threads 1]" "$T/sa.txt" || fail "no map of io-threads 1: $(cat "$T/sa.txt")"
		grep -qxF "GET [--io-threads 2]" "$T/sa.txt" || fail "no map of io-threads 2: $(cat "$T/sa.txt")"
	fi
}
tcase 'a map for each set of server arguments' t_server_args

# Three labels of 40 x 40 cells do not share a 500 x 400 chart: a chart
# each, side by side.
t_apart() {
	{
		echo "label,test,pipeline,clients,repeat,rps"
		for l in a b c; do
			awk -v l="$l" 'BEGIN { for (d = 1; d <= 40; d++) for (c = 1; c <= 40; c++)
				printf "%s,GET,%d,%d,1,%d\n", l, d, c, 1000 * d * c }'
		done
	} >"$T/big.csv"
	expect_status 0 "$RSWEEP" plot "$T/big.csv" --kind heatmap --size 500x400 -o "$T/big.png"
	[ "$(png_size "$T/big.png")" = "1000 800" ] || fail "big.png is $(png_size "$T/big.png")"
	expect_status 0 "$RSWEEP" plot "$T/big.csv" --kind heatmap --size 500x400 -o "$T/big.pdf"
	if command -v pdfinfo >/dev/null; then
		pdfinfo "$T/big.pdf" | grep -q "^Pages: *3$" || fail "big.pdf: $(pdfinfo "$T/big.pdf")"
	fi
}
tcase 'maps too many for one chart are a chart each' t_apart

t_bad() {
	tcase_needs 'a sweep over depth and clients draws a PNG and a PDF'
	cp "$T/h.png" "$T/keep.png"
	printf 'label,test,pipeline,repeat,rps\nm1,GET,1,1,1000\nm1,GET,4,1,3000\n' >"$T/noclients.csv"
	printf 'label,test,pipeline,clients,repeat,rps\n' >"$T/header.csv"
	printf '[panel]\ntests = get\n' >"$T/p.plot"
	bad() {
		msg=$1
		shift
		expect_status 2 "$RSWEEP" plot "$@" -o "$T/keep.png"
		[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': not one line: $(cat "$T/err")"
		grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
	}
	bad "option --x: 'size' is not one of depth|clients|data-size|threads" \
		"$T/r.csv" --kind heatmap --x size
	bad "option --y: 'Clients' is not one of depth|clients|data-size|threads" \
		"$T/r.csv" --kind heatmap --y Clients
	bad "option --z: 'p90' is not one of rps|avg|p50|p95|p99|p999|max" \
		"$T/r.csv" --kind heatmap --z p90
	bad "--x and --y are both clients: a heat map needs two different axes" \
		"$T/r.csv" --kind heatmap --x clients
	bad "--x and --y are both depth" "$T/r.csv" --kind heatmap --y depth
	bad "--y goes with --kind heatmap" "$T/r.csv" --y depth
	bad "a heat map's axes are --x and --y: drop --by" "$T/r.csv" --kind heatmap --by clients
	bad "--kind heatmap colours its cells by --z: say --z p99, not --metric" \
		"$T/r.csv" --kind heatmap --metric p99
	bad "--kind heatmap: no row has both its depth and its clients known" \
		"$T/noclients.csv" --kind heatmap
	bad "--kind heatmap: no row has a p99 figure" "$T/noclients.csv" --kind heatmap --x depth \
		--y threads --z p99
	bad "header.csv: no result rows, only a header" "$T/header.csv" --kind heatmap
	bad "--latency-budget goes with --kind heatmap" "$T/r.csv" --latency-budget 1ms
	bad "--budget-metric goes with --latency-budget" "$T/r.csv" --kind heatmap \
		--budget-metric p50_ms
	bad "--latency-budget: " "$T/r.csv" --kind heatmap --latency-budget 1
	bad "p.plot: --kind heatmap draws a panel per grid" "$T/r.csv" --kind heatmap --plot "$T/p.plot"
	bad "--tests: unknown test 'lpush'" "$T/r.csv" --kind heatmap --tests lpush
	cmp -s "$T/keep.png" "$T/h.png" || fail "a failed plot changed keep.png"
}
tcase 'bad input: one line, exit 2, the chart as it was' t_bad

tcase_done
