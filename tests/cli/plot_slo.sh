#!/bin/sh
# rsweep plot of a file holding a run --slo search (tests/data/slo-search.csv,
# a live search of three depths on a loaded 2-core VM: two bracketed, one
# the generator's): by default the answer against depth, in PNG, SVG and
# PDF, the objective in its title and no probed rate a series of its own;
# --kind latency draws the probes with the budget across; --kind slo of
# data without a search, or with --metric, is one line and exit 2; report
# --format html holds the same chart.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

S=${RS_SRCDIR:-.}/tests/data/slo-search.csv
D=${RS_SRCDIR:-.}/data

# texts FILE: the SVG's text items, a line each.
texts() {
	sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"
}

t_default() {
	for f in png svg pdf; do
		expect_status 0 "$RSWEEP" plot "$S" -o "$T/s.$f"
		[ -s "$T/s.$f" ] || fail "s.$f is empty"
	done
	[ "$(od -An -tx1 -N8 "$T/s.png" | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "s.png: not a PNG"
	[ "$(head -c 5 "$T/s.pdf")" = "%PDF-" ] || fail "s.pdf: not a PDF"
	texts "$T/s.svg" >"$T/texts"
	grep -q "^Requests per second within p99=50ms (--slo), against pipeline depth$" "$T/texts" ||
		fail "no objective in the title: $(cat "$T/texts")"
	grep -q "^closed loop$" "$T/texts" || fail "no closed loop: $(cat "$T/texts")"
	grep -q "^generator-limited (a floor)$" "$T/texts" || fail "no generator mark: $(cat "$T/texts")"
	grep -q "^best: P=4$" "$T/texts" || fail "no best depth: $(cat "$T/texts")"
	! grep -q "@" "$T/texts" || fail "a probed rate as a series: $(grep "@" "$T/texts")"
	# Asked for by name, the same chart.
	expect_status 0 "$RSWEEP" plot "$S" --kind slo -o "$T/k.svg"
	cmp -s "$T/s.svg" "$T/k.svg" || fail "--kind slo is not the default's chart"
}
tcase 'a --slo file is drawn as its answer in PNG, SVG and PDF' t_default

t_kinds() {
	# The line charts: the closed-loop starts, no series a probed rate.
	expect_status 0 "$RSWEEP" plot "$S" --kind lines -o "$T/l.svg"
	texts "$T/l.svg" >"$T/texts"
	! grep -q "@" "$T/texts" || fail "lines: a probed rate as a series: $(grep "@" "$T/texts")"
	# The hockey stick: a line a depth through its probes, the budget across.
	expect_status 0 "$RSWEEP" plot "$S" --kind latency -o "$T/lat.svg"
	texts "$T/lat.svg" >"$T/texts"
	grep -q "^budget p99 50 ms (--slo p99=50ms)$" "$T/texts" || fail "no budget: $(cat "$T/texts")"
	grep -q "^GET P=4$" "$T/texts" || fail "no line of the probes at P=4: $(cat "$T/texts")"
	# Another percentile than the objective's: no budget to draw.
	expect_status 0 "$RSWEEP" plot "$S" --kind latency --metric p50 -o "$T/p50.svg"
	! grep -q ">budget" "$T/p50.svg" || fail "p50 drawn against p99's budget"
}
tcase '--kind lines draws the starts, --kind latency the probes and budget' t_kinds

t_plotfile() {
	# A latency panel keeps the probes' rows: the others still leave them out.
	printf '[The answer]\nkind = slo\n\n[Probes]\nkind = latency\n\n[Starts]\nkind = lines\n' \
		>"$T/s.plot"
	expect_status 0 "$RSWEEP" plot --plot "$T/s.plot" "$S" -o "$T/pf.svg"
	texts "$T/pf.svg" >"$T/texts"
	grep -q "^budget p99 50 ms (--slo p99=50ms)$" "$T/texts" || fail "no budget: $(cat "$T/texts")"
	# The panel's own title; the objective still in the subtitle.
	grep -q "^Solid: the highest offered rate that met p99=50ms; " "$T/texts" ||
		fail "no answer panel: $(cat "$T/texts")"
	! grep -q "@" "$T/texts" || fail "a probed rate as a series: $(grep "@" "$T/texts")"
}
tcase 'a plot file of the answer, the probes and the starts' t_plotfile

t_no_search() {
	expect_status 2 "$RSWEEP" plot "$D/sweep-unix.csv" --kind slo -o "$T/n.svg"
	[ "$(wc -l <"$T/err")" = 1 ] && grep -q "no row of .*sweep-unix.csv is a run --slo search's" "$T/err" ||
		fail "no search: $(cat "$T/err")"
	[ ! -e "$T/n.svg" ] || fail "a chart written"
	expect_status 2 "$RSWEEP" plot "$S" --kind slo --metric p99 -o "$T/n.svg"
	grep -q "^rsweep plot: --kind slo draws each search's sustained requests per second: drop --metric$" "$T/err" ||
		fail "--metric: $(cat "$T/err")"
	# --metric without --kind: that figure's lines of the starts, as asked.
	expect_status 0 "$RSWEEP" plot "$S" --metric p99 -o "$T/m.svg"
	! grep -q "(--slo)" "$T/m.svg" || fail "--metric p99 drew the --slo chart"
}
tcase '--kind slo without a search, or with --metric: one line, exit 2' t_no_search

t_html() {
	expect_status 0 "$RSWEEP" report --format html "$S" -o "$T/r.html"
	grep -q ">Requests per second within p99=50ms (--slo), against pipeline depth<" "$T/r.html" ||
		fail "no --slo chart in the page"
	[ "$(grep -c "<svg" "$T/r.html")" = 3 ] || fail "$(grep -c "<svg" "$T/r.html") charts, wanted 3"
}
tcase 'report --format html holds the answer chart' t_html

tcase_done
