#!/bin/sh
# TLS end to end, against a private redis-server with a TLS port and
# certificates this test makes with the openssl command: exact request
# counts over TLS at P=1 and P=16 (INFO commandstats grows by what the rows
# report), and with batches of 1 MiB; an unknown CA, a certificate for
# another host, an expired one, each its own line, exit 2 and no row;
# --insecure against the unknown CA, said in the target column; a TLS
# client at a plain port (silent, or answering with an error reply) and a
# plain client at the TLS port (Redis, and a fake sending an alert), each
# its line; valgrind finds nothing over a TLS sweep (skipped without
# valgrind or in a sanitizer build); a server that completes the handshake
# and then never answers fails after --timeout.  The certificates are
# switched on the one server with CONFIG SET.  No timing is asserted;
# every run is bounded by -n, --timeout and --connect-timeout.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
command -v openssl >/dev/null 2>&1 || { echo "SKIP: no openssl"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

C=$T/certs
mkdir "$C"
# cert NAME CA SAN DAYS: a server certificate signed by CA.
SERIAL=100
cert() {
	SERIAL=$((SERIAL + 1))
	openssl req -newkey rsa:2048 -nodes -keyout "$C/$1.key" -out "$C/$1.csr" \
		-subj "/CN=$1" 2>/dev/null || fail "openssl req for $1"
	printf 'subjectAltName=%s\n' "$3" >"$C/$1.ext"
	openssl x509 -req -in "$C/$1.csr" -CA "$C/$2.crt" -CAkey "$C/$2.key" -set_serial "$SERIAL" \
		-days "$4" -extfile "$C/$1.ext" -out "$C/$1.crt" 2>/dev/null || fail "openssl x509 for $1"
}
for ca in ca otherca; do
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$C/$ca.key" -out "$C/$ca.crt" \
		-subj "/CN=rsweep test $ca" -days 2 2>/dev/null || fail "openssl: no CA $ca"
done
cert good ca "IP:127.0.0.1,DNS:localhost" 2
cert stranger otherca "IP:127.0.0.1,DNS:localhost" 2
cert elsewhere ca "DNS:elsewhere.example" 2
# -days -1: notAfter a day before notBefore, and before now.
cert expired ca "IP:127.0.0.1,DNS:localhost" -1

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# The server: TLS on TPORT, plain TCP on PPORT, and the UNIX socket the
# test reads counters on.  A port taken between free_port and the start
# is tried again.
for try in 1 2 3 4 5; do
	TPORT=$(free_port)
	PPORT=$(free_port)
	[ "$TPORT" != "$PPORT" ] || continue
	start_redis --port "$PPORT" --bind 127.0.0.1 --tls-port "$TPORT" \
		--tls-cert-file "$C/good.crt" --tls-key-file "$C/good.key" \
		--tls-ca-cert-file "$C/ca.crt" --tls-auth-clients no
	redis-cli --tls --cacert "$C/ca.crt" -h 127.0.0.1 -p "$TPORT" ping 2>/dev/null |
		grep -q PONG && break
	stop_redis
	TPORT=
done
[ -n "$TPORT" ] || fail "no TLS server"

use_cert() {
	rcli config set tls-cert-file "$C/$1.crt" tls-key-file "$C/$1.key" | grep -q OK ||
		fail "CONFIG SET to the $1 certificate"
}
TLS="-h 127.0.0.1 -p $TPORT --tls --connect-timeout 5 --timeout 10"
# The fake servers the cases start write their pids to $T/*.pid.
tls_cleanup() {
	kill $(cat "$T"/*.pid 2>/dev/null) 2>/dev/null
	cleanup
}
LIB_CLEANUP=tls_cleanup
# Cases 2 to 4 switch the server to a bad certificate: a case that needs
# the good one sets it itself rather than count on case 4 to have put it
# back.

# 1. Exact counts over TLS, P=1 and P=16, and the handshakes timed.
t_counts() {
	f=$T/tls.csv
	before=$(get_calls)
	expect_status 0 "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t get -P 1,16 --repeat 1 -n 3000 \
		-c 4 -q -o "$f"
	after=$(get_calls)
	[ "$(rows "$f")" = 2 ] || fail "$(rows "$f") rows, wanted 2"
	check_csv "$f"
	sum=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["requests"] } END { print s }' "$f")
	[ "$sum" = 6000 ] || fail "the rows report $sum requests, wanted 6000"
	[ $((after - before)) = "$sum" ] || fail "cmdstat_get grew by $((after - before)), the rows report $sum"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 !($c["connect_ms"] > 0) || $c["target"] != "rediss://127.0.0.1:'"$TPORT"'" { bad = 1 }
		 END { exit bad }' "$f" || fail "connect_ms or the target column is wrong: $(cat "$f")"
}
tcase 'exact counts over TLS at P=1 and P=16' t_counts

# 1b. Batches of 1 MiB (16 values of 64 KiB): many records a batch, and
# writes the socket takes in parts; still exactly one SET a request.
t_big() {
	set_calls() {
		rcli info commandstats | tr -d '\r' | sed -n 's/^cmdstat_set:calls=\([0-9]*\).*/\1/p' | grep . || echo 0
	}
	before=$(set_calls)
	expect_status 0 "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t set -d 65536 -P 16 --repeat 1 -n 320 \
		-c 2 -q -o "$T/big.csv"
	after=$(set_calls)
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["requests"] }' "$T/big.csv")
	[ "$got" = 320 ] && [ $((after - before)) = 320 ] ||
		fail "SET -d 65536 -P 16: the row reports $got, cmdstat_set grew by $((after - before)), wanted 320"
}
tcase 'batches of 1 MiB are one SET a request' t_big

