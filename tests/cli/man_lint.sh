#!/bin/sh
# man_lint.sh: man/rsweep.1 renders without a warning under mandoc -T lint
# and groff -ww (whichever are installed; skipped when neither is).
set -u
: "${RS_SRCDIR:?RS_SRCDIR must point at the source tree}"
page=$RS_SRCDIR/man/rsweep.1
ran=0

if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -T lint -W warning "$page" 2>&1)
	st=$?
	if [ "$st" != 0 ] || [ -n "$out" ]; then
		printf 'FAIL: mandoc -T lint -W warning:\n%s\n' "$out" >&2
		exit 1
	fi
	# Quotes that open inside quotes: ".Pq Ql a , Ql b" renders as
	# "(‘a, ‘b’’)", since each Ql encloses the rest of its line.
	nested=$(mandoc -T utf8 "$page" 2>/dev/null | sed "s/.\x08//g" | grep -n "‘[^’]*‘")
	if [ -n "$nested" ]; then
		printf 'FAIL: nested quotes in the rendered page (one .Ql a line each):\n%s\n' "$nested" >&2
		exit 1
	fi
	ran=1
fi
if command -v groff >/dev/null 2>&1; then
	out=$(groff -ww -mandoc -z "$page" 2>&1)
	st=$?
	if [ "$st" != 0 ] || [ -n "$out" ]; then
		printf 'FAIL: groff -ww -mandoc:\n%s\n' "$out" >&2
		exit 1
	fi
	ran=1
fi
if [ "$ran" = 0 ]; then
	echo "SKIP: neither mandoc nor groff is installed"
	exit 77
fi
exit 0
