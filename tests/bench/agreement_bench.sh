#!/bin/sh
# agreement_bench.sh: do the defaults give saturation intervals that agree
# from run to run?
#
#   tests/bench/agreement_bench.sh [RSWEEP] [RUNS] [-- RUN ARGUMENTS]
#
# Runs `rsweep run --spawn -t get,set,lpush -P 1..40` (the defaults: three
# repeats, shuffled) RUNS (3) times, each against its own spawned server,
# and prints for each test every run's saturation depth with its 95%
# interval, its peak with its interval, and whether the runs' intervals
# share a depth (the largest lower bound at most the smallest upper one),
# and whether the report's saturation call (not saturated; saturated;
# saturated and falling after its peak) is the same in every run (issue
# 41: a fall made by the deepest unstable points alone flipped it); then
# each run's wall time.  Other arguments after -- replace the
# default sweep's.  It prints figures; it does not pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
RUNS=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || set -- -t get,set,lpush -P 1..40

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "rsweep run --spawn $*, $RUNS runs"
for i in $(seq 1 "$RUNS"); do
	s=$(date +%s.%N)
	"$RSWEEP" run --spawn "$@" -l "run$i" -q -o "$T/r$i.csv" >/dev/null 2>"$T/e$i" ||
		{ cat "$T/e$i"; exit 1; }
	e=$(date +%s.%N)
	echo "run$i $s $e" >>"$T/times"
	"$RSWEEP" report --format csv "$T/r$i.csv" -o "$T/rep$i.csv"
done
# One line per run and test: test run sat lo hi saturated peak peak_lo peak_hi
# fit_status
for i in $(seq 1 "$RUNS"); do
	awk -F, -v OFS='\t' -v run="$i" 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		{ print $c["test"], run, $c["saturation_depth"], $c["saturation_lo"],
			$c["saturation_hi"], $c["saturated"], $c["peak_rps"], $c["peak_rps_lo"],
			$c["peak_rps_hi"], $c["fit_status"] }' "$T/rep$i.csv"
done | sort -t "$(printf '\t')" -k1,1 -k2,2n >"$T/all"
printf '%-8s %-4s %-22s %-30s\n' test run "saturation P (95%)" "peak rps (95%)"
awk -F '\t' '{ hi = $5 == "" ? "-" : $5
       printf "%-8s %-4s %-22s %-30s\n", $1, $2,
	      ($6 == "no" ? "not saturated (" $4 "..)" : $3 " (" $4 ".." hi ")"),
	      sprintf("%.0f (%.0f..%.0f)", $7, $8, $9)
       t = $1
       if (!(t in lo) || $4 > lo[t]) lo[t] = $4
       h = $5 == "" ? 1e9 : $5
       if (!(t in up) || h < up[t]) up[t] = h
       if (!(t in plo) || $8 > plo[t]) plo[t] = $8
       if (!(t in pup) || $9 < pup[t]) pup[t] = $9
       call = $6 == "no" ? "not saturated" : $10 == "falls" ? "falls" : "saturated"
       calls[t] = calls[t] (ncall[t]++ ? "," : "") call
       if (!(t in first)) first[t] = call
       else if (call != first[t]) differ[t] = 1 }
     END { for (t in lo)
		printf "%-8s saturation intervals %s; peak intervals %s; calls %s (%s)\n", t,
		       lo[t] <= up[t] ? "agree (share P=" lo[t] ")" : "disagree",
		       plo[t] <= pup[t] ? "overlap" : "do not overlap",
		       (t in differ) ? "differ" : "agree", calls[t] }' "$T/all"
awk '{ printf "%s: %.1f s\n", $1, $3 - $2 }' "$T/times"
