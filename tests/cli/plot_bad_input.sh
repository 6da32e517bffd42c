#!/bin/sh
# Bad input to rsweep plot: one line naming the file (and line) and the
# reason, exit 2 (1 for I/O), and never a file written over a good one.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-plot.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

# bad STATUS MESSAGE ARGS...: rsweep plot ARGS exits STATUS with one line saying MESSAGE.
bad() {
	want=$1
	msg=$2
	shift 2
	"$RSWEEP" plot "$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, wanted $want: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': message is not one line: $(cat "$T/err")"
	grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
}

H=label,test,pipeline,repeat,rps
{
	echo "$H"
	for d in 1 2 4 8; do
		echo "m1,GET,$d,1,$((d * 100000))"
		echo "m1,SET,$d,1,$((d * 90000))"
	done
} >"$T/good.csv"
printf '%s\nm1,GET,1,1,100\nm1,GET,2,1,fast\n' "$H" >"$T/nonnum.csv"
printf 'label,test,rps\nm1,GET,100\n' >"$T/nocol.csv"
: >"$T/empty.csv"
printf '%s\n' "$H" >"$T/header.csv"
printf '%s\nm1,GET,4,1,100\nm1,SET,4,1,200\n' "$H" >"$T/onedepth.csv"

# A good chart first, to check that failures leave it alone.
t_good() {
	"$RSWEEP" plot "$T/good.csv" -o "$T/keep.png" || fail "good input failed"
	cp "$T/keep.png" "$T/keep.orig"
}
tcase 'a good chart first' t_good

t_bad_csv() {
	bad 2 "nonnum.csv:3" "$T/nonnum.csv" -o "$T/keep.png"
	bad 2 "nocol.csv" "$T/nocol.csv" -o "$T/keep.png"
	bad 2 "empty.csv" "$T/empty.csv" -o "$T/keep.png"
	bad 2 "header.csv: no result rows" "$T/header.csv" -o "$T/keep.png"
	bad 2 "onedepth.csv: every row is at pipeline depth 4" "$T/onedepth.csv" -o "$T/keep.png"
}
tcase 'a bad or empty CSV, or one depth only, is refused' t_bad_csv

t_bad_options() {
	bad 2 "unknown test 'gett'" "$T/good.csv" --tests gett -o "$T/keep.png"
	bad 2 "--tests: 'get,,set': empty item" "$T/good.csv" --tests get,,set -o "$T/keep.png"
	bad 2 "option --metric: 'fastness' is not one of" "$T/good.csv" --metric fastness -o "$T/keep.png"
	bad 2 "no p99 figure" "$T/good.csv" --metric p99 -o "$T/keep.png"
	bad 2 "no output file" "$T/good.csv"
	bad 2 "is a .png, a .pdf or an .svg file" "$T/good.csv" -o "$T/out.gif"
	bad 2 "no CSV file" -o "$T/out.png"
	bad 2 "speed-up chart compares two labels" "$T/good.csv" --kind speedup -o "$T/keep.png"
	bad 2 "font /nonexistent.ttf" "$T/good.csv" --font /nonexistent.ttf -o "$T/keep.png"
}
tcase 'bad tests, metric, kind, font or output name are refused' t_bad_options

# Issue 32: a --tests item that selects nothing names the files' tests,
# once each: "SET window" and "GET @20000/s" are series of SET and GET,
# not tests of their own.
t_unknown_lists_tests() {
	{
		echo "label,test,pipeline,repeat,rps,mode,rate_offered,arrivals"
		for d in 1 2 4; do
			echo "m1,SET,$d,1,$((d * 90000)),lockstep,,"
			echo "m1,SET,$d,1,$((d * 95000)),window,,"
			echo "m1,GET,$d,1,$((d * 20000)),lockstep,20000,uniform"
		done
	} >"$T/modes.csv"
	bad 2 "unknown test 'lrange' (tests in these files: SET, GET)\$" "$T/modes.csv" -t lrange \
		-o "$T/keep.png"
	! grep -q "window\|@" "$T/err" || fail "series listed as tests: $(cat "$T/err")"
}
tcase 'an unknown --tests item lists the tests once, not their series' t_unknown_lists_tests

t_bad_files() {
	bad 2 "missing.csv: No such file" "$T/missing.csv" -o "$T/keep.png"
	bad 1 "cannot write $T/nodir/out.png" "$T/good.csv" -o "$T/nodir/out.png"
	bad 2 "option --size: '20000x20000': 20000 is out of range (100 to 14400)" "$T/good.csv" \
		--size 20000x20000 -o "$T/keep.png"
}
tcase 'a missing CSV, an output in no directory, a size too large are refused' t_bad_files

t_bad_plot() {
	printf 'metric = rps\n[one]\ntests = get\ncolour = red\n' >"$T/bad.plot"
	bad 2 "bad.plot:4: unknown panel key 'colour'" --plot "$T/bad.plot" "$T/good.csv" -o "$T/keep.png"
	# A mistyped installed name gets the name it likely meant (issue 44).
	bad 2 "--plot: m1-artcle: no such plot file; did you mean m1-article? (looked for m1-artcle, " \
		--plot m1-artcle "$T/good.csv" -o "$T/keep.png"
}
tcase 'a bad plot file is refused' t_bad_plot

t_untouched() {
	tcase_needs 'a good chart first'
	cmp -s "$T/keep.png" "$T/keep.orig" || fail "a failed plot changed keep.png"
	ls -a "$T" | grep -q '^\.keep' && fail "a temporary file was left behind"
	[ ! -e "$T/out.gif" ] && [ ! -e "$T/out.png" ] || fail "an output file was written"
}
tcase 'the failed plots left the good chart and no other file' t_untouched

# Options after the files, a plot file with panels, PDF pages, --split.
t_panels() {
	printf 'size = 600x400\n[Reads]\ntests = get\n[Writes]\ntests = set,mset\n' >"$T/two.plot"
	"$RSWEEP" plot --plot "$T/two.plot" "$T/good.csv" -o "$T/two.pdf" || fail "two-panel PDF"
	if command -v pdfinfo >/dev/null 2>&1; then
		pdfinfo "$T/two.pdf" | grep -q "^Pages: *2" || fail "two.pdf has not 2 pages"
	fi
	"$RSWEEP" plot --plot "$T/two.plot" "$T/good.csv" --split -o "$T/s.png" || fail "--split"
	[ -s "$T/s-1.png" ] && [ -s "$T/s-2.png" ] || fail "--split did not write s-1.png and s-2.png"
	"$RSWEEP" plot "$T/good.csv" -o "$T/a.pdf" && "$RSWEEP" plot "$T/good.csv" -o "$T/b.pdf" &&
		cmp -s "$T/a.pdf" "$T/b.pdf" || fail "PDF output differs between runs"
}
tcase "a plot file's panels as PDF pages or --split PNGs, and PDFs alike between runs" t_panels

# The largest --size draws in both formats (it once failed as too large).
t_big() {
	for f in big.png big.pdf; do
		"$RSWEEP" plot "$T/good.csv" --size 14400x14400 -o "$T/$f" 2>"$T/err" ||
			fail "--size 14400x14400 -o $f: $(cat "$T/err")"
		[ -s "$T/$f" ] || fail "--size 14400x14400 wrote no $f"
	done
}
tcase 'the largest --size draws in both formats' t_big

tcase_done
