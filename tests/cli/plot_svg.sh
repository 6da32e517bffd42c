#!/bin/sh
# rsweep plot -o chart.svg: every chart kind (lines, speed-up, masters,
# small multiples, the three latency kinds, a heat map) drawn from the
# committed data/*.csv as well-formed XML (tests/xmlcheck, and xmllint
# where installed) of the --size asked, its text as <text>; several panels
# side by side in one SVG as in a PNG, or a file each with --split; labels
# with markup and bytes that are not UTF-8 escaped; the same bytes in a
# decimal-comma locale; a full disk and a wrong extension said in one line.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-plotsvg.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

D=${RS_SRCDIR:-$(dirname "$0")/../..}/data
XMLCHECK=${RSWEEP%/src/rsweep}/tests/xmlcheck
if [ ! -x "$XMLCHECK" ]; then
	command -v xmllint >/dev/null || { echo "no tests/xmlcheck and no xmllint: skipped"; exit 77; }
	XMLCHECK=
fi

# wf FILE: well-formed XML, by both checks that are here.
wf() {
	if [ -n "$XMLCHECK" ]; then
		out=$("$XMLCHECK" "$1") || fail "$1 is not well-formed: $out"
	fi
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1" 2>"$T/lint" || fail "xmllint rejects $1: $(head -3 "$T/lint")"
	fi
	return 0
}

# size FILE: "W H" of the root element.
size() {
	sed -n '2s/.* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2/p' "$1"
}

# plot OUT ARGS...: rsweep plot ARGS -o OUT succeeds, OUT is well-formed.
plot() {
	out=$1
	shift
	"$RSWEEP" plot "$@" -o "$out" 2>"$T/err" || fail "plot $* -o $out: $(cat "$T/err")"
	wf "$out"
}

t_kinds() {
	plot "$T/lines.svg" "$D/valkey-vs-redis.csv"
	plot "$T/speedup.svg" --kind speedup "$D/valkey-vs-redis.csv"
	plot "$T/multiples.svg" --kind multiples "$D/valkey-vs-redis.csv"
	for k in latency latency-depth latency-cdf; do
		plot "$T/$k.svg" --kind "$k" "$D/latency-get.csv"
	done
	plot "$T/heatmap.svg" --kind heatmap "$D/clients-x-depth.csv"
	{
		echo label,test,pipeline,repeat,rps,master_rps
		for d in 1 2 4 8; do
			echo "c,GET,$d,1,$((d * 300000)),10.0.0.1:7000=$((d * 100000));10.0.0.2:7000=$((d * 99000));10.0.0.3:7000=$((d * 101000))"
		done
	} >"$T/masters.csv"
	plot "$T/masters.svg" --kind masters "$T/masters.csv"
	for k in lines speedup multiples latency latency-depth latency-cdf heatmap masters; do
		[ "$(size "$T/$k.svg")" = "1200 800" ] || fail "$k.svg is '$(size "$T/$k.svg")'"
		grep -q '<text [^>]*>GET' "$T/$k.svg" || fail "$k.svg: no GET as text"
	done
	grep -q '>Requests per second against pipeline depth' "$T/lines.svg" ||
		fail "lines.svg: no title as text"
	grep -q '>10.0.0.2:7000<' "$T/masters.svg" || fail "masters.svg: no master named"
	grep -q '>requests per second, log scale<' "$T/heatmap.svg" || fail "heatmap.svg: no bar title"
}
tcase 'every chart kind is well-formed SVG with its text as text' t_kinds

