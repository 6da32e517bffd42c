#!/bin/sh
# Reads from replicas (issue 47): --replica URI sends the read tests to a
# primary's replicas and every other test, the preparation and the flush
# to the primary; --read-from all spreads them over both; --spawn-replicas
# N starts replicas of a spawned primary.  Checked against the servers'
# own INFO commandstats: each GET where the rows say it went, exactly.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
RSOCK=$T/replica.sock
RPID=
replicas_cleanup() {
	[ -z "$RPID" ] || { kill -KILL "$RPID" 2>/dev/null; wait "$RPID" 2>/dev/null; }
	cleanup
}
LIB_CLEANUP=replicas_cleanup

# The primary on SOCK and a 127.0.0.1 port (its replica's link), the
# replica on RSOCK only; a port taken in between is tried again.
for try in 1 2 3 4 5; do
	PPORT=$(free_port)
	start_redis --port "$PPORT" --bind 127.0.0.1
	rcli ping | grep -q PONG && break
	stop_redis
	PPORT=
done
[ -n "$PPORT" ] || fail "no primary"
mkdir -p "$T/r"
"$REDIS_SERVER" --port 0 --unixsocket "$RSOCK" --unixsocketperm 700 --save '' --appendonly no \
	--daemonize no --dir "$T/r" --logfile "$T/r/redis.log" --replicaof 127.0.0.1 "$PPORT" &
RPID=$!
rcli_r() {
	redis-cli -s "$RSOCK" "$@"
}
linked() {
	rcli_r info replication 2>/dev/null | tr -d '\r' | grep -q '^master_link_status:up'
}
wait_for 20 "the replica's link to its primary" linked

# calls SERVER-CLI COMMAND: calls of COMMAND on the server (0 before the first).
calls() {
	"$1" info commandstats | tr -d '\r' |
		sed -n "s/^cmdstat_$2:calls=\([0-9]*\).*/\1/p" | grep . || echo 0
}
# col FILE NAME: column NAME of every row, as Python's csv module reads it
# (replica_calls holds no comma, but a mix's columns would).
col() {
	python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print(r[sys.argv[2]])' "$1" "$2"
}

