#!/bin/sh
# --cluster faults: a master killed mid-sweep fails the point with a line
# naming it (exit 1, rows so far intact); a cluster whose state is not ok
# is refused (exit 2).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

CL_NODE_TIMEOUT=1000
start_cluster

# A master that joins mid-sweep and takes slots: the first MOVED to it
# fails the point, naming it (its guard never checked it).
t_joins() {
	P4=$((P3 + 5))
	mkdir -p "$T/n4"
	"$REDIS_SERVER" --port "$P4" --bind 127.0.0.1 --cluster-enabled yes \
		--cluster-config-file "$T/n4/nodes.conf" --dir "$T/n4" --save '' --appendonly no \
		--daemonize no --logfile "$T/n4/redis.log" --cluster-node-timeout 1000 &
	CL_PIDS="$CL_PIDS $!"
	wait_for 10 "fourth node up" cluster_node_up "$P4"
	redis-cli --cluster add-node "127.0.0.1:$P4" "127.0.0.1:$P1" >"$T/add.log" 2>&1 ||
		fail "add-node: $(tail -3 "$T/add.log")"
	ID4=$(ccli "$P4" cluster myid | tr -d '\r')
	four_known() { [ "$(ccli "$P1" cluster nodes | grep -c master)" = 4 ]; }
	wait_for 10 "the fourth node known to the first" four_known
	wait_for 20 "the fourth node sees the cluster ok" cluster_ok_on "$P4"
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -P 1,2,4,8 -n 20000 -r 10000 -c 2 \
		--repeat 3 --timeout 3 -o "$T/m.csv" -q >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/m.csv" 1
	redis-cli --cluster reshard "127.0.0.1:$P1" --cluster-from "$ID1" --cluster-to "$ID4" \
		--cluster-slots 100 --cluster-yes >"$T/reshard.log" 2>&1 ||
		fail "reshard to the new master: $(tail -5 "$T/reshard.log")"
	wait "$pid"
	st=$?
	[ "$st" = 1 ] || fail "MOVED to a new master: exit $st: $(cat "$T/err")"
	tail -n 1 "$T/err" | grep -q "MOVED [0-9]* to 127.0.0.1:$P4, which is not a master of the cluster" ||
		fail "MOVED to a new master: $(cat "$T/err")"
	check_csv "$T/m.csv"
}
tcase 'a master that joins mid-sweep: the first MOVED to it fails the point, naming it' t_joins

# A fresh cluster for the cases after, whatever the first left in this one.
stop_cluster
rm -rf "$T"/n*
start_cluster

t_killed() {
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
}
tcase 'a master killed mid-sweep fails the point, naming it, rows intact' t_killed

# The two left see the cluster fail (a third of the slots have no
# master): refused before anything is touched.
t_state_fail() {
	tcase_needs 'a master killed mid-sweep fails the point, naming it, rows intact'
	cluster_failed() { ccli "$P1" cluster info | tr -d '\r' | grep -q '^cluster_state:fail'; }
	wait_for 20 "cluster_state:fail after a master died" cluster_failed
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -n 100 -q
	grep -q "127.0.0.1:$P1: the cluster is not ok (cluster_state:fail)" "$T/err" ||
		fail "cluster not ok: $(cat "$T/err")"
}
tcase 'a cluster whose state is fail is refused before anything is touched' t_state_fail

# A cluster node that serves no slot at all.
t_lone() {
	lone=$((P3 + 4))
	mkdir -p "$T/lone"
	"$REDIS_SERVER" --port "$lone" --bind 127.0.0.1 --cluster-enabled yes \
		--cluster-config-file "$T/lone/nodes.conf" --dir "$T/lone" --save '' --appendonly no \
		--daemonize no --logfile "$T/lone/redis.log" &
	CL_PIDS="$CL_PIDS $!"
	wait_for 10 "lone node up" cluster_node_up "$lone"
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$lone" --cluster -t set -n 100 -q
	grep -q "127.0.0.1:$lone: the cluster is not ok" "$T/err" || fail "lone node: $(cat "$T/err")"
}
tcase 'a cluster node that serves no slot is refused' t_lone

tcase_done