# 2. An unknown CA, refused with what to do; --insecure goes through.
t_unknown_ca() {
	use_cert stranger
	expect_status 2 "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t get -n 100 -c 2 -q -o "$T/no1.csv"
	grep -q "certificate verify failed: .*(unknown CA; --cacert names the CA, --insecure skips the check)" \
		"$T/err" || fail "unknown CA: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one line: $(cat "$T/err")"
	[ ! -s "$T/no1.csv" ] || fail "a refused certificate left rows: $(cat "$T/no1.csv")"
	expect_status 0 "$RSWEEP" run $TLS --insecure -t get -n 200 -c 2 --repeat 1 -q -o "$T/ins.csv"
	grep -q ",rediss://127.0.0.1:$TPORT (insecure)," "$T/ins.csv" ||
		fail "--insecure is not in the target column: $(cat "$T/ins.csv")"
}
tcase 'an unknown CA is refused; --insecure goes through' t_unknown_ca

# 3. A certificate for another host, and the name to expect given with --sni.
t_other_host() {
	use_cert elsewhere
	expect_status 2 "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t get -n 100 -c 2 -q -o "$T/no2.csv"
	grep -q "certificate verify failed: the certificate is not for 127.0.0.1 (--sni" "$T/err" ||
		fail "host name mismatch: $(cat "$T/err")"
	[ ! -s "$T/no2.csv" ] || fail "a host name mismatch left rows"
	expect_status 0 "$RSWEEP" run $TLS --cacert "$C/ca.crt" --sni elsewhere.example -t get -n 200 \
		-c 2 --repeat 1 -q -o "$T/sni.csv"
}
tcase 'a certificate for another host is refused; --sni names it' t_other_host

# 4. An expired certificate.
t_expired() {
	use_cert expired
	expect_status 2 "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t get -n 100 -c 2 -q -o "$T/no3.csv"
	grep -q "certificate verify failed: certificate has expired" "$T/err" ||
		fail "expired: $(cat "$T/err")"
	[ ! -s "$T/no3.csv" ] || fail "an expired certificate left rows"
	use_cert good
}
tcase 'an expired certificate is refused' t_expired

