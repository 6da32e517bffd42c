#!/bin/sh
# --cluster over TLS: a 3-master cluster whose nodes speak TLS only
# (--port 0, --tls-cluster yes, --tls-replication yes), its certificates
# made here with openssl.  CLUSTER SLOTS gives the masters' TLS ports, the
# only ones they have, and rsweep connects to each with TLS: exact counts
# summed over the masters at P=1 and P=16, through -h/-p --tls and through
# a rediss:// target; a CA that did not sign the nodes' certificate is one
# line naming the node, exit 2, no row.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
command -v openssl >/dev/null 2>&1 || { echo "SKIP: no openssl"; exit 77; }
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

C=$T/certs
mkdir "$C"
for ca in ca otherca; do
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$C/$ca.key" -out "$C/$ca.crt" \
		-subj "/CN=rsweep test $ca" -days 2 2>/dev/null || fail "openssl: no CA $ca"
done
openssl req -newkey rsa:2048 -nodes -keyout "$C/node.key" -out "$C/node.csr" -subj "/CN=node" \
	2>/dev/null || fail "openssl req"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$C/node.ext"
openssl x509 -req -in "$C/node.csr" -CA "$C/ca.crt" -CAkey "$C/ca.key" -set_serial 101 -days 2 \
	-extfile "$C/node.ext" -out "$C/node.crt" 2>/dev/null || fail "openssl x509"
CL_CA=$C/ca.crt CL_CERT=$C/node.crt CL_KEY=$C/node.key
start_cluster

# No plain port anywhere: an address used without TLS gets nowhere.
t_no_plain() {
	redis-cli -h 127.0.0.1 -p "$P1" ping 2>/dev/null | grep -q PONG && fail "a plain client got a PONG"
}
tcase 'no plain port anywhere: a client without TLS gets nowhere' t_no_plain

# CLUSTER SLOTS names the TLS ports.
t_slots() {
	slots=$(ccli "$P1" cluster slots | tr -d '\r' | grep -E '^[0-9]+$' | sort -u | paste -sd' ')
	for p in $P1 $P2 $P3; do
		echo " $slots " | grep -q " $p " || fail "CLUSTER SLOTS lacks $p: $slots"
	done
}
tcase 'CLUSTER SLOTS names the TLS ports' t_slots

N=6000
counts() {  # CMD WHAT
	sum=0
	for p in $P1 $P2 $P3; do
		c=$(cl_calls "$p" "$1")
		sum=$((sum + c))
		[ $((c * 100)) -ge $((2 * N * 20)) ] && [ $((c * 100)) -le $((2 * N * 50)) ] ||
			fail "$2: master $p ran $c of $((2 * N))"
	done
	[ "$sum" = $((2 * N)) ] || fail "$2: the masters ran $sum, wanted $((2 * N))"
}

t_set() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run --cluster --tls --cacert "$CL_CA" -h 127.0.0.1 -p "$P2" -t set \
		-P 1,16 -n $N -r 10000 -c 2 --repeat 1 -o "$T/set.csv" -q
	counts set "set over --tls"
	check_csv "$T/set.csv"
	[ "$(csv_col "$T/set.csv" server_calls | sort -u)" = "$N" ] ||
		fail "server_calls $(csv_col "$T/set.csv" server_calls)"
	[ "$(csv_col "$T/set.csv" target | sort -u)" = "rediss://127.0.0.1:$P2" ] ||
		fail "target column: $(csv_col "$T/set.csv" target | sort -u)"
	for p in $P1 $P2 $P3; do
		csv_col "$T/set.csv" master_rps | grep -q "127.0.0.1:$p=" || fail "master_rps lacks $p"
	done
}
tcase 'SET over -h/-p --tls: exact counts on every master, the rediss:// target named' t_set

t_get() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run --cluster --target "c=rediss://127.0.0.1:$P3" --cacert "$CL_CA" \
		-t get -P 1,16 -n $N -r 10000 -c 2 --repeat 1 -o "$T/get.csv" -q
	counts get "get through rediss://"
	[ "$(csv_col "$T/get.csv" misses | sort -u)" = 0 ] || fail "get: misses"
}
tcase 'GET through a rediss:// target: exact counts, no misses' t_get

# The wrong CA: the node named, nothing measured.
t_wrong_ca() {
	expect_status 2 "$RSWEEP" run --cluster --tls --cacert "$C/otherca.crt" -h 127.0.0.1 -p "$P1" \
		-t set -n 100 -q -o "$T/bad.csv"
	[ "$(grep -c . "$T/err")" = 1 ] || fail "not one line: $(cat "$T/err")"
	grep -q "127.0.0.1:$P1: certificate verify failed" "$T/err" || fail "wrong CA: $(cat "$T/err")"
	[ ! -e "$T/bad.csv" ] || fail "a CSV written with the wrong CA"
}
tcase 'a CA that did not sign the nodes: one line naming the node, no row' t_wrong_ca

tcase_done
