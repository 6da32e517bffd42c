# cluster_lib.sh: a 3-master Redis Cluster on 127.0.0.1, started by the
# test itself on free ports, and torn down on exit (sourced after lib.sh).
CL_PIDS=
CL_PORTS=

cluster_cleanup() {
	stop_cluster
	cleanup
}
LIB_CLEANUP=cluster_cleanup
# A cluster, or a server beside it, that a case starts is stopped when the
# case ends (see lib.sh); the processes the script started before it are
# left alone, for the cases after.
cluster_case_enter() {
	cl_case_pids=$CL_PIDS
}
cluster_case_leave() {
	for pid in $CL_PIDS; do
		case " $cl_case_pids " in
		*" $pid "*) ;;
		*)
			kill -CONT "$pid" 2>/dev/null
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			;;
		esac
	done
}
TCASE_ENTER="$TCASE_ENTER cluster_case_enter"
TCASE_LEAVE="$TCASE_LEAVE cluster_case_leave"

stop_cluster() {
	for pid in $CL_PIDS; do
		kill -CONT "$pid" 2>/dev/null
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	CL_PIDS=
}

# CL_CA, CL_CERT, CL_KEY (set before start_cluster): the nodes speak TLS
# only, clients and the cluster bus (--port 0, --tls-cluster yes), with
# CL_CERT signed by CL_CA; ccli then speaks TLS too.

# ccli PORT ARGS...: redis-cli to one node.
ccli() {
	p=$1
	shift
	redis-cli ${CL_CA:+--tls --cacert "$CL_CA"} -h 127.0.0.1 -p "$p" "$@"
}

# cl_listen PORT: a node's listening arguments, plain or TLS.
cl_listen() {
	if [ -n "${CL_CA:-}" ]; then
		echo "--port 0 --tls-port $1 --tls-cluster yes --tls-replication yes" \
			"--tls-cert-file $CL_CERT --tls-key-file $CL_KEY --tls-ca-cert-file $CL_CA" \
			"--tls-auth-clients no"
	else
		echo "--port $1"
	fi
}

cluster_node_up() {
	ccli "$1" ping 2>/dev/null | grep -q PONG
}

cluster_ok_on() {
	ccli "$1" cluster info 2>/dev/null | tr -d '\r' | grep -q '^cluster_state:ok'
}

# all_ok: cluster_state:ok on every node (and every node sees all three).
cluster_all_ok() {
	for p in $CL_PORTS; do
		cluster_ok_on "$p" || return 1
		[ "$(ccli "$p" cluster nodes 2>/dev/null | grep -c master)" = 3 ] || return 1
	done
}

# start_cluster: three masters, P1 P2 P3 their ports, ID1 ID2 ID3 their ids.
start_cluster() {
	for attempt in 1 2 3 4 5; do
		# Ports and their bus ports (+10000) below 32768.
		base=$((10000 + ($$ * 7 + attempt * 1009) % 3000 * 3))
		CL_PORTS="$base $((base + 1)) $((base + 2))"
		CL_PIDS=
		for p in $CL_PORTS; do
			mkdir -p "$T/n$p"
			# shellcheck disable=SC2046
			# A UNIX socket too, for a unix:// seed node (the masters
			# are then reached over TCP, as CLUSTER SLOTS gives them).
			"$REDIS_SERVER" $(cl_listen "$p") --bind 127.0.0.1 --cluster-enabled yes \
				--unixsocket "$T/n$p/redis.sock" --unixsocketperm 700 \
				--cluster-config-file "$T/n$p/nodes-$p.conf" --dir "$T/n$p" --save '' \
				--appendonly no --daemonize no --logfile "$T/n$p/redis.log" \
				--cluster-node-timeout "${CL_NODE_TIMEOUT:-15000}" &
			CL_PIDS="$CL_PIDS $!"
		done
		up=1
		for p in $CL_PORTS; do
			for _ in $(seq 1 300); do
				cluster_node_up "$p" && break
				sleep 0.01
			done
			cluster_node_up "$p" || up=0
		done
		[ "$up" = 1 ] && break
		stop_cluster
		rm -rf "$T"/n*
	done
	[ "$up" = 1 ] || fail "cluster nodes did not start"
	set -- $CL_PORTS
	P1=$1 P2=$2 P3=$3
	redis-cli ${CL_CA:+--tls --cacert "$CL_CA"} \
		--cluster create "127.0.0.1:$P1" "127.0.0.1:$P2" "127.0.0.1:$P3" \
		--cluster-replicas 0 --cluster-yes >"$T/create.log" 2>&1 ||
		fail "cluster create: $(tail -3 "$T/create.log")"
	wait_for 20 "cluster_state:ok on all three" cluster_all_ok
	ID1=$(ccli "$P1" cluster myid | tr -d '\r')
	ID2=$(ccli "$P2" cluster myid | tr -d '\r')
	ID3=$(ccli "$P3" cluster myid | tr -d '\r')
}

