#!/bin/sh
# tls_bench.sh: rsweep's load engine over TLS side by side with
# redis-benchmark --tls, as engine_bench.sh does for UNIX socket and TCP.
#
#   tests/bench/tls_bench.sh [RSWEEP] [PAIRS]
#
# One private redis-server, TLS only on a free 127.0.0.1 port, with a
# throwaway certificate made here with `openssl req` (EC P-256, for
# IP:127.0.0.1 and DNS:localhost, one day), which both clients verify.
# 1. Throughput: GET and SET at P=1 and P=16, -c 50: interleaved pairs
#    (redis-benchmark, rsweep, redis-benchmark, rsweep, ...) and the median
#    of the per-pair ratios rsweep/redis-benchmark.  Ratios from one run,
#    because this machine is shared and absolute figures drift.  The
#    handshakes are outside both tools' timed windows.
# 2. Client cost: user-space instructions per request under callgrind, GET
#    over TLS, -c 10: (Ir at -n 60000 - Ir at -n 10000) / 50000, so
#    start-up, the handshakes and preparation cancel out.
# PAIRS=0 skips part 1.  It needs an rsweep with --tls and --cacert (issue
# 16's TLS client), and says so when the one given has none.
# It prints figures; it does not pass or fail.  Bounded: -n per point,
# PAIRS x 2 x 2 x 2 runs, then 8 runs under callgrind; a few minutes.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PAIRS=${2:-${PAIRS:-5}}
N=${N:-100000}
command -v redis-benchmark >/dev/null || { echo "needs redis-benchmark (redis-tools)"; exit 1; }
command -v openssl >/dev/null || { echo "needs the openssl program (openssl) for the certificate"; exit 1; }
redis-benchmark --help 2>&1 | grep -q -- --tls ||
	{ echo "this redis-benchmark has no --tls: it was built without TLS"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-tlsbench.XXXXXX")
SRV=
trap '[ -n "$SRV" ] && { kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; }; rm -rf "$T"' EXIT
CA=$T/cert.pem
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
	-subj "/O=rsweep/CN=rsweep tls_bench 127.0.0.1" \
	-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
	-addext "basicConstraints=critical,CA:TRUE" \
	-keyout "$T/key.pem" -out "$CA" >/dev/null 2>&1 || { echo "openssl req failed"; exit 1; }
chmod 600 "$T/key.pem"
# Before starting anything: an rsweep without the TLS client cannot run this.
if ! "$RSWEEP" run --tls --cacert "$CA" -h 127.0.0.1 -p 6379 -t get -n 1 --dry-run \
	>/dev/null 2>"$T/probe"; then
	echo "$RSWEEP cannot run --tls --cacert CA -h 127.0.0.1 -p PORT: $(head -1 "$T/probe")"
	echo "(it needs the TLS client of issue 16; build an rsweep that has it)"
	exit 1
fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port 0 --tls-port "$PORT" --bind 127.0.0.1 --tls-cert-file "$CA" \
	--tls-key-file "$T/key.pem" --tls-ca-cert-file "$CA" --tls-auth-clients no \
	--save '' --appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" &
SRV=$!
TLS="--tls --cacert $CA -h 127.0.0.1 -p $PORT"
# Polled, at most 10 s: a server that does not come up ends the benchmark.
i=0
# shellcheck disable=SC2086 # $TLS is several words on purpose
until redis-cli $TLS ping 2>/dev/null | grep -q PONG; do
	i=$((i + 1))
	[ $i -lt 200 ] || { echo "the TLS server did not start: $(tail -2 "$T/redis.log")"; exit 1; }
	sleep 0.05
done

# shellcheck disable=SC2086
rb_rps() {  # test P
	redis-benchmark $TLS -c 50 -n "$N" -P "$2" -t "$1" --csv 2>/dev/null |
		awk -F'"' 'NR == 2 { print $4 }'
}
# shellcheck disable=SC2086
rs_rps() {
	"$RSWEEP" run $TLS -c 50 -n "$N" -P "$2" -t "$1" --repeat 1 --force-flush -o "$T/p.csv" --overwrite -q \
		>/dev/null 2>"$T/rs.err" || { echo "rsweep failed: $(head -2 "$T/rs.err")" >&2; exit 1; }
	python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["rps"], float(r["server_cpu_s"]) / float(r["seconds"]))' "$T/p.csv"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [ "$PAIRS" -gt 0 ]; then
echo "# TLS throughput, -c 50 -n $N, $PAIRS interleaved pairs, $(date -u +%Y-%m-%d), $(nproc) cores," \
	"$(redis-server --version | sed 's/ sha=.*//'), $(openssl version | cut -d' ' -f1-2)"
# "server busy": the server's CPU seconds per second during rsweep's point
# (INFO cpu delta): near 1.0 the server, not the client, is the limit.
printf '%-4s %4s  %14s %14s %7s %12s\n' test P redis-benchmark rsweep ratio "server busy"
for t in get set; do
	for P in 1 16; do
		: >"$T/a"; : >"$T/b"; : >"$T/r"; : >"$T/c"
		for _ in $(seq "$PAIRS"); do
			a=$(rb_rps $t $P)
			[ -n "$a" ] || { echo "redis-benchmark --tls gave no figure"; exit 1; }
			set -- $(rs_rps $t $P); b=$1
			echo "$a" >>"$T/a"; echo "$b" >>"$T/b"; echo "$2" >>"$T/c"
			echo "$a $b" | awk '{ print $2 / $1 }' >>"$T/r"
		done
		printf '%-4s %4s  %14.0f %14.0f %7.2f %12.2f\n' $t $P "$(median <"$T/a")" \
			"$(median <"$T/b")" "$(median <"$T/r")" "$(median <"$T/c")"
	done
done
fi

if command -v valgrind >/dev/null; then
	# shellcheck disable=SC2086
	ir() {  # tool n P
		if [ "$1" = rb ]; then
			valgrind --tool=callgrind --callgrind-out-file=/dev/null redis-benchmark \
				$TLS -c 10 -n "$2" -P "$3" -t get -q >/dev/null 2>"$T/vg" || true
		else
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$RSWEEP" run \
				$TLS -c 10 -n "$2" -P "$3" -t get --repeat 1 --force-flush -q \
				>/dev/null 2>"$T/vg" || true
		fi
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$T/vg" | grep . ||
			{ echo "$1 under callgrind failed: $(tail -2 "$T/vg")" >&2; exit 1; }
	}
	echo
	echo "# client cost over TLS: instructions per request (callgrind), GET, -c 10, $RSWEEP"
	printf '%4s  %16s %10s %7s\n' P redis-benchmark rsweep ratio
	for P in 1 16; do
		a=$(( ($(ir rb 60000 $P) - $(ir rb 10000 $P)) / 50000 ))
		b=$(( ($(ir rs 60000 $P) - $(ir rs 10000 $P)) / 50000 ))
		printf '%4s  %16s %10s %7.2f\n' $P $a $b "$(echo "$a $b" | awk '{ print $2 / $1 }')"
	done
fi
