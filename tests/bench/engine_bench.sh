#!/bin/sh
# engine_bench.sh: rsweep's load engine side by side with redis-benchmark.
#
#   tests/bench/engine_bench.sh [RSWEEP] [PAIRS]
#
# 1. Throughput: against one private redis-server (UNIX socket and TCP
#    loopback), GET and SET at P=1, 4, 16, -c 50: interleaved pairs
#    (redis-benchmark, rsweep, redis-benchmark, rsweep, ...) and the median
#    of the per-pair ratios rsweep/redis-benchmark.  Ratios from one run,
#    because this machine is shared and absolute figures drift.
# 2. Client cost: user-space instructions per request under callgrind, GET
#    over the UNIX socket, -c 10: (Ir at -n 60000 - Ir at -n 10000) / 50000,
#    so start-up and preparation cancel out.
#    REPS=N (default 1) measures each figure N times and gives the
#    median: how many replies a read brings varies from run to run, and so
#    does the count, a little (0.1 in 687 here).  BASE=OTHER_RSWEEP puts
#    another build beside it (e.g. one of the commit before a change to the
#    engine: its budget is 1%), and RB=0 leaves redis-benchmark out.
#    ARGS="..." adds options to rsweep's runs (and BASE's), e.g.
#    ARGS="--no-prepare -r 1000000 --key-dist zipf" for the cost of a key
#    distribution (--no-prepare: GET's preparation grows with -n under -r,
#    and would not cancel out).
# PAIRS=0 skips part 1.  The cost is that of the event loop the binary
# was built with (./configure --with-event-loop=...).
# It prints figures; it does not pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PAIRS=${2:-${PAIRS:-5}}
N=${N:-200000}
command -v redis-benchmark >/dev/null || { echo "needs redis-benchmark (redis-tools)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$PORT" --bind 127.0.0.1 --unixsocket "$T/redis.sock" --unixsocketperm 700 \
	--save '' --appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$T"' EXIT
until redis-cli -s "$T/redis.sock" ping >/dev/null 2>&1; do sleep 0.05; done

rb_rps() {  # transport test P
	if [ "$1" = unix ]; then a="-s $T/redis.sock"; else a="-h 127.0.0.1 -p $PORT"; fi
	redis-benchmark $a -c 50 -n "$N" -P "$3" -t "$2" --csv 2>/dev/null |
		awk -F'"' 'NR == 2 { print $4 }'
}
rs_rps() {
	if [ "$1" = unix ]; then a="-s $T/redis.sock"; else a="-h 127.0.0.1 -p $PORT"; fi
	"$RSWEEP" run $a -c 50 -n "$N" -P "$3" -t "$2" --repeat 1 --force-flush -o "$T/p.csv" --overwrite -q \
		>/dev/null 2>&1 && python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["rps"], float(r["server_cpu_s"]) / float(r["seconds"]))' "$T/p.csv"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# PAIRS=0: the client cost only (body not indented, to keep diffs small).
if [ "$PAIRS" -gt 0 ]; then
echo "# throughput, -c 50 -n $N, $PAIRS interleaved pairs, $(date -u +%Y-%m-%d), $(nproc) cores"
# "server busy": the server's CPU seconds per second during rsweep's point
# (INFO cpu delta): near 1.0 the server, not the client, is the limit.
printf '%-5s %-4s %4s  %14s %14s %7s %12s\n' via test P redis-benchmark rsweep ratio "server busy"
for via in unix tcp; do
	for t in get set; do
		for P in 1 4 16; do
			: >"$T/a"; : >"$T/b"; : >"$T/r"; : >"$T/c"
			for _ in $(seq "$PAIRS"); do
				a=$(rb_rps $via $t $P); set -- $(rs_rps $via $t $P); b=$1
				echo "$a" >>"$T/a"; echo "$b" >>"$T/b"; echo "$2" >>"$T/c"
				echo "$a $b" | awk '{ print $2 / $1 }' >>"$T/r"
			done
			printf '%-5s %-4s %4s  %14.0f %14.0f %7.2f %12.2f\n' $via $t $P "$(median <"$T/a")" \
				"$(median <"$T/b")" "$(median <"$T/r")" "$(median <"$T/c")"
		done
	done
done
fi

if command -v valgrind >/dev/null; then
	REPS=${REPS:-1}
	BASE=${BASE:-}
	RB=${RB:-1}
	ir() {  # binary n P
		if [ "$1" = rb ]; then
			valgrind --tool=callgrind --callgrind-out-file=/dev/null redis-benchmark \
				-s "$T/redis.sock" -c 10 -n "$2" -P "$3" -t get -q >/dev/null 2>"$T/vg" || true
		else
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" run \
				-s "$T/redis.sock" -c 10 -n "$2" -P "$3" -t get --repeat 1 --force-flush -q \
				${ARGS:-} >/dev/null 2>"$T/vg" || true
		fi
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$T/vg"
	}
	per_req() {  # binary P: the median over REPS of the instructions per request
		for _ in $(seq "$REPS"); do
			echo "$(ir "$1" 60000 "$2") $(ir "$1" 10000 "$2")" |
				awk '{ printf "%.1f\n", ($1 - $2) / 50000 }'
		done | median
	}
	echo
	echo "# client cost: instructions per request (callgrind), GET over UNIX socket, -c 10," \
		"median of $REPS"
	[ -z "$BASE" ] || echo "# base: $BASE"
	echo "# rsweep: $RSWEEP${ARGS:+ $ARGS}"
	printf '%4s  %16s %10s %10s %7s\n' P redis-benchmark base rsweep ratio
	for P in 1 16; do
		a=-; [ "$RB" = 0 ] || a=$(per_req rb $P)
		b=-; [ -z "$BASE" ] || b=$(per_req "$BASE" $P)
		c=$(per_req "$RSWEEP" $P)
		# The ratio is to the base when there is one, else to redis-benchmark.
		printf '%4s  %16s %10s %10s %7s\n' $P "$a" "$b" "$c" \
			"$(echo "$a $b $c" | awk '{ d = $2 != "-" ? $2 : $1
				print d == "-" ? "-" : sprintf("%.4f", $3 / d) }')"
	done
fi
