#!/bin/sh
# A server that restarts mid-sweep is a new process the guard has not
# checked: rsweep flushes nothing on it, on any path, before checking it.
# The new server holds keys from the start (it loads them from its dump
# file) and takes the old one's socket while rsweep waits to retry.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# server DIR [redis-server arguments...]: start a server in DIR, listening on
# DIR/s.sock; its pid in $pid_of_server.
server() {
	dir=$1
	shift
	"$REDIS_SERVER" --port 0 --unixsocket "$dir/s.sock" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$dir" --logfile "$dir/log" "$@" &
	pid_of_server=$!
	for _ in $(seq 1 500); do
		redis-cli -s "$dir/s.sock" ping 2>/dev/null | grep -q PONG && return 0
		sleep 0.01
	done
	fail "redis-server in $dir did not start"
}

# A dump file holding a key in db 0 and one in db 3.
mkdir "$T/seed"
server "$T/seed"
redis-cli -s "$T/seed/s.sock" set keep0 x >/dev/null
redis-cli -s "$T/seed/s.sock" -n 3 set keep3 x >/dev/null
redis-cli -s "$T/seed/s.sock" save >/dev/null
kill -KILL "$pid_of_server"
wait "$pid_of_server" 2>/dev/null
[ -s "$T/seed/dump.rdb" ] || fail "no dump file"

# stop_next: the new server stopped as its case ends, should the case
# fail before the new server is REDIS_PID (which lib.sh stops).
stop_next() {
	kill -KILL "$pid_of_server" 2>/dev/null
	wait "$pid_of_server" 2>/dev/null
}

# restart_mid_sweep [redis-server arguments of the new server...]: a sweep
# whose server is killed after two points and replaced by one holding keep0
# and keep3; rsweep's exit status in $st.
restart_mid_sweep() {
	TCASE_LEAVE="$TCASE_LEAVE stop_next"
	rm -rf "$T/next" "$T/r.csv"
	mkdir "$T/next"
	cp "$T/seed/dump.rdb" "$T/next/"
	start_redis
	"$RSWEEP" run -s "$SOCK" -t get,set -P 1..12 -n 20000 -c 10 --retries 1 --timeout 5 \
		-o "$T/r.csv" -q >/dev/null 2>"$T/err" &
	pid=$!
	server "$T/next" "$@"
	wait_rows "$T/r.csv" 2
	stop_redis
	mv "$T/next/s.sock" "$SOCK"
	REDIS_PID=$pid_of_server
	wait "$pid"
	st=$?
	[ "$(rcli get keep0)" = x ] || fail "$*: keep0 was flushed (exit $st: $(cat "$T/err"))"
	[ "$(rcli -n 3 get keep3)" = x ] || fail "$*: keep3 was flushed (exit $st: $(cat "$T/err"))"
	check_csv "$T/r.csv"
	stop_redis
}

# With --maxclients 2 the control connection gets in and the engine's do
# not: the run fails half-way, and its way out must not flush.
t_maxclients() {
	restart_mid_sweep --maxclients 2
	[ "$st" != 0 ] || fail "exit 0 on a server that holds keys"
}
tcase 'a new process that lets no engine connection in: the run fails half-way, flushing nothing' t_maxclients

# With room for every connection the new process is checked and refused.
t_refused() {
	restart_mid_sweep
	[ "$st" = 2 ] || fail "new process with keys: exit $st, wanted 2: $(cat "$T/err")"
	grep -q "is a new server process and holds 2 keys that rsweep did not write (db0: 1 key; db3: 1 key)" \
		"$T/err" || fail "$(cat "$T/err")"
}
tcase 'a new process holding keys is checked and refused' t_refused

tcase_done
