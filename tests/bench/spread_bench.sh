#!/bin/sh
# spread_bench.sh: is rsweep's point-to-point spread ever wider than
# redis-benchmark's on the same server?
#
#   tests/bench/spread_bench.sh [RSWEEP] [PAIRS]
#
# Against one private redis-server on a UNIX socket: GET, -c 50, -n $N
# (600000), at P=16 and P=40, PAIRS (20) interleaved single points
# (redis-benchmark, rsweep, redis-benchmark, rsweep, ...).  For each side it
# prints the median, the range and the coefficient of variation over the
# pairs, and the server's CPU per request during rsweep's points (INFO cpu
# delta, from the CSV) so that a wide spread can be told apart as the
# server's own.  The goal: rsweep's CV at most the larger of 1.2 x
# redis-benchmark's and 3%.  It prints figures; it does not pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PAIRS=${2:-20}
N=${N:-600000}
command -v redis-benchmark >/dev/null || { echo "needs redis-benchmark (redis-tools)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
redis-server --port 0 --unixsocket "$T/redis.sock" --unixsocketperm 700 \
	--save '' --appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$T"' EXIT
until redis-cli -s "$T/redis.sock" ping >/dev/null 2>&1; do sleep 0.05; done
rb_rps() {  # P
	# GET reads a key that exists for both: without -r redis-benchmark's is
	# the one key "key:__rand_int__", which rsweep prepares for its points
	# (and removes again when it leaves).
	redis-cli -s "$T/redis.sock" set key:__rand_int__ xxx >/dev/null
	redis-benchmark -s "$T/redis.sock" -c 50 -n "$N" -P "$1" -t get --csv 2>/dev/null |
		awk -F'"' 'NR == 2 { print $4 }'
}
rs_rps() {  # P: rps and server ns per request
	"$RSWEEP" run -s "$T/redis.sock" -c 50 -n "$N" -P "$1" -t get --repeat 1 --force-flush \
		-o "$T/p.csv" --overwrite -q >/dev/null 2>&1 && python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["rps"], 1e9 * float(r["server_cpu_s"]) / float(r["requests"]))' "$T/p.csv"
}
stats() {  # file -> median min max cv%
	sort -g "$1" | awk '{ v[NR] = $1; s += $1; q += $1 * $1 }
		END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      mean = s / NR; sd = sqrt((q - NR * mean * mean) / (NR - 1))
		      printf "%.0f %.0f %.0f %.1f\n", m, v[1], v[NR], 100 * sd / mean }'
}

echo "# spread of single points, GET -c 50 -n $N, UNIX socket, $PAIRS interleaved pairs,"
echo "# $(date -u +%Y-%m-%d), $(nproc) cores, $(redis-server --version | sed 's/.*v=\([^ ]*\).*/redis \1/')"
printf '%4s  %-16s %10s %10s %10s %6s   %s\n' P client median min max "CV%" "server ns/request (median, range)"
for P in 16 40; do
	: >"$T/a"; : >"$T/b"; : >"$T/c"
	for _ in $(seq "$PAIRS"); do
		rb_rps "$P" >>"$T/a"
		set -- $(rs_rps "$P")
		echo "$1" >>"$T/b"; echo "$2" >>"$T/c"
	done
	set -- $(stats "$T/a"); printf '%4s  %-16s %10s %10s %10s %6s\n' "$P" redis-benchmark "$@"
	cva=$4
	set -- $(stats "$T/b"); cvb=$4
	set -- "$@" $(stats "$T/c")
	printf '%4s  %-16s %10s %10s %10s %6s   %s (%s-%s)\n' "$P" rsweep "$1" "$2" "$3" "$4" "$5" "$6" "$7"
	echo "$cva $cvb" | awk -v P="$P" '{ goal = 1.2 * $1 > 3 ? 1.2 * $1 : 3
		printf "      P=%s: rsweep CV / redis-benchmark CV = %.2f; goal CV <= %.1f%%: %s\n",
		       P, $2 / $1, goal, $2 <= goal ? "met" : "missed" }'
done
