#!/bin/sh
# --cluster faults: a master killed mid-sweep fails the point with a line
# naming it (exit 1, rows so far intact); a cluster whose state is not ok
# is refused (exit 2).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

CL_NODE_TIMEOUT=1000
start_cluster
"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -P 1,2,4,8,16,32 -n 20000 -r 1000 -c 2 \
	--repeat 3 --timeout 3 -o "$T/k.csv" -q >/dev/null 2>"$T/err" &
pid=$!
wait_rows "$T/k.csv" 2
set -- $CL_PIDS
kill -KILL "$3"
wait "$pid"
st=$?
[ "$st" = 1 ] || fail "killed master: exit $st: $(cat "$T/err")"
# The fatal line (the last) names the point and the master.
tail -n 1 "$T/err" | grep -q "^rsweep run: point .*: 127.0.0.1:$P3: " ||
	fail "the line does not name the killed master: $(cat "$T/err")"
check_csv "$T/k.csv"
[ "$(rows "$T/k.csv")" -ge 2 ] || fail "rows lost"

# The two left see the cluster fail (a third of the slots have no
# master): refused before anything is touched.
cluster_failed() { ccli "$P1" cluster info | tr -d '\r' | grep -q '^cluster_state:fail'; }
wait_for 20 "cluster_state:fail after a master died" cluster_failed
expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -n 100 -q
grep -q "127.0.0.1:$P1: the cluster is not ok (cluster_state:fail)" "$T/err" ||
	fail "cluster not ok: $(cat "$T/err")"

# A cluster node that serves no slot at all.
lone=$((P3 + 4))
mkdir -p "$T/lone"
"$REDIS_SERVER" --port "$lone" --bind 127.0.0.1 --cluster-enabled yes \
	--cluster-config-file "$T/lone/nodes.conf" --dir "$T/lone" --save '' --appendonly no \
	--daemonize no --logfile "$T/lone/redis.log" &
CL_PIDS="$CL_PIDS $!"
wait_for 10 "lone node up" cluster_node_up "$lone"
expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$lone" --cluster -t set -n 100 -q
grep -q "127.0.0.1:$lone: the cluster is not ok" "$T/err" || fail "lone node: $(cat "$T/err")"
exit 0
