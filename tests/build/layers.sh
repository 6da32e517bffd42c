#!/bin/sh
# layers.sh [SRCDIR]: the house's layers hold.  src/ is one folder a layer,
# in the order below, lowest first; a file includes its own folder's
# headers and the public headers of the folders below it, never one above,
# and a folder's private header (NAME_int.h) only from inside that folder.
# Every include names its folder ("net/target.h"), so a reader sees at the
# include where a thing lives, and every source file sits in a folder.
# src/README.md is the map; this is its check.  Exits 1 with one line a
# breach, naming the file and line.
LAYERS="base os net results stats engine workload agents sweep analysis report render chart formats cli"
src=${1:-$(dirname "$0")/../../src}
cd "$src" || { echo "layers.sh: no source tree at $src"; exit 2; }

rank() {  # rank FOLDER: its place in LAYERS, or 0
	i=0
	for l in $LAYERS; do
		i=$((i + 1))
		[ "$l" = "$1" ] && { echo $i; return; }
	done
	echo 0
}

bad=0
for f in *.c *.h; do
	[ -e "$f" ] || continue
	echo "src/$f: a source file outside the layer folders"
	bad=1
done
for d in */; do
	d=${d%/}
	[ "$(rank "$d")" -gt 0 ] || { echo "src/$d/: a folder that is not a layer (add it to tests/build/layers.sh and src/README.md)"; bad=1; }
done
out=$(for l in $LAYERS; do
	[ -d "$l" ] || continue
	for f in "$l"/*.c "$l"/*.h; do
		[ -e "$f" ] || continue
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" /dev/null
	done
done | awk -v layers="$LAYERS" '
	BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) R[L[i]] = i }
	{
		# FILE:LINE:#include "X"
		split($0, p, ":"); file = p[1]; line = p[2]
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
		if (inc == "config.h") next
		from = file; sub(/\/.*/, "", from)
		if (inc !~ /\//) { printf "src/%s:%s: #include \"%s\" names no folder\n", file, line, inc; next }
		to = inc; sub(/\/.*/, "", to)
		if (!(to in R)) { printf "src/%s:%s: #include \"%s\": no layer %s\n", file, line, inc, to; next }
		if (R[to] > R[from]) printf "src/%s:%s: #include \"%s\" runs up from %s to %s\n", file, line, inc, from, to
		else if (inc ~ /_int\.h$/ && to != from) printf "src/%s:%s: #include \"%s\": a private header of %s, used in %s\n", file, line, inc, to, from
	}')
[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
# an include that names a missing header is the compiler's to find
exit $bad
