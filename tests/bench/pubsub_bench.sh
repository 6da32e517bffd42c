#!/usr/bin/env bash
# pubsub_bench.sh: pub/sub with real subscribers (issue 47): messages
# delivered a second, with publish-to-delivery latency, at publish depths
# 1, 8 and 32 with 1 and 10 subscribers on one private server.
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
for subs in 1 10; do
	"$RSWEEP" run -s "$T/redis.sock" -t publish --subscribers "$subs" -P 1,8,32 -n "$N" \
		--repeat 1 --order sequential -q -o "$T/s$subs.csv" --overwrite >/dev/null 2>&1
done
printf '%-12s %3s %12s %14s %10s %6s %5s %10s %10s %9s\n' tool P published/s delivered/s \
	delivered lost dup p50_ms deliver_p50 deliver_p99
for subs in 1 10; do
	awk -F, -v subs="$subs" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%-12s %3s %12.0f %14.0f %10s %6s %5s %10.3f %10.3f %9.3f\n",
			"rsweep/" subs "sub", $c["pipeline"], $c["rps"], $c["delivered_rps"],
			$c["delivered"], $c["lost"], $c["dup"], $c["p50_ms"],
			$c["deliver_p50_ms"], $c["deliver_p99_ms"] }' "$T/s$subs.csv"
done
# redis-benchmark: a publish test, if this one has any.
if out=$(redis-benchmark -s "$T/redis.sock" -t publish -n 1000 -q 2>&1) && [ -n "$out" ]; then
	echo "redis-benchmark -t publish: $out (no subscribers: PUBLISH's round trip only)"
else
	echo "redis-benchmark $(redis-benchmark --version | cut -d' ' -f2): no publish test" \
		"(-t publish runs nothing); it has no subscribers, so no delivered messages to compare"
fi