# add_cluster_replicas (after start_cluster): a replica for each master,
# on the port 3 above it, R1 R2 R3 their ports, each linked to its master
# and listed by CLUSTER SLOTS before it returns (issue 47).
add_cluster_replicas() {
	CL_RPORTS=
	for p in $CL_PORTS; do
		rp=$((p + 3))
		mkdir -p "$T/n$rp"
		# shellcheck disable=SC2046
		"$REDIS_SERVER" $(cl_listen "$rp") --bind 127.0.0.1 --cluster-enabled yes \
			--unixsocket "$T/n$rp/redis.sock" --unixsocketperm 700 \
			--cluster-config-file "$T/n$rp/nodes-$rp.conf" --dir "$T/n$rp" --save '' \
			--appendonly no --daemonize no --logfile "$T/n$rp/redis.log" \
			--cluster-node-timeout "${CL_NODE_TIMEOUT:-15000}" &
		CL_PIDS="$CL_PIDS $!"
		CL_RPORTS="$CL_RPORTS $rp"
	done
	for rp in $CL_RPORTS; do
		wait_for 5 "replica node $rp up" cluster_node_up "$rp"
	done
	set -- $CL_RPORTS
	R1=$1 R2=$2 R3=$3
	for pair in "$R1 $P1 $ID1" "$R2 $P2 $ID2" "$R3 $P3 $ID3"; do
		# shellcheck disable=SC2086
		set -- $pair
		redis-cli ${CL_CA:+--tls --cacert "$CL_CA"} --cluster add-node "127.0.0.1:$1" \
			"127.0.0.1:$2" --cluster-slave --cluster-master-id "$3" >>"$T/add.log" 2>&1 ||
			fail "add-node $1: $(tail -3 "$T/add.log")"
	done
	wait_for 30 "each replica linked and listed" cl_replicas_up
}

cl_replicas_up() {
	for rp in $CL_RPORTS; do
		ccli "$rp" info replication 2>/dev/null | tr -d '\r' |
			grep -q '^master_link_status:up' || return 1
		ccli "$P1" cluster slots 2>/dev/null | tr -d '\r' | grep -qx "$rp" || return 1
	done
	cluster_all_ok
}

# calls PORT CMD: calls of CMD (lower case) on one node (0 before the first).
cl_calls() {
	ccli "$1" info commandstats | tr -d '\r' |
		sed -n "s/^cmdstat_$2:calls=\([0-9]*\).*/\1/p" | grep . || echo 0
}

# move_mylist3: move slot 1584 (tag {3}, the first master's smallest) and
# its key mylist{3}, which a single-key test's first master writes, from
# the first master to the second, by hand, as a reshard would.
move_mylist3() {
	ccli "$P2" cluster setslot 1584 importing "$ID1" >/dev/null
	ccli "$P1" cluster setslot 1584 migrating "$ID2" >/dev/null
	ccli "$P1" migrate 127.0.0.1 "$P2" "" 0 5000 keys "mylist{3}" >/dev/null
	for p in $P2 $P1 $P3; do ccli "$p" cluster setslot 1584 node "$ID2" >/dev/null; done
}
