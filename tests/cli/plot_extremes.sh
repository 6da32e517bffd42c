#!/bin/sh
# Charts of extreme figures (issue 40, D9): cells and points of 1e-6,
# 1e14, 1e15 (the largest a CSV may hold), 0 and 1e-300 requests per
# second, and latencies alike, in every chart kind that draws them (lines,
# speedup, latency, latency-depth, heatmap), as PNG and PDF.  Each is drawn,
# exit 0, a whole file.  A heat map of 1e-6 and 1e14 once drew a label at
# minus infinity, an int overflow in the PNG back-end that the sanitizer
# build (CI's) stops on.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-extremes.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

# file V: two labels, one test, depths 1 and 2 at 1 and 2 clients, with
# V, 1e14 and 1e-6 among the figures (a latency of V ms too).
file() {
	{
		echo "label,test,pipeline,clients,repeat,rps,avg_ms,p50_ms,p99_ms"
		echo "x,GET,1,1,1,$1,$1,$1,$1"
		echo "x,GET,2,1,1,1e14,1e-6,1e-6,1e14"
		echo "x,GET,1,2,1,5,0.5,0.5,5"
		echo "x,GET,2,2,1,1e-6,1e14,1e14,1e15"
		echo "y,GET,1,1,1,7,1,1,1"
		echo "y,GET,2,1,1,$1,$1,$1,$1"
		echo "y,GET,1,2,1,1e15,1e-6,1e-6,1e-6"
		echo "y,GET,2,2,1,3,2,2,2"
	} >"$T/v.csv"
}

# drawn ARGS...: rsweep plot ARGS exits 0, quiet but for notes, and the
# file is whole.
drawn() {
	rm -f "$T/o.png" "$T/o.pdf"
	"$RSWEEP" plot "$@" >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" = 0 ] || fail "plot $*: exit $st: $(cat "$T/err")"
	! grep -q "runtime error\|Sanitizer" "$T/err" || fail "plot $*: $(cat "$T/err")"
	if [ -e "$T/o.png" ]; then
		[ "$(tail -c 8 "$T/o.png" | od -An -c -N4 | tr -d ' \n')" = IEND ] ||
			fail "plot $*: no IEND at the PNG's end"
	else
		[ "$(head -c 5 "$T/o.pdf")" = "%PDF-" ] && tail -c 8 "$T/o.pdf" | grep -q "%%EOF" ||
			fail "plot $*: not a whole PDF"
	fi
}

t_kinds() {
	for v in 1e-6 1e14 1e15 0 1e-300; do
		file "$v"
		for k in lines latency latency-depth heatmap; do
			for o in o.png o.pdf; do
				drawn --kind "$k" "$T/v.csv" -o "$T/$o"
			done
		done
		# Speed-up bars at depth 1 (0 there has no ratio: refused).
		[ "$v" = 0 ] && continue
		drawn --kind speedup --depth 1 "$T/v.csv" -o "$T/o.png"
	done
}
tcase 'extreme figures are drawn by every chart kind, PNG and PDF' t_kinds

tcase_done
