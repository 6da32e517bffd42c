#!/bin/sh
# What plot and report refuse to read, and what they still take: a depth
# past the engine's (it laid out an axis of 4 billion, for seconds), and a
# chart of more series than it can tell apart (laying out 30k lines took
# minutes).  Each refusal is one line naming the problem, exit 2.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-limits.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

# bad MESSAGE CMD ARGS...: rsweep CMD ARGS exits 2 with one line saying MESSAGE.
bad() {
	msg=$1
	shift
	"$RSWEEP" "$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = 2 ] || fail "'$*' exited $got, wanted 2: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': message is not one line: $(cat "$T/err")"
	grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
}

# series N: N labels x 1 test, at depths 1 and 2.
series() {
	awk -v n="$1" 'BEGIN { print "label,test,pipeline,rps"
		for (i = 0; i < n; i++) printf "l%d,GET,1,%d\nl%d,GET,2,%d\n", i, 1000 + i, i, 1900 + i }'
}

t_deep() {
	printf 'label,test,pipeline,rps\nx,GET,1,1000\nx,GET,4294967295,2000\n' >"$T/deep.csv"
	bad "deep.csv:3: pipeline 4294967295 is above 1000000" plot "$T/deep.csv" -o "$T/d.png"
	bad "deep.csv:3: pipeline 4294967295 is above 1000000" report "$T/deep.csv"
	printf 'label,test,pipeline,rps\nx,GET,1,1000\nx,GET,1000000,2000\n' >"$T/deepest.csv"
	"$RSWEEP" plot "$T/deepest.csv" -o "$T/d.png" 2>"$T/err" || fail "depth 1000000: $(cat "$T/err")"
}
tcase "a depth past the engine's is refused, 1000000 still drawn" t_deep

# 257 labels: the chart, the panel and the report cases read it.
series 257 >"$T/257.csv"

t_257() {
	bad "257 series (labels x tests) in one chart, more than 256" plot "$T/257.csv" -o "$T/s.png"
	[ ! -e "$T/s.png" ] || fail "a refused chart was written"
}
tcase 'a chart of 257 series is refused, no file written' t_257

# The refusal comes as soon as the series are known, before their
# analysis (issue 40: 39 s of it on 4000 series before the refusal): with
# --depth at a depth no series has, the analysis' own refusal would come
# first otherwise.
t_257_early() {
	bad "257 series (labels x tests) in one chart, more than 256" \
		plot --depth 3 "$T/257.csv" -o "$T/s.png"
}
tcase 'a chart of 257 series is refused before the series are analysed' t_257_early

# Under the cap, a chart still tells its series apart or says it cannot:
# 256 labels are more than the palette's colours.
t_colours() {
	series 256 >"$T/256.csv"
	bad "256 labels but the palette has 7 colours" plot "$T/256.csv" -o "$T/s.png"
	series 7 >"$T/7.csv"
	"$RSWEEP" plot "$T/7.csv" -o "$T/s.png" 2>"$T/err" || fail "7 labels: $(cat "$T/err")"
}
tcase 'under the cap, more labels than colours are refused, 7 are drawn' t_colours

t_panel() {
	printf '[one]\ntitle = Lots\ntests = get\n' >"$T/p.plot"
	bad "panel 'Lots': 257 series" plot --plot "$T/p.plot" "$T/257.csv" -o "$T/s.png"
}
tcase 'a panel of 257 series is refused' t_panel

# The report has no such limit: a row each.
t_report() {
	"$RSWEEP" report "$T/257.csv" >"$T/out" 2>"$T/err" || fail "report of 257 labels: $(cat "$T/err")"
	grep -q "^  l256 " "$T/out" || fail "report of 257 labels misses l256"
}
tcase 'the report has no such limit' t_report

tcase_done