# Small multiples past the palette (11 tests), and a plot file's panels:
# side by side in one SVG, as PNG draws them; --split a file each.
t_pages() {
	{
		echo label,test,pipeline,repeat,rps
		for l in unix tcp; do
			for t in LRANGE_100 SADD INCR GET SET LPOP MSET ZADD HSET RPUSH SPOP; do
				for d in 1 2 4 8 16; do
					echo "$l,$t,$d,1,$((d * 100000 + ${#t} * 1000))"
				done
			done
		done
	} >"$T/eleven.csv"
	plot "$T/facets.svg" "$T/eleven.csv"
	grep -q '>SPOP' "$T/facets.svg" || fail "facets.svg: no SPOP panel"
	printf '[Reads]\ntests = get\n[Writes]\ntests = set\n[Lists]\ntests = lpop,rpush\n' >"$T/p.plot"
	plot "$T/pages.svg" --plot "$T/p.plot" --size 600x400 "$T/eleven.csv"
	[ "$(size "$T/pages.svg")" = "1200 800" ] || fail "3 panels: '$(size "$T/pages.svg")', wanted a 2x2 grid"
	for t in Reads Writes Lists; do
		grep -q ">$t</text>" "$T/pages.svg" || fail "pages.svg: no panel $t"
	done
	"$RSWEEP" plot --plot "$T/p.plot" --size 600x400 --split "$T/eleven.csv" -o "$T/s.svg" 2>"$T/err" ||
		fail "--split: $(cat "$T/err")"
	[ ! -e "$T/s.svg" ] || fail "--split wrote s.svg too"
	for i in 1 2 3; do
		wf "$T/s-$i.svg"
		[ "$(size "$T/s-$i.svg")" = "600 400" ] || fail "s-$i.svg is '$(size "$T/s-$i.svg")'"
	done
	grep -q '<title>Lists</title>' "$T/s-3.svg" || fail "s-3.svg: not titled Lists"
}
tcase 'several panels: a grid in one SVG, or a file each with --split' t_pages

# Labels come from users' files: markup and bytes that are not UTF-8.
t_escape() {
	{
		printf 'label,test,pipeline,repeat,rps\n'
		for d in 1 2 4; do
			printf '"a&b <c> ""q"" \377",GET,%s,1,%s\n' "$d" $((d * 100000))
			printf "it's,GET,%s,1,%s\n" "$d" $((d * 90000))
		done
	} >"$T/esc.csv"
	plot "$T/esc.svg" "$T/esc.csv"
	grep -q '>a&amp;b &lt;c&gt; &quot;q&quot; ' "$T/esc.svg" || fail "esc.svg: markup not escaped"
	grep -q '>it&#39;s' "$T/esc.svg" || fail "esc.svg: quote not escaped"
}
tcase 'labels with markup and bad bytes stay well-formed' t_escape

t_locale() {
	loc=$(locale -a 2>/dev/null | grep -i -m1 '^de_DE\.utf-\?8$')
	[ -n "$loc" ] || { tcase_skip "no de_DE locale"; return; }
	LC_ALL=C "$RSWEEP" plot "$D/valkey-vs-redis.csv" -o "$T/c.svg" 2>"$T/err" || fail "$(cat "$T/err")"
	LC_ALL=$loc "$RSWEEP" plot "$D/valkey-vs-redis.csv" -o "$T/de.svg" 2>"$T/err" || fail "$(cat "$T/err")"
	cmp -s "$T/c.svg" "$T/de.svg" || fail "LC_ALL=$loc changes the SVG"
}
tcase 'the same bytes in a decimal-comma locale' t_locale

t_errors() {
	ln -s /dev/full "$T/full.svg"
	"$RSWEEP" plot "$D/valkey-vs-redis.csv" -o "$T/full.svg" 2>"$T/err"
	st=$?
	[ "$st" = 1 ] || fail "a full disk exited $st: $(cat "$T/err")"
	grep -q "cannot write .*full.svg: No space left on device" "$T/err" || fail "full disk: $(cat "$T/err")"
	"$RSWEEP" plot "$D/valkey-vs-redis.csv" -o "$T/x.svgz" 2>"$T/err"
	st=$?
	[ "$st" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "a .png, a .pdf or an .svg file" "$T/err" ||
		fail ".svgz exited $st: $(cat "$T/err")"
	"$RSWEEP" plot "$D/valkey-vs-redis.csv" --split -o "$T/x.pdf" 2>"$T/err"
	[ $? = 2 ] && grep -q "split is for PNG and SVG" "$T/err" || fail "--split with a PDF: $(cat "$T/err")"
}
tcase 'a full disk and a wrong extension are one line' t_errors

tcase_done
