#!/bin/sh
# libs.sh [SRCDIR [OBJDIR]]: each folder of src/ builds into a library of
# its own, OBJDIR/F/libF.a, that holds the objects of that folder's .c
# files and nothing else: a file listed under another folder's library,
# or under none, fails here and not at some later link.  Left out: main
# (cli/rsweep.c) and what librsweep_sys.a builds apart (base/platform.c,
# os/ev_*.c).  SRCDIR defaults to the tree this script sits in, OBJDIR to
# ./src (the build tree make check runs in).  Exits 1 with a line a
# misplaced file.
src=${1:-$(dirname "$0")/../../src}
obj=${2:-src}
AR=${AR:-ar}
[ -d "$src" ] || { echo "libs.sh: no source tree at $src"; exit 2; }
bad=0
for d in "$src"/*/; do
	f=$(basename "$d")
	lib=$obj/$f/lib$f.a
	if [ ! -f "$lib" ]; then
		echo "src/$f/: no library $lib"
		bad=1
		continue
	fi
	want=$(for c in "$d"*.c; do
		[ -e "$c" ] || continue
		n=$(basename "$c" .c)
		case $f/$n in cli/rsweep | base/platform | os/ev_*) continue ;; esac
		echo "$n.o"
	done | sort)
	have=$("$AR" t "$lib" | sort)
	for o in $want; do
		printf '%s\n' "$have" | grep -qx "$o" || { echo "src/$f/${o%.o}.c: not in $lib"; bad=1; }
	done
	for o in $have; do
		printf '%s\n' "$want" | grep -qx "$o" || { echo "$lib: holds $o, not a file of src/$f/"; bad=1; }
	done
done
exit $bad
