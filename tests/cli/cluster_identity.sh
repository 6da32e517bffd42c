#!/bin/sh
# --cluster touches only the nodes of the cluster: a master the slot map
# names is checked by node id (CLUSTER MYID) on its own connection before
# its guard.  Seen before: a seed whose CLUSTER SLOTS named a plain server
# had that server taken for "a cluster of 1 master", and with --force-flush
# its keys were flushed.  A fake seed (python3) answers as a cluster node
# would, its slot map naming a plain redis-server this test starts.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

start_redis --port 0
PLAIN=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
stop_redis
start_redis --port "$PLAIN" --bind 127.0.0.1
wait_for 10 "the plain server on $PLAIN" sh -c "redis-cli -h 127.0.0.1 -p $PLAIN ping | grep -q PONG"
redis-cli -h 127.0.0.1 -p "$PLAIN" mset precious 1 >/dev/null

cat >"$T/seed.py" <<'PY'
import signal, socket, sys, threading
signal.alarm(60)
plain = int(sys.argv[1])
def bulk(s):
    b = s.encode()
    return b"$%d\r\n%s\r\n" % (len(b), b)
INFO = bulk("# Server\r\nredis_version:7.0.15\r\nrun_id:" + "f" * 40 +
            "\r\nprocess_id:1\r\narch_bits:64\r\nos:Linux\r\n# Cluster\r\ncluster_enabled:1\r\n")
SLOTS = (b"*1\r\n*3\r\n:0\r\n:16383\r\n*3\r\n" + bulk("127.0.0.1") + b":%d\r\n" % plain +
         bulk("a" * 40))
def answer(words):
    w = [x.upper() for x in words[:2]]
    if w[:1] == [b"SELECT"] or w[:1] == [b"PING"]:
        return b"+OK\r\n"
    if w[:1] == [b"INFO"]:
        return INFO
    if w == [b"CLUSTER", b"INFO"]:
        return bulk("cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_known_nodes:1\r\n")
    if w == [b"CLUSTER", b"SLOTS"]:
        return SLOTS
    if w == [b"CLUSTER", b"MYID"]:
        return bulk("a" * 40)
    return b"-ERR not in this fake\r\n"
def serve(c):
    f = c.makefile("rb")
    try:
        while True:
            line = f.readline()
            if not line:
                return
            words = []
            for _ in range(int(line[1:])):
                n = int(f.readline()[1:])
                words.append(f.read(n + 2)[:-2])
            c.sendall(answer(words))
    except Exception:
        return
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
python3 "$T/seed.py" "$PLAIN" >"$T/seed.port" &
SEED_PID=$!
seed_cleanup() {
	kill $SEED_PID 2>/dev/null
	cleanup
}
LIB_CLEANUP=seed_cleanup
wait_for 10 "the fake seed to listen" test -s "$T/seed.port"

t_plain_master() {
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$(cat "$T/seed.port")" --cluster -t set -P 1 \
		-n 100 --repeat 1 --force-flush -q -o "$T/id.csv"
	grep -q "127.0.0.1:$PLAIN: named a master of the cluster, but it answers no node id" "$T/err" ||
		fail "a plain server named by the slot map: $(cat "$T/err")"
	[ "$(redis-cli -h 127.0.0.1 -p "$PLAIN" get precious)" = 1 ] || fail "the plain server's key was flushed"
	[ "$(redis-cli -h 127.0.0.1 -p "$PLAIN" info commandstats | grep -c cmdstat_set)" = 1 ] &&
		fail "the plain server was loaded"
	[ ! -s "$T/id.csv" ] || fail "rows written: $(cat "$T/id.csv")"
}
tcase 'a plain server the slot map names as a master is refused, its keys kept' t_plain_master

tcase_done
