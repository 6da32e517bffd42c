#!/bin/sh
# memtier_import_bench.sh: what `rsweep import` of a JSON Lines file of
# memtier documents (rsweep export --format memtier-json's, one point a
# line) costs as the documents grow: wall time for each count.
#
#   RSWEEP=src/rsweep sh tests/bench/memtier_import_bench.sh [COUNT...]
#
# Default counts: 1000 4000 16000 100000.  Each document is a point of
# its own (label L<k>, depth 1..50), one run, as a one-row point exports.
# Figures only; nothing passes or fails.
set -eu
RSWEEP=${RSWEEP:-src/rsweep}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-mtbench.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ $# -gt 0 ] || set -- 1000 4000 16000 100000

# gen N: N one-line memtier documents.
gen() {
	awk -v n="$1" 'BEGIN {
		for (k = 0; k < n; k++) {
			p = k % 50 + 1
			printf "{\"configuration\":{\"label\":\"L%d\",\"test\":\"GET\",\"client\":\"rsweep\",", int(k / 50)
			printf "\"run_count\":1,\"clients\":50,\"threads\":1,\"ratio\":\"0:1\",\"pipeline\":%d,", p
			printf "\"data_size\":3},\"run information\":{\"Threads\":1,\"Format version\":2},"
			printf "\"ALL STATS\":{\"Runtime\":{\"Total duration\":100,\"Time unit\":\"MILLISECONDS\"},"
			printf "\"Gets\":{\"Count\":50000,\"Ops/sec\":%.2f,\"Average Latency\":0.300,", 100000 + p * 1000
			printf "\"Max Latency\":1.000,\"Percentile Latencies\":{\"p50.00\":0.290,\"p99.00\":0.500}},"
			printf "\"Totals\":{\"Count\":50000,\"Ops/sec\":%.2f}}}\n", 100000 + p * 1000
		}
	}' >"$T/in.jsonl"
}

for n in "$@"; do
	gen "$n"
	start=$(date +%s.%N)
	"$RSWEEP" import -q --from memtier -o "$T/out.csv" --overwrite "$T/in.jsonl"
	end=$(date +%s.%N)
	printf '%7d documents: %.2f s, %d rows\n' "$n" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
		"$(($(wc -l <"$T/out.csv") - 1))"
done
