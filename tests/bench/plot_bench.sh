#!/bin/sh
# plot_bench.sh: rsweep plot against gnuplot's pngcairo on the same lines.
# A synthetic sweep of 13 tests x 40 depths x 3 repeats (two labels, as an
# M1-vs-Intel comparison), drawn as the 4 panels of plots/m1-article.plot:
# rsweep PNG (1200x800 per panel, one 2400x1600 image), rsweep PDF (4 pages),
# and gnuplot pngcairo drawing the same median lines into the same 2x2
# image.  Prints the median wall time of RUNS whole-process runs of each,
# side by side, and the ratios.  It measures; it does not pass or fail.
#
#   RSWEEP=build/src/rsweep RS_SRCDIR=. sh tests/bench/plot_bench.sh [RUNS]
set -u
RSWEEP=${RSWEEP:-src/rsweep}
SRC=${RS_SRCDIR:-$(dirname "$0")/../..}
RUNS=${1:-15}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# gen LABEL SATURATION NOISE SCALE SEED
gen() {
	awk -v label="$1" -v sat="$2" -v noise="$3" -v scale="$4" -v seed="$5" 'BEGIN {
		srand(seed)
		n = split("GET SET INCR LPUSH RPUSH LPOP RPOP SADD SPOP HSET ZADD ZPOPMIN MSET", t, " ")
		split("2.1 1.6 2.0 1.8 1.85 1.7 1.75 1.9 2.3 1.5 1.3 1.6 0.45", pk, " ")
		for (i = 1; i <= n; i++)
			for (p = 1; p <= 40; p++)
				for (r = 1; r <= 3; r++) {
					s = sat * (0.8 + 0.05 * (i % 5))
					rps = scale * pk[i] * 1e6 * (1 - exp(-3 * p / s)) * (1 + noise * (2 * rand() - 1))
					avg = 50 * p / rps * 1000
					printf "%s,%s,%d,50,100000,%d,%.6f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,0,3,6.2.6\n",
						label, t[i], p, r, 100000 / rps, rps, avg, avg * 0.3, avg * 0.95,
						avg * 1.6, avg * 2.2, avg * 4
				}
	}'
}
{
	echo "label,test,pipeline,clients,requests,repeat,seconds,rps,avg_ms,min_ms,p50_ms,p95_ms,p99_ms,max_ms,errors,data_size,redis_version"
	gen m1 33 0.08 1.0 1
	gen intel 15 0.025 0.37 2
} >"$T/sweep.csv"

# The same median lines for gnuplot: one data block per label x test.
awk -F, 'NR > 1 { k = $1 SUBSEP $2 SUBSEP $3; v[k, ++n[k]] = $8; keys[k] = 1 }
	END {
		for (k in keys) {
			split(k, a, SUBSEP)
			m = n[k]
			for (i = 1; i <= m; i++) x[i] = v[k, i]
			for (i = 2; i <= m; i++) { y = x[i]; j = i - 1; while (j > 0 && x[j] > y) { x[j + 1] = x[j]; j-- } x[j + 1] = y }
			print a[1] "_" a[2], a[3], (m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2)
		}
	}' "$T/sweep.csv" | sort -k1,1 -k2,2n >"$T/medians.txt"
for key in $(cut -d' ' -f1 "$T/medians.txt" | sort -u); do
	grep "^$key " "$T/medians.txt" | cut -d' ' -f2,3 >"$T/$key.dat"
done
panel() {
	title=$1
	shift
	printf 'set title "%s"\nplot ' "$title"
	sep=
	for t in "$@"; do
		for l in m1 intel; do
			dt=1
			[ $l = intel ] && dt=2
			printf '%s"%s/%s_%s.dat" using 1:2 with linespoints dt %s title "%s %s"' \
				"$sep" "$T" "$l" "$t" "$dt" "$t" "$l"
			sep=", "
		done
	done
	echo
}
{
	echo "set terminal pngcairo size 2400,1600 font 'DejaVu Sans,10'"
	echo "set output '$T/gnuplot.png'"
	echo "set multiplot layout 2,2"
	echo "set key top left; set xlabel 'pipeline depth'; set ylabel 'requests per second'; set yrange [0:*]; set grid"
	panel "Commands for regular keys" GET SET INCR MSET
	panel "Commands for lists" LPUSH RPUSH LPOP RPOP
	panel "Commands for sets" SADD SPOP
	panel "Commands for hash and sorted set" HSET ZADD ZPOPMIN
	echo "unset multiplot"
} >"$T/chart.gp"

# median_ms CMD...: median wall time of RUNS runs, in milliseconds.
median_ms() {
	i=0
	: >"$T/times"
	while [ $i -lt "$RUNS" ]; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; return 1; }
		e=$(date +%s%N)
		echo $(((e - s) / 1000)) >>"$T/times"
		i=$((i + 1))
	done
	sort -n "$T/times" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f", m / 1000 }'
}

PLOT="$SRC/plots/m1-article.plot"
png=$(median_ms "$RSWEEP" plot --plot "$PLOT" "$T/sweep.csv" -o "$T/rsweep.png") || exit 1
pdf=$(median_ms "$RSWEEP" plot --plot "$PLOT" "$T/sweep.csv" -o "$T/rsweep.pdf") || exit 1
if command -v gnuplot >/dev/null 2>&1; then
	gp=$(median_ms gnuplot "$T/chart.gp") || exit 1
else
	gp=
fi

echo "plot bench: 13 tests x 40 depths x 3 repeats x 2 labels ($(($(wc -l <"$T/sweep.csv") - 1)) rows), 4 panels of 1200x800, median of $RUNS runs"
printf '%-34s %10s %12s\n' "renderer" "ms" "bytes"
printf '%-34s %10s %12s\n' "rsweep plot PNG (2400x1600)" "$png" "$(wc -c <"$T/rsweep.png")"
printf '%-34s %10s %12s\n' "rsweep plot PDF (4 pages)" "$pdf" "$(wc -c <"$T/rsweep.pdf")"
if [ -n "$gp" ]; then
	printf '%-34s %10s %12s\n' "gnuplot pngcairo (2400x1600)" "$gp" "$(wc -c <"$T/gnuplot.png")"
	awk -v a="$gp" -v b="$png" -v c="$pdf" 'BEGIN { printf "gnuplot / rsweep PNG: %.1fx   gnuplot / rsweep PDF: %.1fx\n", a / b, a / c }'
else
	echo "gnuplot not installed: no comparison"
fi
echo "target: each rsweep figure under 100 ms, and at least 5x faster than gnuplot"
[ -n "${KEEP:-}" ] && cp "$T/rsweep.png" "$T/rsweep.pdf" "$T/gnuplot.png" "$KEEP"/ 2>/dev/null
exit 0
