#!/bin/sh
# cluster_snapshot.sh: on a cluster, a one-key test's preparation is kept
# as a snapshot of each master's own tagged key (mylist{N}): DUMP and
# RESTORE go to the master that holds it, so no MOVED is met and no
# fallback to commands is noted (issue 40, m11).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster

t_snapshot() {
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t lpop -P 1,2,4 -n 3000 \
		-c 2 --repeat 1 -v -o "$T/l.csv"
	grep -q "MOVED" "$T/err" && fail "a snapshot command met MOVED: $(grep MOVED "$T/err")"
	grep -q "one-key tests (lists, sets) is prepared with commands" "$T/err" &&
		fail "snapshots were given up: $(cat "$T/err")"
	grep -q "LPOP: restored" "$T/err" || fail "no snapshot restored: $(cat "$T/err")"
	[ "$(rows "$T/l.csv")" = 3 ] || fail "l.csv has $(rows "$T/l.csv") rows"
}
tcase 'each master snapshots its own tagged key: no MOVED, no fallback' t_snapshot

tcase_done
