#!/bin/sh
# precision_bench.sh: does --precision reach a precision with fewer points
# than uniform repeats do?
#
#   tests/bench/precision_bench.sh [RSWEEP] [PERCENT] [K...]
#
# Sweeps -t get,set,lpush -P 1..40 against one spawned server per sweep:
# once with --precision PERCENT (3) --max-repeats 12, then with uniform
# --repeat K for each K (3 6 10), and prints for each: the points measured,
# the wall time, and the precision the report gives, as the median over
# the three tests of the peak's 95% interval (half-width, % of the peak)
# and of the saturation interval's width in depths.  Read the table for the
# uniform K whose precision matches --precision's, and compare points.
# It prints figures; it does not pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PCT=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- 3 6 10
SWEEP=${SWEEP:-"-t get,set,lpush -P 1..40"}

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
# one NAME ARGS...: a sweep into $T/NAME.csv, then its line of the table.
one() {
	name=$1
	shift
	s=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$RSWEEP" run --spawn $SWEEP "$@" -l "$name" -q -o "$T/$name.csv" >/dev/null 2>"$T/$name.err" ||
		{ cat "$T/$name.err"; exit 1; }
	e=$(date +%s.%N)
	"$RSWEEP" report --format csv "$T/$name.csv" -o "$T/$name.rep"
	points=$(($(wc -l <"$T/$name.csv") - 1))
	awk -F, -v name="$name" -v points="$points" -v secs="$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')" '
		function median(v, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
		NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		{ n++; pk[n] = 50 * ($c["peak_rps_hi"] - $c["peak_rps_lo"]) / $c["peak_rps"]
		  if ($c["saturation_hi"] == "") sw[n] = 1e9
		  else sw[n] = $c["saturation_hi"] - $c["saturation_lo"] }
		END { m = median(sw, n)
		      printf "%-16s %7d %8.1f %12.2f%% %14s\n", name, points, secs, median(pk, n),
			     (m >= 1e9 ? "open" : sprintf("%d", m)) }' "$T/$name.rep"
}
printf '%-16s %7s %8s %13s %14s\n' sweep points "wall s" "peak +-" "sat width (P)"
one "precision-$PCT" --repeat 3 --precision "$PCT" --max-repeats 12
grep -h -- "--precision" "$T/precision-$PCT.err" | sed 's/^/  /' || true
for k in "$@"; do
	one "repeat-$k" --repeat "$k"
done
