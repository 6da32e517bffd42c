#!/bin/sh
# installed.sh BINDIR PKGDATADIR MANDIR BASHCOMPDIR: make installcheck: the
# installed rsweep runs, finds the installed sweep and plot files by bare
# name where the man page says they are, and its man page is installed.
set -u
bindir=$1 pkgdatadir=$2 mandir=$3 bashcompdir=$4
rsweep=$bindir/rsweep
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-installcheck.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases (before the cd below: $0 may be relative).
. "$(dirname "$0")/tcase.sh"

t_runs() {
	[ -x "$rsweep" ] || fail "$rsweep is not installed"
	"$rsweep" --version >/dev/null || fail "$rsweep --version failed"
}
tcase 'the installed rsweep runs' t_runs

t_man() {
	[ -f "$mandir/man1/rsweep.1" ] || fail "no $mandir/man1/rsweep.1"
	[ -f "$mandir/man7/rsweep-methods.7" ] || fail "no $mandir/man7/rsweep-methods.7"
}
tcase 'its man pages are installed' t_man

t_completion() {
	if [ -n "$bashcompdir" ]; then
		[ -f "$bashcompdir/rsweep" ] || fail "no $bashcompdir/rsweep"
		grep -q "@pkgdatadir@" "$bashcompdir/rsweep" && fail "$bashcompdir/rsweep lacks the data directory"
	fi
}
tcase 'the bash completion is installed, with the data directory in it' t_completion

t_files() {
	for f in "$pkgdatadir"/sweeps/*.sweep "$pkgdatadir"/plots/*.plot; do
		[ -f "$f" ] || fail "no sweep or plot files in $pkgdatadir/sweeps and $pkgdatadir/plots (the man page's FILES)"
	done
}
tcase 'the sweep and plot files are where the man page says' t_files

# Bare names, from a directory without such files.
cd "$T" || exit 1
t_sweeps() {
	for f in "$pkgdatadir"/sweeps/*.sweep; do
		name=$(basename "$f" .sweep)
		"$rsweep" run --sweep "$name" --dry-run >"$T/out" 2>"$T/err" ||
			fail "rsweep run --sweep $name --dry-run: $(cat "$T/err")"
	done
}
tcase 'each installed sweep file is found by bare name' t_sweeps

t_plots() {
	printf 'label,test,pipeline,rps\na,GET,1,100\na,GET,2,180\na,SET,1,90\na,SET,2,170\n' >"$T/a.csv"
	for f in "$pkgdatadir"/plots/*.plot; do
		name=$(basename "$f" .plot)
		"$rsweep" plot --plot "$name" -o "$T/$name.pdf" "$T/a.csv" >"$T/out" 2>"$T/err"
		st=$?
		# 2 is bad input (these rows may suit no panel); 1 means not found.
		[ "$st" = 0 ] || [ "$st" = 2 ] || fail "rsweep plot --plot $name: $(cat "$T/err")"
		grep -qi "no such" "$T/err" && fail "rsweep plot --plot $name did not find $f"
	done
}
tcase 'each installed plot file is found by bare name' t_plots

tcase_done