# 5. TLS at the plain port, plain at the TLS port: one line each, exit 2.
t_wrong_port() {
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$PPORT" --tls --cacert "$C/ca.crt" \
		--connect-timeout 1 -t get -n 100 -c 2 -q -o "$T/no4.csv"
	grep -q "^rsweep run: the server at 127.0.0.1:$PPORT does not speak TLS (a plain port?)" "$T/err" ||
		fail "TLS at a plain port: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --target plain=redis://127.0.0.1:"$TPORT" -t get -n 100 -c 2 -q \
		-o "$T/no5.csv"
	grep -q "the server at 127.0.0.1:$TPORT .*TLS.*use --tls or rediss://" "$T/err" ||
		fail "plain at the TLS port: $(cat "$T/err")"
	[ ! -s "$T/no4.csv" ] && [ ! -s "$T/no5.csv" ] || fail "a wrong port left rows"
}
tcase 'TLS at a plain port and plain at the TLS port are refused' t_wrong_port

# 5b. Fake servers that answer the first bytes with REPLY (hex) and close:
# a plain one with an error reply (a ClientHello with a newline in it is
# an inline command to Redis), and a TLS one with an alert record to a
# plain client.
t_fakes() {
	cat >"$T/answer.py" <<'PY'
import signal, socket, sys
signal.alarm(60)
reply = bytes.fromhex(sys.argv[1])
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    c.recv(4096)
    c.sendall(reply)
    c.close()
PY
	# answer NAME REPLY: start the fake, its port in $T/NAME.port.
	answer() {
		python3 "$T/answer.py" "$2" >"$T/$1.port" &
		echo $! >"$T/$1.pid"
		wait_for 10 "the fake server $1 to listen" test -s "$T/$1.port"
	}
	answer plain "$(printf '%s' '-ERR unknown command' | od -An -tx1 | tr -d ' \n')0d0a"
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$(cat "$T/plain.port")" --tls --cacert "$C/ca.crt" \
		-t get -n 100 -c 2 -q -o "$T/no7.csv"
	grep -q "does not speak TLS (a plain port?): its answer to the TLS handshake is not TLS" "$T/err" ||
		fail "an error reply to the handshake: $(cat "$T/err")"
	# A TLS 1.2 alert record: protocol_version, fatal.
	answer alert 15030300020246
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$(cat "$T/alert.port")" -t get -n 100 -c 2 -q \
		-o "$T/no8.csv"
	grep -q "^rsweep run: the server at 127.0.0.1:$(cat "$T/alert.port") speaks TLS: use --tls or rediss://$" \
		"$T/err" || fail "a TLS alert to a plain client: $(cat "$T/err")"
	[ ! -s "$T/no7.csv" ] && [ ! -s "$T/no8.csv" ] || fail "a fake server left rows"
}
tcase 'fake servers answering the handshake with an error or an alert' t_fakes

# 6. rediss:// in a --target takes the global TLS options, but not one
# --sni for two servers.
t_uri() {
	use_cert good
	expect_status 2 "$RSWEEP" run --target a=rediss://127.0.0.1:"$TPORT" --target b=rediss://localhost:"$TPORT" \
		--cacert "$C/ca.crt" --sni localhost -t get -n 200 --dry-run
	grep -q -- "--sni names one server, and 2 rediss:// targets are given" "$T/err" ||
		fail "--sni with two TLS targets: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" run --target tls=rediss://127.0.0.1:"$TPORT" --cacert "$C/ca.crt" \
		-t get -n 200 -c 2 --repeat 1 -q -o "$T/uri.csv"
	grep -q "^tls,GET,.*,rediss://127.0.0.1:$TPORT," "$T/uri.csv" || fail "rediss:// rows: $(cat "$T/uri.csv")"
}
tcase 'rediss:// targets take the global TLS options' t_uri

