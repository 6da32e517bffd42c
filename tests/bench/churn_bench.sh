#!/bin/sh
# churn_bench.sh: connection churn, rsweep run --reconnect-every K beside
# redis-benchmark -k 0 (its no-keepalive mode: a new connection for every
# request), issue 47.
#
#   tests/bench/churn_bench.sh [RSWEEP] [PAIRS]
#
# One private redis-server on a free 127.0.0.1 TCP port.  GET, P=1, -c 50,
# -n N (10000), one client thread each.  For each pair, redis-benchmark -k 0
# runs, then rsweep with --reconnect-every 1, 10 and 100 and without churn
# (and redis-benchmark -k 1, keep-alive, for the scale); each figure is
# the median over PAIRS (3) of the pairs' req/s, and each ratio the median
# of the per-pair ratios to redis-benchmark -k 0's figure of the same pair:
# ratios from one run, because this machine is shared and absolute figures
# drift.  What each tool pays a connection differs: redis-benchmark -k 0
# connects without waiting and writes its request at once (no SELECT for
# db 0); rsweep connects, sends SELECT (and AUTH with a password) and waits
# for it before the request, one connection of a thread at a time.  The
# server's total_connections_received delta is printed beside each rsweep
# figure, and the median of the rows' connect_p50_ms and connect_p99_ms
# (each connect's setup: connect and SELECT).  Then, with openssl, the
# same server's TLS port at --reconnect-every 1 and 10, with a full
# handshake each connect and with --tls-resume (tls_resumed: the connects
# whose session the server resumed), ratios to the full handshake of the
# same K.  It prints figures; it does not pass or fail.  Bounded: -n per
# run, 6 runs a pair; TIME_WAIT sockets of some 10^5 connections remain.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PAIRS=${2:-${PAIRS:-3}}
N=${N:-10000}
command -v redis-benchmark >/dev/null || { echo "needs redis-benchmark (redis-tools)"; exit 1; }
"$RSWEEP" run --help 2>&1 | grep -q -- --reconnect-every ||
	{ echo "$RSWEEP has no --reconnect-every (issue 47)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-churnbench.XXXXXX")
SRV=
trap '[ -n "$SRV" ] && { kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; }; rm -rf "$T"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
TLSARGS=
if command -v openssl >/dev/null 2>&1 &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" \
		-subj "/CN=rsweep churn" -days 2 2>/dev/null; then
	TPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	TLSARGS="--tls-port $TPORT --tls-cert-file $T/cert.pem --tls-key-file $T/key.pem --tls-auth-clients no"
fi
# shellcheck disable=SC2086 # $TLSARGS is words or none
redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
	--maxclients 10000 --dir "$T" --logfile "$T/redis.log" $TLSARGS &
SRV=$!
i=0
until redis-cli -p "$PORT" ping 2>/dev/null | grep -q PONG; do
	i=$((i + 1))
	[ $i -lt 200 ] || { echo "the server did not start: $(tail -2 "$T/redis.log")"; exit 1; }
	sleep 0.05
done

conns() {
	redis-cli -p "$PORT" info stats | tr -d '\r' | sed -n 's/^total_connections_received://p'
}
rb_rps() {  # keepalive
	redis-benchmark -h 127.0.0.1 -p "$PORT" -c 50 -n "$N" -P 1 -k "$1" -t get --csv 2>/dev/null |
		awk -F'"' 'NR == 2 { print $4 }'
}
# rs_rps K (0: no churn): req/s, the server's new connections, and the
# row's connect p50 and p99 in ms ("-" without churn).
rs_rps() {
	c0=$(conns)
	if [ "$1" = 0 ]; then churn=; else churn="--reconnect-every $1"; fi
	# shellcheck disable=SC2086 # $churn is two words or none
	"$RSWEEP" run -h 127.0.0.1 -p "$PORT" -c 50 -n "$N" -P 1 -t get $churn --repeat 1 --force-flush \
		-o "$T/p.csv" --overwrite -q >/dev/null 2>"$T/rs.err" ||
		{ echo "rsweep failed: $(head -2 "$T/rs.err")" >&2; exit 1; }
	c1=$(conns)
	python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["rps"], int(sys.argv[2]), r["connect_p50_ms"] or "-", r["connect_p99_ms"] or "-")' \
		"$T/p.csv" $((c1 - c0))
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# connection churn, GET -P 1 -c 50 -n $N, TCP 127.0.0.1, $PAIRS interleaved pairs," \
	"$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(redis-server --version | sed 's/ sha=.*//')"