t_replica() {
	r0=$(calls rcli_r get)
	p0=$(calls rcli get)
	f=$T/replica.csv
	expect_status 0 "$RSWEEP" run -s "$SOCK" --replica "unix://$RSOCK" -t get,set -n 2000 \
		-P 1,4 -c 2 -r 100 --repeat 1 -q -o "$f"
	# Two GET points of 2000 on the replica, none on the primary.
	[ "$(($(calls rcli_r get) - r0))" = 4000 ] ||
		fail "the replica ran $(($(calls rcli_r get) - r0)) GETs, wanted 4000"
	[ "$(calls rcli get)" = "$p0" ] || fail "the primary ran $(($(calls rcli get) - p0)) GETs"
	# The SETs on the primary (the replica runs them too, replicated).
	[ "$(calls rcli set)" -ge 4000 ] || fail "the primary ran $(calls rcli set) SETs"
	col "$f" read_from | sort -u | grep -qx replicas || fail "read_from: $(col "$f" read_from)"
	[ "$(col "$f" read_from | sort -u | wc -l)" = 1 ] || fail "read_from differs between rows"
	# Each GET row: the replica's own count; each SET row: none.
	python3 - "$f" "unix:$RSOCK" <<'PY' || fail "rows: $(cat "$f.bad")"
import csv, sys
bad = []
for r in csv.DictReader(open(sys.argv[1])):
    want = sys.argv[2] + "=2000" if r["test"] == "GET" else ""
    if r["replica_calls"] != want or r["server_calls"] != "2000":
        bad.append("%s P=%s: replica_calls %r server_calls %s" %
                   (r["test"], r["pipeline"], r["replica_calls"], r["server_calls"]))
    if not r["repl_lag"].isdigit():
        bad.append("repl_lag %r" % r["repl_lag"])
open(sys.argv[1] + ".bad", "w").write("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
tcase 'GET on the replica (--replica), SET on the primary, counted exactly' t_replica

t_all() {
	r0=$(calls rcli_r get)
	p0=$(calls rcli get)
	f=$T/all.csv
	expect_status 0 "$RSWEEP" run -s "$SOCK" --replica "unix://$RSOCK" --read-from all \
		-t get -n 2000 -P 2 -c 2 -r 100 --repeat 1 -q -o "$f"
	# An equal share of -n each: 1000 on the primary, 1000 on the replica.
	[ "$(($(calls rcli_r get) - r0))" = 1000 ] && [ "$(($(calls rcli get) - p0))" = 1000 ] ||
		fail "GETs: replica $(($(calls rcli_r get) - r0)), primary $(($(calls rcli get) - p0))"
	[ "$(col "$f" read_from | sort -u)" = all ] || fail "read_from: $(col "$f" read_from)"
	[ "$(col "$f" server_calls | sort -u)" = 2000 ] || fail "server_calls: $(col "$f" server_calls)"
}
tcase '--read-from all: an equal share on the primary and the replica' t_all

t_spawned() {
	f=$T/spawned.csv
	expect_status 0 "$RSWEEP" run --spawn --spawn-tcp --spawn-replicas 2 --read-from replicas \
		-t get,lrange_100 -n 2000 -P 1,8 -c 2 -r 100 --repeat 1 -q -o "$f"
	[ "$(rows "$f")" = 4 ] || fail "$(rows "$f") rows"
	python3 - "$f" <<'PY' || fail "rows: $(cat "$f.bad")"
import csv, re, sys
bad = []
for r in csv.DictReader(open(sys.argv[1])):
    # -n split evenly over the two replicas, each counted on its own.
    if not re.fullmatch(r"127\.0\.0\.1:(\d+)=1000;127\.0\.0\.1:(?!\1=)\d+=1000",
                        r["replica_calls"]) or \
       r["server_calls"] != "2000" or r["read_from"] != "replicas" or r["misses"] != "0":
        bad.append(str(r))
open(sys.argv[1] + ".bad", "w").write("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	# The report names where the reads went and the replication lag.
	expect_status 0 "$RSWEEP" report "$f"
	grep -q "read tests from replicas (--read-from); .*replication lag" "$T/out" ||
		fail "report: $(cat "$T/out")"
}
tcase '--spawn-replicas 2: a spawned primary and two replicas, the reads on the replicas' t_spawned

# An open loop's rate is shared over the replicas as -n is: the servers
# together are offered --rate, not --rate each (each was offered the whole
# rate, and the row said 4000/s where 8000/s were sent).  The bound holds
# on any machine: an open loop sends no faster than its schedule, so N
# requests at rate R take at least (N - 1) / R seconds; load only slows it.
t_rate() {
	f=$T/rate.csv
	expect_status 0 "$RSWEEP" run --spawn --spawn-tcp --spawn-replicas 2 --read-from replicas \
		-t get -n 2000 -P 1 -c 2 --rate 4000 --repeat 1 -q -o "$f"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 { if ($c["rate_offered"] != "4000.00" || $c["rps"] > 4000 * 2000 / 1999 * 1.01 ||
		       $c["replica_calls"] !~ /=1000;.*=1000$/) bad = 1 }
		 END { exit bad || NR != 2 }' "$f" ||
		fail "the replicas were offered more than --rate: $(cat "$f")"
}
tcase '--rate with replicas: the servers together are offered the rate' t_rate

t_resume() {
	f=$T/resume.csv
	expect_status 0 "$RSWEEP" run -s "$SOCK" --replica "unix://$RSOCK" -t get -n 1000 -P 1,2 \
		-c 1 -r 10 --repeat 1 -q -o "$f" -l L
	# Read from the primary now: another way of measuring the label's points.
	expect_status 2 "$RSWEEP" run -s "$SOCK" -t get -n 1000 -P 1,2,4 -c 1 -r 10 --repeat 1 -q -o "$f" \
		-l L --resume
	grep -q "measured with --read-from replicas, this run with --read-from masters" "$T/err" ||
		fail "resume: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" run -s "$SOCK" --replica "unix://$RSOCK" -t get -n 1000 \
		-P 1,2,4 -c 1 -r 10 --repeat 1 -q -o "$f" -l L --resume
	[ "$(rows "$f")" = 3 ] || fail "$(rows "$f") rows after the resume"
}
tcase '--resume keeps reads from replicas and from the primary apart' t_resume

t_password() {
	# Both servers take a password; the replica gets the primary's, from
	# the --target's URI here; its link masterauth.
	rcli_r config set masterauth pw >/dev/null
	rcli config set requirepass pw >/dev/null
	rcli_r -a pw --no-auth-warning config set requirepass pw >/dev/null 2>&1 ||
		rcli_r config set requirepass pw >/dev/null
	r0=$(redis-cli -s "$RSOCK" -a pw --no-auth-warning info commandstats | tr -d '\r' |
		sed -n 's/^cmdstat_get:calls=\([0-9]*\).*/\1/p')
	"$RSWEEP" run --target "p=redis://:pw@127.0.0.1:$PPORT" --replica "unix://$RSOCK" \
		-t get -n 1000 -P 1 \
		-c 1 -r 10 --repeat 1 -q -o "$T/pw.csv" >"$T/out" 2>"$T/err"
	st=$?
	r1=$(redis-cli -s "$RSOCK" -a pw --no-auth-warning info commandstats | tr -d '\r' |
		sed -n 's/^cmdstat_get:calls=\([0-9]*\).*/\1/p')
	redis-cli -s "$SOCK" -a pw --no-auth-warning config set requirepass "" >/dev/null
	redis-cli -s "$RSOCK" -a pw --no-auth-warning config set requirepass "" >/dev/null
	[ "$st" = 0 ] || fail "exited $st: $(cat "$T/err")"
	[ "$((r1 - ${r0:-0}))" = 1000 ] || fail "the replica ran $((r1 - ${r0:-0})) GETs"
}
tcase 'the replica takes the primary'"'"'s password' t_password

t_refused() {
	run_refused "--read-from chooses among replicas" -s "$SOCK" --read-from replicas -t get
	run_refused "--read-from masters with --replica" -s "$SOCK" --replica "unix://$RSOCK" \
		--read-from masters -t get
	run_refused "--spawn-replicas: the replicas reach their primary over TCP" --spawn \
		--spawn-replicas 1 -t get
	run_refused "--spawn-replicas goes with --spawn" -s "$SOCK" --spawn-replicas 1 -t get
	run_refused "--replica spawn:: a running server's URI" -s "$SOCK" --replica spawn: -t get
	run_refused "--replica is for a standalone primary" -h 127.0.0.1 -p "$PPORT" --cluster \
		--replica "unix://$RSOCK" -t get
	# The primary is no replica of itself.
	run_refused "is no replica" -s "$SOCK" --replica "redis://127.0.0.1:$PPORT" -t get -n 100
}
tcase 'what cannot read from replicas is refused in one line' t_refused
tcase_done