# 7. A TLS option without TLS is a usage error.
t_usage() {
	expect_status 2 "$RSWEEP" run -s "$SOCK" --cacert "$C/ca.crt" -t get -n 100 -q
	grep -q -- "--cacert is a TLS option" "$T/err" || fail "--cacert without --tls: $(cat "$T/err")"
}
tcase 'a TLS option without TLS is a usage error' t_usage

# 8. Under valgrind, a TLS sweep over two threads and a refused
# certificate: no error, nothing left behind (OpenSSL's state included).
t_valgrind() {
	command -v valgrind >/dev/null 2>&1 || tcase_skip "no valgrind"
	[ "${RS_SANITIZERS:-no}" != yes ] || tcase_skip "a sanitizer build"
	use_cert good
	vg() {
		valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
			--error-exitcode=99 "$@" >"$T/out" 2>"$T/err"
	}
	vg "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t get,set -P 1,16 --repeat 1 -n 400 -c 4 \
		--threads 2 -q -o "$T/vg.csv" || fail "TLS sweep under valgrind: $(cat "$T/err")"
	vg "$RSWEEP" run $TLS --cacert "$C/otherca.crt" -t get -n 100 -c 2 -q
	[ $? = 2 ] || fail "refused certificate under valgrind: $(cat "$T/err")"
}
tcase 'valgrind finds nothing over a TLS sweep' t_valgrind

# 9. A server that completes the handshake and never answers: --timeout.
t_mute() {
	cat >"$T/mute.py" <<'PY'
import signal, socket, ssl, sys
signal.alarm(60)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(sys.argv[1], sys.argv[2])
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
keep = []
while True:
    c, _ = s.accept()
    try:
        keep.append(ctx.wrap_socket(c, server_side=True))
    except (ssl.SSLError, OSError):
        pass
PY
	python3 "$T/mute.py" "$C/good.crt" "$C/good.key" >"$T/mute.port" &
	echo $! >"$T/mute.pid"
	wait_for 10 "the mute TLS server to listen" test -s "$T/mute.port"
	MPORT=$(cat "$T/mute.port")
	expect_status 1 "$RSWEEP" run -h 127.0.0.1 -p "$MPORT" --tls --cacert "$C/ca.crt" --timeout 1 \
		-t get -n 100 -c 2 -q -o "$T/no6.csv"
	grep -q "timed out after 1 s" "$T/err" || fail "the mute server: $(cat "$T/err")"
	[ ! -s "$T/no6.csv" ] || fail "the mute server left rows"
}
tcase 'a mute TLS server fails after --timeout' t_mute

# 10. Mutual TLS without --cert: under TLS 1.3 the server refuses it after
# the client's handshake is done, at the first read.  A TLS failure, exit 2,
# saying what to give (issue 25, O1: it was exit 1); with --cert it runs.
t_mtls() {
	use_cert good
	rcli config set tls-auth-clients yes | grep -q OK || fail "CONFIG SET tls-auth-clients"
	expect_status 2 "$RSWEEP" run $TLS --cacert "$C/ca.crt" -t get -n 100 -c 2 -q -o "$T/no7.csv"
	grep -q "certificate required (the server wants a client certificate: --cert and --key)" "$T/err" ||
		fail "mTLS without --cert: $(cat "$T/err")"
	[ ! -s "$T/no7.csv" ] || fail "mTLS without --cert left rows"
	expect_status 0 "$RSWEEP" run $TLS --cacert "$C/ca.crt" --cert "$C/good.crt" --key "$C/good.key" \
		-t get -n 100 -c 2 --repeat 1 -q -o "$T/mtls.csv"
	[ "$(rows "$T/mtls.csv")" = 1 ] || fail "mTLS with --cert: $(rows "$T/mtls.csv") rows"
	rcli config set tls-auth-clients no | grep -q OK || fail "CONFIG SET tls-auth-clients no"
}
tcase 'mutual TLS without --cert is refused, with --cert runs' t_mtls

tcase_done
