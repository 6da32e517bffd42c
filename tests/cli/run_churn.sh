#!/bin/sh
# Connection churn (issue 47): --reconnect-every K closes and reopens each
# load connection after K requests, inside the timed window.  Against a
# private redis-server, the server's own total_connections_received grows
# by exactly the connects the row reports more than a run without churn
# does (the same control connections in both), and connects is n/K up to
# one part-filled share a connection; at K=1, 10 and 100, lock-step and
# window, over a UNIX socket, and over TLS with a password (each reconnect
# pays the handshake and AUTH: cmdstat_auth grows by connects too; with
# --tls-resume the server resumes each session, tls_resumed = connects).
# Each connect's setup is timed (connect_p50_ms, connect_p99_ms). The
# refusals (K below a depth, --rate, a resume measured another way) are
# each one line, status 2.  No timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

# conns: the connections the server has accepted so far.
conns() {
	rcli "$@" info stats | tr -d '\r' | sed -n 's/^total_connections_received://p'
}
# col FILE NAME: the column NAME of FILE's only row.
col() {
	awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[want] }' "$1"
}

# churn NAME K ARGS...: rsweep run ARGS with and without --reconnect-every
# K (-n 2000 -c 4); the server's extra connections are the row's connects,
# and connects lies in [2000/K, 2000/K + 4].
churn() {
	name=$1 k=$2
	shift 2
	c0=$(conns)
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -n 2000 -c 4 --repeat 1 -q -o "$T/$name-keep.csv" "$@"
	c1=$(conns)
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -n 2000 -c 4 --repeat 1 -q -o "$T/$name.csv" \
		--reconnect-every "$k" "$@"
	c2=$(conns)
	got=$(col "$T/$name.csv" connects)
	[ "$(col "$T/$name.csv" reconnect_every)" = "$k" ] ||
		fail "$name: reconnect_every is '$(col "$T/$name.csv" reconnect_every)', wanted $k"
	[ "$(col "$T/$name.csv" requests)" = 2000 ] || fail "$name: $(col "$T/$name.csv" requests) requests"
	[ $((c2 - c1 - (c1 - c0))) = "$got" ] ||
		fail "$name: the server accepted $((c2 - c1)) connections with churn, $((c1 - c0)) without; the row says $got connects"
	[ "$got" -ge $((2000 / k)) ] && [ "$got" -le $((2000 / k + 4)) ] ||
		fail "$name: $got connects for 2000 requests at K=$k"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 !($c["connects_per_s"] > 0) { exit 1 }' "$T/$name.csv" ||
		fail "$name: connects_per_s: $(cat "$T/$name.csv")"
	# Each connect's setup, timed: present and positive, p99 >= p50;
	# no TLS, no tls_resumed.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 !($c["connect_p50_ms"] > 0) || !($c["connect_p99_ms"] >= $c["connect_p50_ms"]) ||
		 $c["tls_resumed"] != "" { exit 1 }' "$T/$name.csv" ||
		fail "$name: connect_p50_ms, connect_p99_ms, tls_resumed: $(cat "$T/$name.csv")"
	[ -z "$(col "$T/$name-keep.csv" connects)" ] && [ "$(col "$T/$name-keep.csv" reconnect_every)" = 0 ] ||
		fail "$name: a run without churn reports connects: $(cat "$T/$name-keep.csv")"
	[ -z "$(col "$T/$name-keep.csv" connect_p50_ms)" ] &&
		[ -z "$(col "$T/$name-keep.csv" connect_p99_ms)" ] &&
		[ -z "$(col "$T/$name-keep.csv" tls_resumed)" ] ||
		fail "$name: a run without churn reports connect times: $(cat "$T/$name-keep.csv")"
}

t_k1() { churn k1 1 -P 1; }
tcase 'K=1: a connection a request, counted by the server' t_k1
t_k10() { churn k10 10 -P 4; }
tcase 'K=10 at P=4 (shares of 4, 4, 2), counted by the server' t_k10
t_k100() { churn k100 100 -P 16 --mode window; }
tcase 'K=100 in a window of 16, counted by the server' t_k100
t_threads() { churn threads 10 -P 2 --threads 2; }
tcase 'K=10 over two threads, counted by the server' t_threads


t_refused() {
	run_refused "--reconnect-every 4 is below the depth 8 (-P): a connection closed after 4 requests never has 8 in flight" \
		-s "$SOCK" -t get -n 100 -P 1,8 --reconnect-every 4
	run_refused "--reconnect-every is for the closed loop: drop --rate" \
		-s "$SOCK" -t get -n 100 --rate 1000 --reconnect-every 4
	run_refused "option --reconnect-every" -s "$SOCK" -t get -n 100 --reconnect-every 0
	run_refused "--tls-resume resumes sessions across reconnects: add --reconnect-every" \
		-h 127.0.0.1 -p 1 -t get -n 100 --tls --insecure --tls-resume
	run_refused "--tls-resume is a TLS option: add --tls (or a rediss:// target, or --spawn-tls)" \
		-s "$SOCK" -t get -n 100 --reconnect-every 4 --tls-resume
	# The rows do not say whether sessions were offered: no resume with it.
	run_refused "--resume cannot tell rows measured with --tls-resume from rows without" \
		-h 127.0.0.1 -p 1 -t get -n 100 --tls --insecure --reconnect-every 4 --tls-resume \
		--resume
}
tcase 'K below a depth, with --rate, or 0 is refused; --tls-resume without churn or TLS' t_refused

