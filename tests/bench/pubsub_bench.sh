#!/usr/bin/env bash
# pubsub_bench.sh: pub/sub with real subscribers (issue 47): messages
# delivered a second, with publish-to-delivery latency, at publish depths
# 1, 8 and 32 with 1 and 10 subscribers on one private server, and the
# CPU seconds of rsweep's subscriber threads (sub_cpu_s) beside the
# server's (server_s): which side bounded the deliveries.
#
#   tests/bench/pubsub_bench.sh [RSWEEP] [REQUESTS]
#
# Beside it, what the peers can say: redis-benchmark has no publish test
# with subscribers (redis #1186 turned a PUBLISH-only test down, Debian
# 12's 7.0 has none: `-t publish` runs nothing), memtier aborts on
# SUBSCRIBE (memtier #515): the script checks redis-benchmark and says so.
# Figures only; nothing passes or fails.  Runs once: on a shared machine
# the figures vary 10-30% from one run to the next.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
N=${2:-200000}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
redis-server --port 0 --unixsocket "$T/redis.sock" --unixsocketperm 700 --save '' \
	--appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$T"' EXIT
until redis-cli -s "$T/redis.sock" ping >/dev/null 2>&1; do sleep 0.05; done

echo "# pub/sub: -n $N, -c 50 publishers, UNIX socket, $(date -u +%Y-%m-%d), $(redis-server --version | cut -d' ' -f3)"
# 1 and 10 subscribers with one publishing loop and one reader thread;
# 10 again with --threads 2 (two of each).
for run in 1:1 10:1 10:2; do
	subs=${run%:*} th=${run#*:}
	"$RSWEEP" run -s "$T/redis.sock" -t publish --subscribers "$subs" --threads "$th" \
		-P 1,8,32 -n "$N" --repeat 1 --order sequential -q -o "$T/s$subs-$th.csv" \
		--overwrite >/dev/null 2>&1
done
printf '%-16s %3s %12s %12s %10s %5s %4s %8s %11s %11s %9s %9s\n' tool P published/s \
	delivered/s delivered lost dup p50_ms deliver_p50 deliver_p99 sub_cpu_s server_s
for run in 1:1 10:1 10:2; do
	subs=${run%:*} th=${run#*:}
	awk -F, -v name="rsweep/${subs}sub/${th}th" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%-16s %3s %12.0f %12.0f %10s %5s %4s %8.3f %11.3f %11.3f %9.3f %9.3f\n",
			name, $c["pipeline"], $c["rps"], $c["delivered_rps"], $c["delivered"],
			$c["lost"], $c["dup"], $c["p50_ms"], $c["deliver_p50_ms"],
			$c["deliver_p99_ms"], $c["sub_cpu_s"], $c["server_cpu_s"] }' "$T/s$subs-$th.csv"
done
# redis-benchmark: a publish test, if this one has any.
if out=$(redis-benchmark -s "$T/redis.sock" -t publish -n 1000 -q 2>&1) && [ -n "$out" ]; then
	echo "redis-benchmark -t publish: $out (no subscribers: PUBLISH's round trip only)"
else
	echo "redis-benchmark $(redis-benchmark --version | cut -d' ' -f2): no publish test" \
		"(-t publish runs nothing); it has no subscribers, so no delivered messages to compare"
fi
