#!/bin/sh
# circles_self.sh: circles.sh passes on the build as it is, and fails,
# naming the files and the names that tie them, on circles planted in a
# tree of its own: two files of a folder that call each other, and three
# that call round.  Files of a folder that call one way, and files of two
# folders that call each other (the layers are layers.sh's), pass.  Run in
# the build tree (make check does): the objects are under ./src.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../src
CC=${CC:-cc}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failed=0
bad() { echo "FAIL: $*"; failed=1; }

out=$(sh "$here/circles.sh" "$src" src 2>&1) || bad "the build as it is has a circle: $out"

command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($CC) for the planted circles"; exit 77; }

# plant NAME 'FUNC CALLS...'...: a fresh tree of folder f with files
# NAME.c, one a word list: the file defines FUNC and calls CALLS.
plant() {
	rm -rf "$T/src" && mkdir -p "$T/src/f" "$T/src/g" || exit 1
	for spec in "$@"; do
		set -- $spec
		dir=$1 file=$2 def=$3
		shift 3
		{
			for c in "$@"; do echo "int $c(void);"; done
			printf 'int %s(void)\n{\n\treturn 0' "$def"
			for c in "$@"; do printf ' + %s()' "$c"; done
			printf ';\n}\n'
		} >"$T/src/$dir/$file.c"
		"$CC" -c -o "$T/src/$dir/$file.o" "$T/src/$dir/$file.c" || { bad "cannot compile $file.c"; return 1; }
	done
}
# expect fail|pass WHAT WANT...: circles.sh on the planted tree.
expect() {
	how=$1 what=$2
	shift 2
	if out=$(sh "$here/circles.sh" "$T/src" "$T/src" 2>&1); then
		[ "$how" = pass ] || bad "$what: passes"
	else
		[ "$how" = fail ] || { bad "$what: fails: $out"; return; }
	fi
	for want in "$@"; do
		printf '%s\n' "$out" | grep -qF -- "$want" || bad "$what: says \"$out\", not \"$want\""
	done
}

plant "f a a_one b_one" "f b b_one a_one" "f c c_one a_one"
expect fail "two files that call each other" 'circle: src/f/' 'src/f/a.c -> src/f/b.c: b_one' \
	'src/f/b.c -> src/f/a.c: a_one'
plant "f a a_one b_one" "f b b_one c_one" "f c c_one a_one" "f d d_one a_one"
expect fail "three files that call round" 'src/f/a.c -> src/f/b.c: b_one' \
	'src/f/b.c -> src/f/c.c: c_one' 'src/f/c.c -> src/f/a.c: a_one'
out=$(sh "$here/circles.sh" "$T/src" "$T/src" 2>&1)
printf '%s\n' "$out" | grep -q 'src/f/d.c' && bad "a file outside the circle named in it: $out"
plant "f a a_one b_one c_one" "f b b_one c_one" "f c c_one"
expect pass "files that call one way"
plant "f a a_one b_one" "g b b_one a_one"
expect pass "files of two folders that call each other"
[ "$failed" = 0 ] && echo ok
exit $failed
