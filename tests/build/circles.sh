#!/bin/sh
# circles.sh [SRCDIR [OBJDIR]]: no circle of calls inside a folder.  Within
# one folder of src/, the files' objects must call one another one way
# only: when a.c uses a name b.c defines, b.c uses nothing a.c defines,
# directly or through other files of the folder (a.c -> b.c -> c.c ->
# a.c is a circle too).  A circle means two files hold one job between
# them; the way out is a lower file both use.  The names are read from
# the objects with nm (global definitions and undefined names), so a
# static function or a header's inline one ties nothing.  SRCDIR (the
# sources, default the tree this script sits in) says which files a folder
# has; OBJDIR (default ./src, the build tree make check runs in) holds
# their objects.  A file without an object (an event loop not configured)
# is left out.  Exits 1 naming each circle and the names that tie it.
src=${1:-$(dirname "$0")/../../src}
obj=${2:-src}
NM=${NM:-nm}
[ -d "$src" ] || { echo "circles.sh: no source tree at $src"; exit 2; }
[ -d "$obj" ] || { echo "circles.sh: no build tree at $obj"; exit 2; }

# FOLDER/FILE.c NAME TYPE, a line for each global name of each object.
syms() {
	for d in "$src"/*/; do
		f=$(basename "$d")
		for c in "$d"*.c; do
			[ -e "$c" ] || continue
			n=$(basename "$c" .c)
			o=$obj/$f/$n.o
			if [ ! -f "$o" ]; then
				# a library of its own flags names it LIB-NAME.o
				o=
				for x in "$obj/$f/"*"-$n.o"; do
					case $(basename "$x") in tests_*) continue ;; esac
					[ -f "$x" ] && o=$x && break
				done
				[ -n "$o" ] || continue
			fi
			"$NM" -P -g "$o" | awk -v file="$f/$n.c" 'NF >= 2 { print file, $1, $2 }' ||
				echo "circles.sh: $NM failed on $o" >&2
		done
	done
}

out=$(syms | awk '
	function folder(f) { sub(/\/.*/, "", f); return f }
	{
		file = $1; sym = $2; type = $3
		files[file] = 1
		if (type == "U") { nuse++; ufile[nuse] = file; usym[nuse] = sym }
		else if (type ~ /^[TDRBCGSVW]$/) def[sym] = file
	}
	END {
		# the ties: a -> b, and the names a takes from b
		for (i = 1; i <= nuse; i++) {
			a = ufile[i]; s = usym[i]
			if (!(s in def)) continue
			b = def[s]
			if (a == b || folder(a) != folder(b)) continue
			if (!((a, b) in edge)) { edge[a, b] = s; reach[a, b] = 1 }
			else if (index(" " edge[a, b] " ", " " s " ") == 0) edge[a, b] = edge[a, b] " " s
		}
		n = 0
		for (f in files) node[++n] = f
		if (n == 0) { print "circles.sh: no object of any source under the build tree"; exit 2 }
		# every file a file reaches, within its folder (few files a folder)
		for (k = 1; k <= n; k++)
			for (i = 1; i <= n; i++) {
				if (!((node[i], node[k]) in reach)) continue
				for (j = 1; j <= n; j++)
					if ((node[k], node[j]) in reach) reach[node[i], node[j]] = 1
			}
		bad = 0
		for (i = 1; i <= n; i++) {
			a = node[i]
			if (a in done) continue
			list = ""
			for (j = 1; j <= n; j++) {
				b = node[j]
				if (b != a && ((a, b) in reach) && ((b, a) in reach)) {
					done[b] = 1
					list = list ", src/" b
				}
			}
			if (list == "") continue
			done[a] = 1
			bad = 1
			print "circle: src/" a list
			for (j = 1; j <= n; j++) {
				x = node[j]
				if (!(x == a || index(list ", ", ", src/" x ", "))) continue
				for (k = 1; k <= n; k++) {
					y = node[k]
					if ((x, y) in edge && (y == a || index(list ", ", ", src/" y ", ")))
						print "  src/" x " -> src/" y ": " edge[x, y]
				}
			}
		}
		exit bad
	}')
rc=$?
[ -n "$out" ] && printf '%s\n' "$out"
exit $rc
