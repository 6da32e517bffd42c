#!/bin/sh
# --cluster through a reshard of 1,000 slots while a sweep runs: the
# redirects are counted, every row's server calls equal its requests, and
# the sweep ends well.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set,get --no-prepare -P 1,2,4,8,16 -n 5000 \
	-r 10000 -c 2 --repeat 2 --pause 0.2 --timeout 5 -o "$T/r.csv" -q >/dev/null 2>"$T/err" &
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
[ "$(rows "$T/r.csv")" = 20 ] || fail "$(rows "$T/r.csv") rows, wanted 20"
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
exit 0
