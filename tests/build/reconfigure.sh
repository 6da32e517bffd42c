#!/bin/sh
# reconfigure.sh TARBALL: configuring a build tree again rebuilds what the
# new configuration changes.  Seen before: a second ./configure --prefix=P2
# in a tree built for P1 installed into P2 a binary that still looked for
# its sweep and plot files under P1 (the path was a -D flag, and make does
# not rebuild for a changed flag), and --enable-werror did not rebuild
# either.  Builds twice from the distribution tarball, so it is slow: it
# runs from .ci/run, not from make check.
set -eu
check=reconfigure
. "$(dirname "$0")/lib.sh"
mkdir "$T/build"
cd "$T/build"
"$src/configure" --prefix="$T/p1" >configure1.log 2>&1 || fail "configure 1: $(tail -5 configure1.log)"
make -j2 >make1.log 2>&1 || fail "make 1: $(tail -20 make1.log)"
make install >install1.log 2>&1 || fail "install 1: $(tail -20 install1.log)"

"$src/configure" --prefix="$T/p2" --enable-werror >configure2.log 2>&1 ||
	fail "configure 2: $(tail -5 configure2.log)"
make -j2 V=1 >make2.log 2>&1 || fail "make 2: $(tail -20 make2.log)"
make install >install2.log 2>&1 || fail "install 2: $(tail -20 install2.log)"

# --enable-werror reached every object, not only those that changed anyway.
for o in src/base/num.o src/base/spec.o src/cli/rsweep.o; do
	grep -- "-o $o " make2.log | grep -q -- "-Werror" ||
		bad "$o was not rebuilt with -Werror after configure --enable-werror"
done

# The installed binary looks in its own prefix's data directory, not the
# first one's, and finds its files there once the first is gone.
rm -rf "$T/p1"
"$T/p2/bin/rsweep" run --sweep nosuch >out 2>err && bad "a missing sweep file was found"
grep -q "$T/p2/share/rsweep/sweeps/nosuch.sweep" err ||
	bad "the installed binary does not look in $T/p2/share/rsweep: $(cat err)"
grep -q "$T/p1" err && bad "the installed binary still looks in $T/p1: $(cat err)"
"$T/p2/bin/rsweep" run --sweep m1-article --dry-run >out 2>err ||
	bad "the installed sweep file is not found: $(cat err)"

# The completion follows the prefix too, and is installed without
# bash-completion's pkg-config file.
comp=$T/p2/share/bash-completion/completions/rsweep
[ -f "$comp" ] || bad "no bash completion at $comp"
grep -q "'$T/p2/share/rsweep'" "$comp" || bad "$comp does not name $T/p2/share/rsweep"
[ "$failed" = 0 ] || exit 1
echo "ok"
