#!/bin/sh
# --cluster through a reshard of 1,000 slots while a sweep runs: the
# redirects are counted, every row's server calls equal its requests, and
# the sweep ends well.  LPUSH's key per master may move with its slot: that
# point is measured again (--retries) on a key of a slot its master serves.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster

t_reshard() {
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set,get,lpush --no-prepare -P 1,2,4,8,16 \
		-n 5000 -r 10000 -c 2 --repeat 2 --pause 0.1 --timeout 5 --retries 3 -o "$T/r.csv" -q \
		>/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/r.csv" 1
	# Slots move one by one from the first point on: the rest of the sweep
	# meets MOVED (and ASK while a slot is half moved).
	redis-cli --cluster reshard "127.0.0.1:$P1" --cluster-from "$ID1" --cluster-to "$ID2" \
		--cluster-slots 1000 --cluster-yes >"$T/reshard.log" 2>&1 &
	rpid=$!
	wait "$pid"
	st=$?
	wait "$rpid" || fail "reshard failed: $(tail -3 "$T/reshard.log")"
	[ "$st" = 0 ] || fail "sweep through a reshard: exit $st: $(cat "$T/err")"
	check_csv "$T/r.csv"
	[ "$(rows "$T/r.csv")" = 30 ] || fail "$(rows "$T/r.csv") rows, wanted 30"
	# Each point: exactly -n requests, and the masters ran exactly those.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != 5000 || $c["server_calls"] != 5000 || $c["errors"] != 0 {
			print "line " NR ": requests " $c["requests"] " server_calls " $c["server_calls"] \
				" errors " $c["errors"]; bad = 1 }
		{ r += $c["redirects"] }
		END { if (r == 0) { print "no redirect counted"; bad = 1 } exit bad }' "$T/r.csv" ||
		fail "counts through the reshard"
	# The slots did move, and the cluster is whole.
	wait_for 10 "cluster_state:ok after the reshard" cluster_all_ok
	for p in $P1 $P2 $P3; do
		[ "$(ccli "$p" dbsize | tr -d '\r')" = 0 ] || fail "master $p not left empty"
	done
}
tcase 'a sweep through a reshard of 1,000 slots: redirects counted, every request once, the sweep ends well' t_reshard

# The slot of a single-key test's key moves: the first master's LPUSH key
# is mylist{3} (slot 1584, the smallest tag of its slots), moved here by
# hand, key and all, to the second master.  The point meets MOVED, is
# measured again on a tag the first master still serves, and the second
# master's guard counts the key that came over as rsweep's.
stop_cluster
rm -rf "$T"/n*
start_cluster

t_key_moves() {
	[ "$(ccli "$P1" cluster keyslot 3 | tr -d '\r')" = 1584 ] || fail "keyslot 3"
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t lpush -P 1,2,4,8 -n 20000 -c 2 --repeat 3 \
		--order sequential --timeout 3 --retries 3 -o "$T/k.csv" -q >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/k.csv" 1
	move_mylist3
	wait "$pid"
	st=$?
	[ "$st" = 0 ] || fail "a single-key test whose key moved: exit $st: $(cat "$T/err")"
	check_csv "$T/k.csv"
	[ "$(rows "$T/k.csv")" = 12 ] || fail "$(rows "$T/k.csv") rows, wanted 12"
	[ "$(csv_col "$T/k.csv" server_calls | sort -u)" = 20000 ] || fail "lpush: server calls"
	grep -q "MOVED 1584 127.0.0.1:$P2: the key this master's connections use moved with its slot; reconnecting" \
		"$T/err" || fail "the key's move was not met: $(cat "$T/err")"
}
tcase "a single-key test's key moves with its slot: the point is measured again on a key its master serves" t_key_moves

tcase_done
