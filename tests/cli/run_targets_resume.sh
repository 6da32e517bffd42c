#!/bin/sh
# A two-target sweep killed (SIGKILL) mid-way, then --resume: each target's
# missing points, and only those, are measured; the file ends with every
# point of both targets exactly once.  A resume whose target differs from
# the one a label was measured on is refused.  SIGINT leaves every target
# as it found it.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
f=$T/r.csv
# 2 targets x 2 tests x 12 depths x 2 repeats = 96 points, bounded by -n.
args="--target sock=unix://$SOCK --target spawned=spawn: -t get,set -P 1..12 --repeat 2 -n 2000 -c 4 --timeout 10 -q -o $f"

t_resume() {
	# shellcheck disable=SC2086
	"$RSWEEP" run $args >/dev/null 2>&1 &
	pid=$!
	wait_rows "$f" 7
	kill -KILL $pid
	wait $pid 2>/dev/null
	before=$(rows "$f")
	[ "$before" -lt 96 ] || fail "the sweep ended before it was killed"
	# The killed run left its keys: --force-flush lets them go (they are ours).
	# shellcheck disable=SC2086
	expect_status 0 "$RSWEEP" run $args --resume --force-flush
	check_csv "$f"
	[ "$(rows "$f")" = 96 ] || fail "$(rows "$f") rows after --resume, wanted 96 (had $before)"
	for l in sock spawned; do
		n=$(awk -F, -v l=$l 'NR > 1 && $1 == l' "$f" | wc -l)
		[ "$n" = 48 ] || fail "$n rows of $l, wanted 48"
	done
	grep -q "every point is already" "$T/err" && fail "the resume measured nothing"
}
tcase 'a two-target sweep killed mid-way, then --resume: each point of both targets once' t_resume

# The same labels on other servers: refused, nothing written.
t_other_servers() {
	tcase_needs 'a two-target sweep killed mid-way, then --resume: each point of both targets once'
	expect_status 2 "$RSWEEP" run --target sock=spawn: --target spawned=spawn: -t get,set \
		-P 1..12 --repeat 2 -n 2000 -q -o "$f" --resume
	grep -q "label 'sock' was measured on unix://$SOCK" "$T/err" || fail "$(cat "$T/err")"
	[ "$(rows "$f")" = 96 ] || fail "the refused resume changed the file"
}
tcase 'the same labels on other servers are refused, nothing written' t_other_servers

# SIGINT mid-sweep of a socket and a spawned target: exit 130, rows intact,
# the socket's server left empty, the spawned server and its directory gone.
t_sigint() {
	mkdir "$T/tmp"
	rcli flushall >/dev/null
	g=$T/int.csv
	TMPDIR=$T/tmp "$RSWEEP" run --target sock=unix://"$SOCK" --target spawned=spawn: -t get,set \
		-P 1..12 -n 2000 -c 4 --timeout 10 -q -o "$g" >/dev/null 2>"$T/int.err" &
	pid=$!
	wait_rows "$g" 5
	kill -INT $pid
	wait $pid
	st=$?
	[ "$st" = 130 ] || fail "SIGINT: exit $st, wanted 130: $(cat "$T/int.err")"
	check_csv "$g"
	[ "$(rcli dbsize)" = 0 ] || fail "SIGINT left $(rcli dbsize) keys on the socket's server"
	[ -z "$(ls "$T/tmp")" ] || fail "SIGINT left $(ls "$T/tmp")"
}
tcase 'SIGINT mid-sweep: exit 130, rows intact, every target as it was found' t_sigint

tcase_done
