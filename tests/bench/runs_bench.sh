#!/bin/sh
# runs_bench.sh: how to spend a machine's time on a comparison that cannot
# be interleaved (two machines), and whether the run-level intervals keep
# their promise (issue 33).
#
#   tests/bench/runs_bench.sh [RSWEEP]
#
# Three ways to spend about the same time on GET, SET and LPUSH at P=1..40:
#   one   --runs 1 --repeat 3 -n N      (one run, rsweep's default)
#   runs  --runs 3 --repeat 1 -n N      (three runs of one repeat)
#   short --runs 3 --repeat 3 -n N/3    (three runs, shorter points)
# each measured for three labels one after another, as two machines would
# be: a and b from one binary (an A/A: any faster or slower is false), and
# aof with --appendonly yes (SET and LPUSH pay for the log: slower).  For
# each way: the seconds each label took, then a against b and aof against
# a at the peaks, ratio, 95% interval and verdict, from rsweep report.
#
# It prints figures; it does not pass or fail.  Bounded: 9 sweeps of a
# fixed plan, about 12 minutes on a quiet 2-core machine (BENCH_N=100000).
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
N=${BENCH_N:-100000}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-runs.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

now() { date +%s.%N; }

# sweep WAY LABEL [ARGS...]: one label's sweep, its seconds printed.
sweep() {
	way=$1 label=$2
	shift 2
	case $way in
	one) opts="--runs 1 --repeat 3 -n $N" ;;
	runs) opts="--runs 3 --repeat 1 -n $N" ;;
	short) opts="--runs 3 --repeat 3 -n $((N / 3))" ;;
	esac
	t0=$(now)
	# shellcheck disable=SC2086
	"$RSWEEP" run --spawn "$@" -t get,set,lpush -P 1..40 $opts -q -l "$label" \
		-o "$T/$way-$label.csv" >/dev/null 2>"$T/err" || { cat "$T/err"; exit 1; }
	printf '  %-6s %-4s %5.0f s\n' "$way" "$label" "$(echo "$(now) - $t0" | bc)"
}

# peaks WAY BASE OTHER: the peak ratios of OTHER against BASE.
peaks() {
	"$RSWEEP" report "$T/$1-$2.csv" "$T/$1-$3.csv" --format json -o "$T/r.json"
	python3 - "$T/r.json" "$1" "$3" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["comparisons"]:
    p = c["at_peak"]
    print("  %-6s %-4s vs %-4s %-6s %5.2fx (%5.2fx..%5.2fx) %-11s runs %d/%d" % (
        sys.argv[2], sys.argv[3], sys.argv[4], c["test"], p["ratio"], p["ratio_lo"],
        p["ratio_hi"], p["verdict"], c["runs"], c["runs_baseline"]))
PY
}

echo "rsweep $("$RSWEEP" --version | head -1), $(redis-server --version | cut -d' ' -f1-3), -n $N"
echo "seconds a label took:"
for way in one runs short; do
	sweep $way a
	sweep $way b
	sweep $way aof --spawn-args '--appendonly yes'
done
echo "peak ratios (A/A: a vs b; the log: aof vs a):"
for way in one runs short; do
	peaks $way a b
	peaks $way a aof
done
