#!/bin/sh
# man_lint.sh: every man page (man/rsweep.1, the reference, and
# man/rsweep-methods.7, how rsweep measures and what it measured) renders
# without a warning under mandoc -T lint and groff -ww (whichever are
# installed; skipped when neither is), its quotes balanced.
set -u
: "${RS_SRCDIR:?RS_SRCDIR must point at the source tree}"
pages="$RS_SRCDIR/man/rsweep.1 $RS_SRCDIR/man/rsweep-methods.7"
# fail, and the named cases.
. "$RS_SRCDIR/tests/cli/tcase.sh"
trap 'tcase_atexit $?' EXIT

if ! command -v mandoc >/dev/null 2>&1 && ! command -v groff >/dev/null 2>&1; then
	echo "SKIP: neither mandoc nor groff is installed"
	exit 77
fi

# Each page exists: a page missing from the tree is a failure, not a pass.
t_pages() {
	for page in $pages; do
		[ -s "$page" ] || fail "no $page"
	done
}
tcase 'every page is in the tree' t_pages

t_mandoc() {
	command -v mandoc >/dev/null 2>&1 || tcase_skip "no mandoc"
	out=$(mandoc -T lint -W warning $pages 2>&1)
	st=$?
	if [ "$st" != 0 ] || [ -n "$out" ]; then
		fail "mandoc -T lint -W warning:
$out"
	fi
}
tcase 'mandoc -T lint: no warning' t_mandoc

# Quotes that open inside quotes: ".Pq Ql a , Ql b" renders as
# "(‘a, ‘b’’)", and ".Pq Dq a , Dq b" as "(“a, “b””)", since each quote
# macro encloses the rest of its line.  Walked over each rendered
# paragraph, lines joined (a quote may open on one line and close on the
# next): single and double quotes each open only when closed, close only
# when open, and are closed by the paragraph's end.
t_quotes() {
	command -v mandoc >/dev/null 2>&1 || tcase_skip "no mandoc"
	for page in $pages; do
		t_quotes_of "$page"
	done
}

t_quotes_of() {
	page=$1
	bad=$(mandoc -T utf8 "$page" 2>/dev/null | sed "s/.\x08//g" |
		sed 's/‘/\x01/g; s/’/\x02/g; s/“/\x03/g; s/”/\x04/g' |
		LC_ALL=C awk 'BEGIN { RS = "" }
		{
			gsub(/[ \t\n]+/, " ")
			s = 0; d = 0; why = ""
			for (i = 1; i <= length($0) && why == ""; i++) {
				c = substr($0, i, 1)
				if (c == "\001") { if (s) why = "a single quote opens inside one"; s = 1 }
				else if (c == "\002") { if (!s) why = "a single quote closes none"; s = 0 }
				else if (c == "\003") { if (d) why = "a double quote opens inside one"; d = 1 }
				else if (c == "\004") { if (!d) why = "a double quote closes none"; d = 0 }
			}
			if (why == "" && (s || d))
				why = "a quote is still open at the end of the paragraph"
			if (why != "") {
				from = i > 60 ? i - 60 : 1
				print why ": ..." substr($0, from, 90) "..."
			}
		}' | sed 's/\x01/‘/g; s/\x02/’/g; s/\x03/“/g; s/\x04/”/g')
	if [ -n "$bad" ]; then
		fail "$page: nested or unbalanced quotes in the rendered page (one quote macro a line):
$bad"
	fi
	# And in the source: a quote macro encloses the rest of its line, so
	# ".Pq Ql a No for b" quotes "a for b" (balanced, but not what was meant).
	inside=$(grep -nE '^\..*(^|[ .])(Ql|Sq|Dq|Qq) .* No ' "$page")
	if [ -n "$inside" ]; then
		fail "$page: a quote macro followed by No on its line, which it encloses too:
$inside"
	fi
}
tcase 'the rendered page: no nested or unbalanced quotes' t_quotes

t_groff() {
	command -v groff >/dev/null 2>&1 || tcase_skip "no groff"
	for page in $pages; do
		out=$(groff -ww -mandoc -z "$page" 2>&1)
		st=$?
		if [ "$st" != 0 ] || [ -n "$out" ]; then
			fail "$page: groff -ww -mandoc:
$out"
		fi
	done
}
tcase 'groff -ww: no warning' t_groff

tcase_done
