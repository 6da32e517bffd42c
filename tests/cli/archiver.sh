#!/bin/sh
# archiver.sh: the build's ar and ARFLAGS make the library without a word:
# automake's default "cru" drew "u modifier ignored" from Debian's ar on
# every build, noise that hides the warnings that matter.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-ar.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

makefile=$(dirname "$(dirname "$RSWEEP")")/Makefile
[ -r "$makefile" ] || fail "no Makefile at $makefile"
ar=$(sed -n 's/^AR = //p' "$makefile")
arflags=$(sed -n 's/^ARFLAGS = //p' "$makefile")
[ -n "$ar" ] || fail "no AR in $makefile"
echo member >"$T/member.o"
# shellcheck disable=SC2086
$ar $arflags "$T/lib.a" "$T/member.o" >"$T/out" 2>&1 || fail "$ar $arflags failed: $(cat "$T/out")"
[ ! -s "$T/out" ] || fail "$ar $arflags says: $(cat "$T/out")"
$ar t "$T/lib.a" | grep -qx member.o || fail "member.o is not in the library"
exit 0
