#!/usr/bin/env bash
# sweep_bench.sh: the sweep driver's own cost, and fixed -n against fixed duration.
#
#   tests/bench/sweep_bench.sh [RSWEEP] [MAXDEPTH]
#
# 1. The seed's sweep (13 tests x depths 1..MAXDEPTH, -n 100000, no pause)
#    against one private server, side by side with the equivalent shell loop
#    (redis-benchmark -P $i -q; redis-cli flushall) in the same run: wall
#    times, and rsweep's time outside timed windows (flush, preparation,
#    INFO, fsync) per point and as a share of its wall time.
# 2. Stability: GET and SET at depths 1,4,16,64 with 5 repeats, fixed
#    -n 100000 against --duration 1: the coefficient of variation over the
#    repeats at each depth.
# Figures only; nothing passes or fails.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
MAXD=${2:-40}
TESTS=get,set,incr,lpush,rpush,lpop,rpop,sadd,spop,hset,zadd,zpopmin,mset
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
redis-server --port 0 --unixsocket "$T/redis.sock" --unixsocketperm 700 --save '' \
	--appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$T"' EXIT
until redis-cli -s "$T/redis.sock" ping >/dev/null 2>&1; do sleep 0.05; done
now() { date +%s.%N; }

echo "# seed sweep: 13 tests x depths 1..$MAXD, -n 100000, -c 50, UNIX socket, $(date -u +%Y-%m-%d)"
t0=$(now)
for i in $(seq 1 "$MAXD"); do
	redis-benchmark -s "$T/redis.sock" -t $TESTS -P "$i" -q >/dev/null 2>&1
	redis-cli -s "$T/redis.sock" flushall >/dev/null
done
t1=$(now)
"$RSWEEP" run -s "$T/redis.sock" -t $TESTS -P 1..$MAXD -n 100000 --repeat 1 \
	--order sequential --force-flush -q -o "$T/seed.csv" --overwrite >/dev/null 2>&1
t2=$(now)
# The article's sweep as rsweep ships it: its sweep file, the defaults
# (three repeats of each point, shuffled).
"$RSWEEP" run -s "$T/redis.sock" --sweep "$(dirname "$0")/../../sweeps/m1-article.sweep" \
	-P 1..$MAXD --force-flush -q -o "$T/m1.csv" --overwrite >/dev/null 2>&1
t3=$(now)
awk -F, -v loop="$(echo "$t1 - $t0" | bc)" -v wall="$(echo "$t2 - $t1" | bc)" \
	-v m1="$(echo "$t3 - $t2" | bc)" -v maxd="$MAXD" -v m1n="$(($(wc -l <"$T/m1.csv") - 1))" '
	NR > 1 { timed += $7; n++ }
	END {
		out = wall - timed
		printf "shell loop wall         %8.1f s  (%.1f s with the article'"'"'s sleep 1)\n", loop,
		       loop + maxd
		printf "rsweep wall, 1 pass     %8.1f s  (%.2fx the loop)\n", wall, wall / loop
		printf "rsweep --sweep m1-article %6.1f s  (%.2fx the loop, %.2fx with its sleep;\n", m1,
		       m1 / loop, m1 / (loop + maxd)
		printf "                                   3 repeats, shuffled, %d points)\n", m1n
		printf "rsweep timed windows    %8.1f s over %d points\n", timed, n
		printf "outside timed windows   %8.1f s = %.1f%% of wall, %.1f ms per point\n",
			out, 100 * out / wall, 1000 * out / n
	}' "$T/seed.csv"

echo
echo "# stability: coefficient of variation over 5 repeats (shuffled order)"
"$RSWEEP" run -s "$T/redis.sock" -t get,set -P 1,4,16,64 --repeat 5 --order shuffled \
	-n 100000 --force-flush -q -o "$T/n.csv" --overwrite >/dev/null 2>&1
"$RSWEEP" run -s "$T/redis.sock" -t get,set -P 1,4,16,64 --repeat 5 --order shuffled \
	--duration 1 --force-flush -q -o "$T/d.csv" --overwrite >/dev/null 2>&1
cv() {  # file -> "TEST P cv mean_seconds"
	awk -F, 'NR > 1 { k = $2 " " $3; s[k] += $8; q[k] += $8 * $8; n[k]++; t[k] += $7 }
		 END { for (k in s) { m = s[k] / n[k]; v = (q[k] - n[k] * m * m) / (n[k] - 1);
			printf "%s %.4f %.3f\n", k, (v > 0 ? sqrt(v) : 0) / m, t[k] / n[k] } }' "$1" | sort -k1,1 -k2n
}
cv "$T/n.csv" >"$T/n.cv"
cv "$T/d.csv" >"$T/d.cv"
printf '%-5s %4s  %16s %10s  %16s %10s\n' test P "CV -n 100000" "seconds" "CV --duration 1" seconds
join -j1 <(awk '{ print $1 "_" $2, $3, $4 }' "$T/n.cv" | sort) \
	<(awk '{ print $1 "_" $2, $3, $4 }' "$T/d.cv" | sort) 2>/dev/null |
	sort -t_ -k1,1 -k2n | awk '{ split($1, a, "_"); printf "%-5s %4s  %15.1f%% %10.3f  %15.1f%% %10.3f\n", a[1], a[2], 100 * $2, $3, 100 * $4, $5 }'
