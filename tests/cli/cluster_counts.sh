#!/bin/sh
# --cluster on a 3-master cluster: every request completes exactly once,
# summed over the masters' commandstats, at P=1 and P=16; each master
# takes its share; the guard and the flush cover every master; a node not
# in cluster mode is refused.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
N=6000

# Exact counts: SET alone (GET's preparation writes with SET), then GET
# and a single-key test, LPUSH, on "mylist{N}" per master.
t_set() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P2" --cluster -t set -P 1,16 -n $N -r 10000 \
		-c 2 --repeat 1 -o "$T/set.csv" -q
	sum=0
	for p in $P1 $P2 $P3; do
		c=$(cl_calls "$p" set)
		sum=$((sum + c))
		# A fair share: a third each, give or take.
		[ $((c * 100)) -ge $((2 * N * 20)) ] && [ $((c * 100)) -le $((2 * N * 50)) ] ||
			fail "set: master $p ran $c of $((2 * N))"
	done
	[ "$sum" = $((2 * N)) ] || fail "set: the masters ran $sum SETs, wanted $((2 * N))"
	check_csv "$T/set.csv"
	[ "$(csv_col "$T/set.csv" server_calls | sort -u)" = "$N" ] ||
		fail "set: server_calls $(csv_col "$T/set.csv" server_calls)"
	[ "$(csv_col "$T/set.csv" redirects | sort -u)" = 0 ] || fail "set: redirects on a still cluster"
	[ "$(csv_col "$T/set.csv" masters | sort -u)" = 3 ] || fail "set: masters column"
	csv_col "$T/set.csv" busy_master | grep -qv "^127\.0\.0\.1:" && fail "set: busy_master"
	[ "$(csv_col "$T/set.csv" errors | sort -u)" = 0 ] || fail "set: error replies"
}
tcase 'SET alone: every request once, a fair share on each master' t_set

# The report names the busiest master when one limits the cluster (its
# CPU made so, here; the real one's depends on the machine), and says
# nothing of the sort otherwise.
t_busy() {
	tcase_needs 'SET alone: every request once, a fair share on each master'
	busy=127.0.0.1:$P3
	awk -F, -v OFS=, -v busy="$busy" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ $c["busy_cpu_s"] = $c["seconds"]; $c["server_cpu_s"] = $c["seconds"] * 1.8
		  $c["busy_master"] = busy; print }' "$T/set.csv" >"$T/busy.csv"
	expect_status 0 "$RSWEEP" report "$T/busy.csv"
	grep -q "SET: at P=[0-9]* $busy at 1.00 CPU while the others are at 0.40: one shard limits this cluster" \
		"$T/out" || fail "report: no busiest master: $(cat "$T/out")"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ $c["busy_cpu_s"] = $c["seconds"] * 0.5; $c["server_cpu_s"] = $c["seconds"] * 1.4; print }' \
		"$T/set.csv" >"$T/even.csv"
	expect_status 0 "$RSWEEP" report "$T/even.csv"
	grep -q "one shard limits" "$T/out" && fail "report: a limiting shard in an even cluster"
}
tcase 'the report names the busiest master only when one limits the cluster' t_busy

t_get_lpush() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t get,lpush -P 1,16 -n $N \
		-r 10000 -c 2 --repeat 1 -o "$T/gl.csv" -v
	for cmd in get lpush; do
		sum=0
		for p in $P1 $P2 $P3; do
			c=$(cl_calls "$p" $cmd)
			sum=$((sum + c))
			[ $((c * 100)) -ge $((2 * N * 20)) ] && [ $((c * 100)) -le $((2 * N * 50)) ] ||
				fail "$cmd: master $p ran $c of $((2 * N))"
		done
		[ "$sum" = $((2 * N)) ] || fail "$cmd: the masters ran $sum, wanted $((2 * N))"
	done
	# GET found every key the preparation wrote on its master.
	[ "$(csv_col "$T/gl.csv" misses | sort -u)" = 0 ] || fail "get: misses $(csv_col "$T/gl.csv" misses)"
	# -v says the flush covers every master, and names each.
	for p in $P1 $P2 $P3; do
		grep -q "127.0.0.1:$p: FLUSHALL done" "$T/err" || fail "no flush of $p in -v: $(cat "$T/err")"
	done
	grep -q "a cluster of 3 masters.*the guard and every flush cover each master" "$T/err" ||
		fail "-v does not say the guard covers every master"
	# Left empty, every master.
	for p in $P1 $P2 $P3; do
		[ "$(ccli "$p" dbsize | tr -d '\r')" = 0 ] || fail "master $p not left empty"
	done
}
tcase 'GET and LPUSH: exact counts, the flush and guard on every master, left empty' t_get_lpush

# The guard: a key rsweep did not write on any one master refuses the
# whole cluster, and nothing is flushed anywhere.
t_guard() {
	ccli "$P3" set "precious{x}" 1 >/dev/null 2>&1 || ccli "$P3" -c set "precious{x}" 1 >/dev/null
	redis-cli -c -h 127.0.0.1 -p "$P1" set "keep:me" 1 >/dev/null
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -P 1 -n 100 -q
	grep -q "rsweep did not write" "$T/err" || fail "guard: $(cat "$T/err")"
	[ "$(redis-cli -c -h 127.0.0.1 -p "$P1" get keep:me | tr -d '\r')" = 1 ] || fail "guard: key lost"
}
tcase 'a key rsweep did not write on one master refuses the whole cluster' t_guard

# A server not in cluster mode.
t_not_cluster() {
	start_redis --port 0
	expect_status 2 "$RSWEEP" run -s "$SOCK" --cluster -t set -n 10 -q
	grep -q "drop -s" "$T/err" || fail "--cluster -s: $(cat "$T/err")"
	stop_redis
	"$REDIS_SERVER" --port "$((P3 + 3))" --bind 127.0.0.1 --save '' --appendonly no \
		--daemonize no --dir "$T" --logfile "$T/plain.log" &
	CL_PIDS="$CL_PIDS $!"
	wait_for 10 "plain server up" cluster_node_up "$((P3 + 3))"
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$((P3 + 3))" --cluster -t set -n 10 -q
	grep -q "127.0.0.1:$((P3 + 3)) is not in cluster mode (cluster_enabled:0)" "$T/err" ||
		fail "plain server: $(cat "$T/err")"
}
tcase 'a server not in cluster mode is refused' t_not_cluster

tcase_done
