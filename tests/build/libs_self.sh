#!/bin/sh
# libs_self.sh: libs.sh passes on the build as it is, and fails, naming
# the file, on a planted folder whose library lacks one of its files, and
# on one whose library holds a file of another folder.  Run in the build
# tree (make check does): the libraries are under ./src.
set -u
here=$(cd "$(dirname "$0")" && pwd)
AR=${AR:-ar}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failed=0
bad() { echo "FAIL: $*"; failed=1; }

out=$(sh "$here/libs.sh" "$here/../../src" src 2>&1) || bad "the build as it is: $out"

# plant "FILES" "MEMBERS" WANT: folder f with FILES.c, its library with
# MEMBERS.o; libs.sh must fail and print WANT.
plant() {
	rm -rf "$T/src" "$T/obj" && mkdir -p "$T/src/f" "$T/obj/f" || exit 1
	for n in $1; do echo "int $n;" >"$T/src/f/$n.c"; done
	for n in $2; do echo "$n" >"$T/obj/f/$n.o"; done
	(cd "$T/obj/f" && for n in $2; do "$AR" rc libf.a "$n.o"; done) || exit 1
	if out=$(sh "$here/libs.sh" "$T/src" "$T/obj" 2>&1); then
		bad "$3: passes"
	else
		printf '%s\n' "$out" | grep -qF -- "$3" || bad "says \"$out\", not \"$3\""
	fi
}
plant "a b" "a" "src/f/b.c: not in"
plant "a" "a other" "holds other.o, not a file of src/f/"
plant "a" "" "no library"
[ "$failed" = 0 ] && echo ok
exit $failed
