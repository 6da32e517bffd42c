#!/bin/sh
# archiver.sh: the build's ar and ARFLAGS make the library without a word:
# automake's default "cru" drew "u modifier ignored" from Debian's ar on
# every build, noise that hides the warnings that matter.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-ar.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

makefile=$(dirname "$(dirname "$RSWEEP")")/Makefile
[ -r "$makefile" ] || fail "no Makefile at $makefile"
ar=$(sed -n 's/^AR = //p' "$makefile")
arflags=$(sed -n 's/^ARFLAGS = //p' "$makefile")
[ -n "$ar" ] || fail "no AR in $makefile"

t_quiet() {
	echo member >"$T/member.o"
	# shellcheck disable=SC2086
	$ar $arflags "$T/lib.a" "$T/member.o" >"$T/out" 2>&1 || fail "$ar $arflags failed: $(cat "$T/out")"
	[ ! -s "$T/out" ] || fail "$ar $arflags says: $(cat "$T/out")"
	$ar t "$T/lib.a" | grep -qx member.o || fail "member.o is not in the library"
}
tcase "the build's ar and ARFLAGS make a library without a word" t_quiet

tcase_done
