#!/bin/sh
# replica_bench.sh: GET from a spawned primary, from its replicas, and
# from both (issue 47), side by side, as ratios to the primary alone.
#
#   tests/bench/replica_bench.sh [RSWEEP]
#
# Four runs of one redis-server binary on 127.0.0.1 TCP ports
# (--spawn --spawn-tcp), -t get at P=1 and P=16, -c 10 -n N (20000),
# REPEAT (3) repeats each: --read-from masters with one replica spawned
# (the replica idle), replicas with one and with two replicas (each
# replica -c connections and an equal share of -n: twice the connections
# with two), and all with two (the primary as one more replica).  Prints
# each run's median rps per depth and its ratio to the first run, and the
# largest replication lag the rows give.  It prints figures; it does not
# pass or fail.  On a machine of few cores the replicas compete with the
# primary and the load generator for CPU: read the ratios, not the rates.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
N=${N:-20000}
REPEAT=${REPEAT:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-replica.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "# $(date -u +%Y-%m-%d), $(nproc) cores, $(redis-server --version | sed 's/ sha=.*//')," \
	"-t get -P 1,16 -c 10 -n $N --repeat $REPEAT"
run() {
	"$RSWEEP" run --spawn --spawn-tcp --spawn-replicas "$2" --read-from "$3" -t get -P 1,16 \
		-c 10 -n "$N" --repeat "$REPEAT" --timeout 10 -q -l "$1" -o "$T/$1.csv" >/dev/null
}
run masters-1r 1 masters
run replicas-1r 1 replicas
run replicas-2r 2 replicas
run all-2r 2 all
python3 - "$T" masters-1r replicas-1r replicas-2r all-2r <<'PY'
import csv, statistics, sys
d, labels = sys.argv[1], sys.argv[2:]
med, lag = {}, {}
for l in labels:
    rows = list(csv.DictReader(open("%s/%s.csv" % (d, l))))
    for p in sorted({int(r["pipeline"]) for r in rows}):
        med[l, p] = statistics.median(float(r["rps"]) for r in rows if int(r["pipeline"]) == p)
    lag[l] = max((int(r["repl_lag"]) for r in rows if r["repl_lag"]), default=-1)
depths = sorted({p for (_, p) in med})
print("%-12s" % "run" + "".join("%14s %6s" % ("P=%d rps" % p, "ratio") for p in depths) +
      "  max repl_lag")
for l in labels:
    print("%-12s" % l + "".join("%14.0f %6.2f" % (med[l, p], med[l, p] / med[labels[0], p])
                                for p in depths) + "  %d" % lag[l])
PY
