#!/bin/sh
# transport_bench.sh: the README's transport figure, one binary over a
# UNIX socket, TCP and TLS, in one command.
#
#   tests/bench/transport_bench.sh [RSWEEP]
#
# One rsweep run, three private servers of one redis-server binary:
# --target unix=spawn: --target tcp=spawn+tcp: --target tls=spawn+tls:
# (TLS with a throwaway certificate rsweep makes and verifies), GET and SET
# at every depth 1..40, interleaved (each point on the three targets back
# to back, in turn forwards and backwards).  Then the chart (rps against
# depth, one line per transport; transport.png in the current directory,
# or $OUT, and its CSV beside it), rsweep report's prose, and where each
# series saturates: the first depth reaching 95% of its peak, with its
# interval.
# It needs an rsweep with the TLS client (issue 16), and says so when the
# one given has none.  It prints figures; it does not pass or fail.
# Bounded: 3 targets x 2 tests x 40 depths x REPEAT (3) points of -n N
# (20000) requests, --timeout 10 each; about 5 minutes on a quiet 2-core
# machine.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
N=${N:-20000}
REPEAT=${REPEAT:-3}
OUT=${OUT:-transport.png}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-transport.XXXXXX")
trap 'rm -rf "$T"' EXIT

# Before starting anything: an rsweep without the TLS client cannot run
# the tls target (it refuses it once the server is up: nothing measured).
if ! "$RSWEEP" run --tls -h 127.0.0.1 -p 6379 -t get -n 1 --dry-run >/dev/null 2>"$T/probe"; then
	echo "$RSWEEP has no TLS client: $(head -1 "$T/probe")"
	echo "(spawn+tls: needs the TLS client of issue 16; build an rsweep that has it)"
	exit 1
fi

echo "# $(date -u +%Y-%m-%d), $(nproc) cores, $(redis-server --version | sed 's/ sha=.*//')," \
	"-t get,set -P 1..40 -n $N --repeat $REPEAT"
"$RSWEEP" run --target unix=spawn: --target tcp=spawn+tcp: --target tls=spawn+tls: \
	-t get,set -P 1..40 --repeat "$REPEAT" -n "$N" --timeout 10 -q -o "$T/transport.csv"
"$RSWEEP" plot "$T/transport.csv" --kind multiples \
	--title "one redis-server over UNIX socket, TCP and TLS" -o "$OUT" && echo "chart: $OUT"
cp "$T/transport.csv" "${OUT%.png}.csv" && echo "rows: ${OUT%.png}.csv"
echo
"$RSWEEP" report --prose "$T/transport.csv"
echo
echo "# where each saturates (first depth at 95% of the peak; 95% interval)"
"$RSWEEP" report --format csv "$T/transport.csv" -o "$T/rep.csv"
python3 -c 'import csv, sys
print("%-6s %-4s %12s %5s  %-14s %s" % ("target", "test", "peak rps", "at P", "saturation P", "interval"))
for r in csv.DictReader(open(sys.argv[1])):
    sat = "not by P=40" if r["saturated"] == "no" else r["saturation_depth"]
    iv = "%s..%s" % (r["saturation_lo"], r["saturation_hi"]) if r["saturation_lo"] else ""
    print("%-6s %-4s %12.0f %5s  %-14s %s" % (r["label"], r["test"], float(r["peak_rps"]),
                                              r["peak_depth"], sat, iv))' "$T/rep.csv"
