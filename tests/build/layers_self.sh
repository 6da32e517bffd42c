#!/bin/sh
# layers_self.sh: layers.sh passes on the tree as it is, and fails, naming
# the file, on each kind of breach put into a copy of it: an include that
# runs up a layer, a private header used outside its folder, an include
# that names no folder, a file outside the folders, a folder that is no layer.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../src
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failed=0
bad() { echo "FAIL: $*"; failed=1; }

out=$(sh "$here/layers.sh" "$src" 2>&1) || bad "the tree as it is breaks its layers: $out"

# breach WHAT EXPECTED EDIT...: a fresh copy, EDIT run in it, layers.sh must
# fail and print EXPECTED.
breach() {
	what=$1 want=$2
	shift 2
	rm -rf "$T/src" && cp -R "$src" "$T/src" || exit 1
	(cd "$T/src" && eval "$*") || { bad "$what: could not set it up"; return; }
	if out=$(sh "$here/layers.sh" "$T/src" 2>&1); then
		bad "$what: passes"
	else
		printf '%s\n' "$out" | grep -qF -- "$want" || bad "$what: says \"$out\", not \"$want\""
	fi
}
breach "an include up a layer" 'src/base/num.c:' \
	"printf '#include \"cli/opts.h\"\n' >>base/num.c"
breach "a private header of another folder" 'a private header of engine' \
	"printf '#include \"engine/engine_int.h\"\n' >>sweep/sweep.c"
breach "an include naming no folder" 'names no folder' \
	"printf '#include \"num.h\"\n' >>base/vec.c"
breach "a file outside the folders" 'src/stray.c: a source file outside' \
	"echo 'int x;' >stray.c"
breach "a folder that is no layer" 'src/misc/: a folder that is not a layer' \
	"mkdir misc && echo 'int y;' >misc/y.c"
[ "$failed" = 0 ] && echo ok
exit $failed
