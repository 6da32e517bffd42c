#!/bin/sh
# A server that answers, but trickles its replies a byte at a time (issue
# 40): a proxy in front of a private redis-server passes requests on at
# once and holds each reply byte back.  When every load connection's
# SELECT reply trickles in just within --timeout, the setup of the point's
# connections still ends within one deadline for them all, --timeout or a
# tenth of it a connection (it took clients times --timeout, one
# connection after the other); when the
# load's replies trickle, each a little under --timeout apart, the point
# ends once a request has waited --timeout for its reply (it ran on for as
# long as the server pleased).  Plain TCP and TLS (the proxy completes the
# handshake, then trickles).  Each run exits 1 with one line naming the
# server and what stalled, and writes no row.  No timing is asserted: each
# run is bounded by `timeout 30`, where the old behaviour took 60 s and
# more.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
command -v openssl >/dev/null 2>&1 || { echo "SKIP: no openssl"; exit 77; }
command -v timeout >/dev/null 2>&1 || { echo "SKIP: no timeout"; exit 77; }

start_redis
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" \
	-subj "/CN=rsweep trickle" -days 2 2>/dev/null || fail "openssl: no certificate"

cat >"$T/trickle.py" <<'PY'
# trickle.py UPSTREAM FROM SKIP DELAY [CERT KEY]: a proxy to the redis-server
# at the UNIX socket UPSTREAM that passes requests on at once and sends the
# replies of connection number FROM and later (1: the first accepted) a
# byte every DELAY seconds, after the first SKIP bytes; with CERT and KEY
# it speaks TLS to its clients.  Prints its port.
import select, signal, socket, ssl, sys, threading, time
signal.alarm(90)
upstream, first, skip, delay = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
ctx = None
if len(sys.argv) > 6:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[5], sys.argv[6])
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(256)
print(s.getsockname()[1], flush=True)

# A thread a connection, the only one to use its TLS object.
def serve(c, slow):
    try:
        if ctx is not None:
            c = ctx.wrap_socket(c, server_side=True)
        u = socket.socket(socket.AF_UNIX)
        u.connect(upstream)
    except (ssl.SSLError, OSError):
        return
    out, sent, due = b"", 0, 0.0
    try:
        while True:
            held = slow and sent >= skip
            wait = None if not out else max(0.0, due - time.monotonic()) if held else 0.0
            if ctx is not None and c.pending():
                wait = 0.0
            r, _, _ = select.select([c, u], [], [], wait)
            if c in r or (ctx is not None and c.pending()):
                try:
                    b = c.recv(65536)
                except ssl.SSLWantReadError:
                    b = None
                if b == b"":
                    return
                if b:
                    u.sendall(b)
            if u in r:
                b = u.recv(65536)
                if not b:
                    return
                out += b
            while out and (not slow or sent < skip or time.monotonic() >= due):
                c.sendall(out[:1])
                out, sent = out[1:], sent + 1
                if slow and sent >= skip:
                    due = time.monotonic() + delay
                    break
    except (ssl.SSLError, OSError):
        pass
    finally:
        c.close()

n = 0
while True:
    c, _ = s.accept()
    n += 1
    threading.Thread(target=serve, args=(c, n >= first), daemon=True).start()
PY
trickle_cleanup() {
	kill $(cat "$T"/*.pid 2>/dev/null) 2>/dev/null
	cleanup
}
LIB_CLEANUP=trickle_cleanup

# proxy NAME SKIP DELAY [tls]: a trickling proxy whose first connection
# (rsweep's control connection) is served at full speed; its port in $PORT.
proxy() {
	if [ "${4:-}" = tls ]; then
		python3 "$T/trickle.py" "$SOCK" 2 "$2" "$3" "$T/cert.pem" "$T/key.pem" >"$T/$1.port" &
	else
		python3 "$T/trickle.py" "$SOCK" 2 "$2" "$3" >"$T/$1.port" &
	fi
	echo $! >"$T/$1.pid"
	wait_for 10 "the proxy $1 to listen" test -s "$T/$1.port"
	PORT=$(cat "$T/$1.port")
}

# stalled NAME WHAT ARGS...: rsweep run ARGS ends (within `timeout 30`)
# with exit 1, one line naming the server and saying WHAT, and no row.
stalled() {
	name=$1 what=$2
	shift 2
	expect_status 1 timeout 30 "$RSWEEP" run -h 127.0.0.1 -p "$PORT" --timeout 2 -t get --repeat 1 \
		-q -o "$T/$name.csv" "$@"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$name: not one line: $(cat "$T/err")"
	grep -q "127.0.0.1:$PORT: $what" "$T/err" || fail "$name: $(cat "$T/err")"
	[ ! -s "$T/$name.csv" ] || [ "$(rows "$T/$name.csv")" = 0 ] ||
		fail "$name: the stalled point left a row: $(cat "$T/$name.csv")"
}

# 1. Each of 40 connections' SELECT reply (5 bytes) takes 1.5 s, within
# --timeout 2 for each, 60 s for all of them one after the other; the
# setup's one deadline is 8 s (a tenth of --timeout for each of 40).
SETUP="the server answers too slowly (SELECT: no complete reply when the connections' setup ran out of time.*connections were set up within 8 s (one deadline for all: --timeout, or a tenth of it a connection)"
t_setup_plain() {
	proxy setup 0 0.3
	stalled setup "$SETUP" -c 40 -n 4000
}
tcase 'a trickled SELECT on every connection ends the setup within its one deadline' t_setup_plain

t_setup_tls() {
	proxy setup_tls 0 0.3 tls
	stalled setup_tls "$SETUP" --tls --insecure -c 40 -n 4000
}
tcase 'over TLS, a trickle after the handshake ends the setup within its one deadline' t_setup_tls

# 2. The load's replies (9 bytes a GET) trickle in 0.45 s apart: always
# one within --timeout, but a batch of 8 takes 3.6 s.  400 requests would
# take 90 s.
LOAD="the server answers too slowly (a request's reply not complete 2.0 s after it was sent)"
t_load_plain() {
	proxy load 5 0.05
	stalled load "$LOAD" -c 2 -P 8 -n 400
	grep -q "^rsweep run: point 1 of 1 (GET P=8 repeat 1): " "$T/err" || fail "no point named: $(cat "$T/err")"
}
tcase 'replies trickled during the load end the point at --timeout' t_load_plain

t_load_tls() {
	proxy load_tls 5 0.05 tls
	stalled load_tls "$LOAD" --tls --insecure -c 2 -P 8 -n 400
}
tcase 'over TLS, replies trickled during the load end the point at --timeout' t_load_tls

tcase_done
