#!/bin/sh
# man_lint.sh: man/rsweep.1 renders without a warning under mandoc -T lint
# and groff -ww (whichever are installed; skipped when neither is).
set -u
: "${RS_SRCDIR:?RS_SRCDIR must point at the source tree}"
page=$RS_SRCDIR/man/rsweep.1
# fail, and the named cases.
. "$RS_SRCDIR/tests/cli/tcase.sh"
trap 'tcase_atexit $?' EXIT

if ! command -v mandoc >/dev/null 2>&1 && ! command -v groff >/dev/null 2>&1; then
	echo "SKIP: neither mandoc nor groff is installed"
	exit 77
fi

t_mandoc() {
	command -v mandoc >/dev/null 2>&1 || tcase_skip "no mandoc"
	out=$(mandoc -T lint -W warning "$page" 2>&1)
	st=$?
	if [ "$st" != 0 ] || [ -n "$out" ]; then
		fail "mandoc -T lint -W warning:
$out"
	fi
	# Quotes that open inside quotes: ".Pq Ql a , Ql b" renders as
	# "(‘a, ‘b’’)", since each Ql encloses the rest of its line.
	nested=$(mandoc -T utf8 "$page" 2>/dev/null | sed "s/.\x08//g" | grep -n "‘[^’]*‘")
	if [ -n "$nested" ]; then
		fail "nested quotes in the rendered page (one .Ql a line each):
$nested"
	fi
}
tcase 'mandoc -T lint: no warning, no nested quotes' t_mandoc

t_groff() {
	command -v groff >/dev/null 2>&1 || tcase_skip "no groff"
	out=$(groff -ww -mandoc -z "$page" 2>&1)
	st=$?
	if [ "$st" != 0 ] || [ -n "$out" ]; then
		fail "groff -ww -mandoc:
$out"
	fi
}
tcase 'groff -ww: no warning' t_groff

tcase_done
