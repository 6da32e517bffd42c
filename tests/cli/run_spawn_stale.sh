#!/bin/sh
# kill -9 of rsweep while it runs a spawned server leaves the server's
# private directory (socket, and spawn+tls's key.pem) behind; the next run
# that spawns removes it (issue 25, O4), and only it: not a directory
# without rsweep's owner file, not one whose run is alive, not a symbolic
# link, not another user's, nothing a link inside points at.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

TMPDIR=$T/tmp
export TMPDIR
mkdir -m 700 "$TMPDIR"

t_stale() {
	"$RSWEEP" run --spawn -t get -P 1..40 --repeat 3 -n 20000 -c 2 -q -o "$T/k.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/k.csv" 1
	kill -KILL "$pid"
	wait "$pid" || :
	dead=$(ls -d "$TMPDIR"/rsweep-* 2>/dev/null)
	[ -n "$dead" ] && [ -f "$dead/rsweep.owner" ] || fail "no directory left by the killed run: $(ls -la "$TMPDIR")"
	# The killed run's server stops on its parent's death (and takes its
	# socket with it); wait for it.
	wait_for 10 "the orphaned server to stop" sh -c "! [ -S '$dead/redis.sock' ]"
	echo secret >"$dead/key.pem"
	echo keep >"$T/precious"
	ln -s "$T/precious" "$dead/link"

	# Decoys that must stay: no owner file; a live owner (this shell); a
	# symbolic link to a stale-looking directory; a mode other than 0700.
	mkdir -m 700 "$TMPDIR/rsweep-noownr"
	mkdir -m 700 "$TMPDIR/rsweep-liveon"
	start=$(awk '{ sub(/.*\) /, ""); split($0, f, " "); print f[20] }' /proc/$$/stat 2>/dev/null || echo 0)
	echo "$$ $start" >"$TMPDIR/rsweep-liveon/rsweep.owner"
	mkdir -m 700 "$T/elsewhere"
	cp "$dead/rsweep.owner" "$T/elsewhere/rsweep.owner"
	ln -s "$T/elsewhere" "$TMPDIR/rsweep-linked"
	mkdir -m 755 "$TMPDIR/rsweep-openmd"
	cp "$dead/rsweep.owner" "$TMPDIR/rsweep-openmd/rsweep.owner"

	expect_status 0 "$RSWEEP" run --spawn -t ping_inline -n 100 -c 1 --repeat 1 -q -o "$T/next.csv"
	[ ! -e "$dead" ] || fail "the dead run's directory is still there: $(ls -la "$dead")"
	[ "$(cat "$T/precious")" = keep ] || fail "a file a link pointed at was touched"
	for d in rsweep-noownr rsweep-liveon rsweep-openmd; do
		[ -d "$TMPDIR/$d" ] || fail "$d was removed"
	done
	[ -L "$TMPDIR/rsweep-linked" ] && [ -f "$T/elsewhere/rsweep.owner" ] || fail "the link or its target was removed"
	# The next run's own directory went with it.
	[ "$(ls -d "$TMPDIR"/rsweep-* | wc -l)" = 4 ] || fail "left: $(ls "$TMPDIR")"
}
tcase "a killed run's spawned directory is removed by the next spawn, and nothing else" t_stale

tcase_done
