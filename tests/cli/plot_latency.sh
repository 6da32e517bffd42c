#!/bin/sh
# rsweep plot --kind latency, latency-depth and latency-cdf: from a run's
# CSV and its histogram sidecar each draws a PNG (signature, header and
# size checked from its bytes) and a PDF; bad input (no latency columns,
# no sidecar for the distributions, options that do not go together) is
# one line and exit 2, the output untouched.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,4,16 -n 3000 --repeat 2 -q -o "$T/r.csv"

# png_ok FILE W H: a PNG whose IHDR says W x H.
png_ok() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1: not a PNG"
	[ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = IHDR ] || fail "$1: no IHDR"
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	[ "$w" = "$2" ] && [ "$h" = "$3" ] || fail "$1: ${w}x$h, wanted $2x$3"
	[ "$(tail -c 8 "$1" | od -An -c -N4 | tr -d ' \n')" = IEND ] || fail "$1: no IEND at its end"
}

t_kinds() {
	for k in latency latency-depth latency-cdf; do
		expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind "$k" -o "$T/$k.png"
		png_ok "$T/$k.png" 1200 800
		expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind "$k" --size 600x400 -o "$T/$k.pdf"
		[ "$(head -c 5 "$T/$k.pdf")" = "%PDF-" ] || fail "$k: not a PDF"
	done
}
tcase 'each latency kind draws a PNG and a PDF' t_kinds

t_options() {
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind latency --metric p999 --tests get -o "$T/a.png"
	png_ok "$T/a.png" 1200 800
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind latency-cdf --points 1,16 --tests get -o "$T/c.png"
	png_ok "$T/c.png" 1200 800
}
tcase '--metric p999 and --points draw' t_options

# With the sidecar every point is merged; without it -v says so once.
# (The copy without its sidecar is the bad-input case's too.)
cp "$T/r.csv" "$T/noside.csv"

t_sidecar() {
	expect_status 0 "$RSWEEP" plot "$T/r.csv" --kind latency -v -o "$T/v.png"
	! grep -q "histogram" "$T/err" || fail "with a sidecar: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" plot "$T/noside.csv" --kind latency -v -o "$T/v.png"
	[ "$(grep -c "noside.csv has no histogram sidecar" "$T/err")" = 1 ] ||
		fail "without a sidecar: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" report "$T/r.csv" --latency-budget 1s -v
	! grep -q "histogram" "$T/err" || fail "report with a sidecar: $(cat "$T/err")"
	grep -q "^  [^ ].* GET  *[0-9]" "$T/out" || fail "report: $(cat "$T/out")"
}
tcase 'with the sidecar every point is merged, without it -v says so once' t_sidecar

# Bad input: one line, exit 2, keep.png as it was.
t_bad() {
	tcase_needs 'each latency kind draws a PNG and a PDF'
	cp "$T/latency.png" "$T/keep.png"
	printf 'label,test,pipeline,repeat,rps\na,GET,1,1,1000\na,GET,4,1,3000\n' >"$T/nolat.csv"
	bad() {
		msg=$1
		shift
		expect_status 2 "$RSWEEP" plot "$@" -o "$T/keep.png"
		[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': not one line: $(cat "$T/err")"
		grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
	}
	bad "no p99 figures to draw" "$T/nolat.csv" --kind latency
	bad "no p99 figures to draw" "$T/nolat.csv" --kind latency-depth
	bad "noside.csv:[0-9]*: no latency histogram for this row" "$T/noside.csv" --kind latency-cdf
	bad "--points goes with --kind latency-cdf" "$T/r.csv" --points 1
	bad "--kind latency draws a latency" "$T/r.csv" --kind latency --metric rps
	bad "--kind latency-cdf draws whole latency distributions" "$T/r.csv" --kind latency-cdf --metric p99
	bad "--points: no series has the depth" "$T/r.csv" --kind latency-cdf --points 7
	cmp -s "$T/keep.png" "$T/latency.png" || fail "a failed plot changed keep.png"
}
tcase 'bad input: one line, exit 2, the chart as it was' t_bad

tcase_done