: >"$T/rb0"; : >"$T/rb1"
for k in 1 10 100 0; do : >"$T/rs$k"; : >"$T/r$k"; : >"$T/c$k"; : >"$T/p50$k"; : >"$T/p99$k"; done
for _ in $(seq "$PAIRS"); do
	a=$(rb_rps 0)
	[ -n "$a" ] || { echo "redis-benchmark -k 0 gave no figure"; exit 1; }
	echo "$a" >>"$T/rb0"
	for k in 1 10 100 0; do
		set -- $(rs_rps $k)
		echo "$1" >>"$T/rs$k"
		echo "$2" >>"$T/c$k"
		echo "$3" >>"$T/p50$k"
		echo "$4" >>"$T/p99$k"
		echo "$a $1" | awk '{ print $2 / $1 }' >>"$T/r$k"
	done
	b=$(rb_rps 1)
	echo "$b" >>"$T/rb1"
	echo "$a $b" | awk '{ print $2 / $1 }' >>"$T/rrb1"
done
# pct FILE: the median of a column of figures, or "-" when it has none.
pct() { if grep -q '^-$' "$1"; then echo -; else median <"$1"; fi; }
printf '%-36s %12s %10s %18s %14s %14s\n' client "req/s" "ratio" "server connections" \
	"connect p50 ms" "connect p99 ms"
printf '%-36s %12.0f %10s %18s %14s %14s\n' "redis-benchmark -k 0" "$(median <"$T/rb0")" 1.00 "$N+" - -
for k in 1 10 100 0; do
	if [ "$k" = 0 ]; then what="rsweep (connections kept)"; else what="rsweep --reconnect-every $k"; fi
	printf '%-36s %12.0f %10.2f %18s %14s %14s\n' "$what" "$(median <"$T/rs$k")" "$(median <"$T/r$k")" \
		"$(median <"$T/c$k")" "$(pct "$T/p50$k")" "$(pct "$T/p99$k")"
done
printf '%-36s %12.0f %10.2f %18s %14s %14s\n' "redis-benchmark -k 1 (keep-alive)" "$(median <"$T/rb1")" \
	"$(median <"$T/rrb1")" 50 - -

[ -n "$TLSARGS" ] || { echo "# no openssl: no TLS figures"; exit 0; }
# tls K [--tls-resume]: req/s, connect p50 and p99 ms, connects, resumed.
tls() {
	k=$1
	shift
	"$RSWEEP" run -h 127.0.0.1 -p "$TPORT" --tls --insecure -c 50 -n "$N" -P 1 -t get \
		--reconnect-every "$k" "$@" --repeat 1 --force-flush -o "$T/t.csv" --overwrite -q \
		>/dev/null 2>"$T/rs.err" || { echo "rsweep failed: $(head -2 "$T/rs.err")" >&2; exit 1; }
	python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["rps"], r["connect_p50_ms"], r["connect_p99_ms"], r["connects"], r["tls_resumed"])' "$T/t.csv"
}
echo
echo "# the same over TLS (RSA 2048, self-signed, --insecure), one run each"
printf '%-44s %12s %10s %14s %14s %9s %8s\n' client "req/s" "ratio" "connect p50 ms" \
	"connect p99 ms" connects resumed
for k in 1 10; do
	set -- $(tls "$k")
	full=$1
	printf '%-44s %12.0f %10.2f %14s %14s %9s %8s\n' "rsweep --tls --reconnect-every $k" "$1" 1 "$2" \
		"$3" "$4" "$5"
	set -- $(tls "$k" --tls-resume)
	printf '%-44s %12.0f %10.2f %14s %14s %9s %8s\n' "rsweep --tls --reconnect-every $k --tls-resume" \
		"$1" "$(echo "$full $1" | awk '{ print $2 / $1 }')" "$2" "$3" "$4" "$5"
done