# --resume with another K (or none) is another way of measuring.
t_resume() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -n 200 -c 2 -P 1,2 --repeat 1 -q -o "$T/res.csv" \
		--reconnect-every 5
	expect_status 2 "$RSWEEP" run -s "$SOCK" -t get -n 200 -c 2 -P 1,2,4 --repeat 1 -q -o "$T/res.csv" \
		--resume --reconnect-every 50
	grep -q "measured with --reconnect-every 5, this run with --reconnect-every 50" "$T/err" ||
		fail "resume with another K: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run -s "$SOCK" -t get -n 200 -c 2 -P 1,2,4 --repeat 1 -q -o "$T/res.csv" \
		--resume
	grep -q "measured with --reconnect-every 5, this run with --reconnect-every 0" "$T/err" ||
		fail "resume without churn: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -n 200 -c 2 -P 1,2,4 --repeat 1 -q -o "$T/res.csv" \
		--resume --reconnect-every 5
	[ "$(rows "$T/res.csv")" = 3 ] || fail "resume with the same K: $(rows "$T/res.csv") rows"
}
tcase '--resume refuses rows measured with another K' t_resume

# Over TLS with a password: every reconnect pays the handshake and AUTH.
# Last: it replaces the script's server with its own.
t_tls_auth() {
	command -v openssl >/dev/null 2>&1 || tcase_skip "no openssl"
	command -v python3 >/dev/null 2>&1 || tcase_skip "no python3"
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" \
		-subj "/CN=rsweep churn" -days 2 2>/dev/null || fail "openssl: no certificate"
	stop_redis
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	start_redis --tls-port "$port" --bind 127.0.0.1 --tls-cert-file "$T/cert.pem" \
		--tls-key-file "$T/key.pem" --tls-auth-clients no --requirepass sesame
	auths() {
		rcli -a sesame --no-auth-warning info commandstats | tr -d '\r' |
			sed -n 's/^cmdstat_auth:calls=\([0-9]*\).*/\1/p' | grep . || echo 0
	}
	a0=$(auths)
	c0=$(conns -a sesame --no-auth-warning)
	expect_status 0 env REDISCLI_AUTH=sesame "$RSWEEP" run -h 127.0.0.1 -p "$port" --tls --insecure \
		-t get -n 300 -c 3 -P 2 --repeat 1 -q -o "$T/tls-keep.csv"
	a1=$(auths)
	c1=$(conns -a sesame --no-auth-warning)
	expect_status 0 env REDISCLI_AUTH=sesame "$RSWEEP" run -h 127.0.0.1 -p "$port" --tls --insecure \
		-t get -n 300 -c 3 -P 2 --repeat 1 -q -o "$T/tls.csv" --reconnect-every 10
	a2=$(auths)
	c2=$(conns -a sesame --no-auth-warning)
	got=$(col "$T/tls.csv" connects)
	[ "$got" -ge 30 ] && [ "$got" -le 33 ] || fail "TLS: $got connects for 300 requests at K=10"
	[ $((c2 - c1 - (c1 - c0))) = "$got" ] ||
		fail "TLS: the server accepted $((c2 - c1)) connections with churn, $((c1 - c0)) without; the row says $got"
	[ $((a2 - a1 - (a1 - a0))) = "$got" ] ||
		fail "TLS: AUTH ran $((a2 - a1)) times with churn, $((a1 - a0)) without; the row says $got connects"
	# A full handshake each time: no session resumed.
	[ "$(col "$T/tls.csv" tls_resumed)" = 0 ] || fail "TLS: tls_resumed without --tls-resume: $(cat "$T/tls.csv")"
	# --tls-resume: each reconnect offers the session of the connection it
	# replaces, and redis-server (tls-session-caching yes, its default)
	# resumes every one: tls_resumed is connects.  Still a connect and an
	# AUTH each, counted by the server.
	expect_status 0 env REDISCLI_AUTH=sesame "$RSWEEP" run -h 127.0.0.1 -p "$port" --tls --insecure \
		-t get -n 300 -c 3 -P 2 --repeat 1 -q -o "$T/tls-resume.csv" --reconnect-every 10 --tls-resume
	a3=$(auths)
	c3=$(conns -a sesame --no-auth-warning)
	got=$(col "$T/tls-resume.csv" connects)
	[ $((c3 - c2 - (c1 - c0))) = "$got" ] && [ $((a3 - a2 - (a1 - a0))) = "$got" ] ||
		fail "TLS resumed: the server accepted $((c3 - c2)) connections and $((a3 - a2)) AUTHs; the row says $got"
	[ "$(col "$T/tls-resume.csv" tls_resumed)" = "$got" ] ||
		fail "TLS: $(col "$T/tls-resume.csv" tls_resumed) of $got connects resumed with --tls-resume"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 !($c["connect_p50_ms"] > 0) { exit 1 }' "$T/tls-resume.csv" ||
		fail "TLS resumed: connect_p50_ms: $(cat "$T/tls-resume.csv")"
}
tcase 'over TLS with a password, each reconnect pays the handshake and AUTH' t_tls_auth

tcase_done
