#!/bin/sh
# big_bench.sh: what report and plot cost on a million rows (issue 40).
#
#   RSWEEP=src/rsweep [BEFORE=/path/to/old/rsweep] [ROWS=1000000] \
#       sh tests/bench/big_bench.sh [deep|wide|all]
#
# deep: 4 labels x 25 tests x ROWS/300 depths x 3 repeats: 100 series of
#       many depths (each series' bootstrap refits its curve over all of
#       them, 1000 times, three ways).
# wide: 2 labels x ROWS/500 tests x 25 depths x 10 repeats: 4000 series
#       (a chart of them all is refused: more than 256).
# Every column rsweep run writes.  For each: wall and CPU seconds (user +
# system: the steadier figure on a shared machine) and peak memory of
#   report, report --format json, report --latency-budget 1ms,
#   plot (wide: its refusal), plot --tests of two tests;
# with BEFORE, the same for the old build, and whether the outputs of the
# two (report's text, json and budget, the PNGs) are byte-identical.
# A run past LIMIT seconds (default 600) is stopped and shown as "> LIMIT".
# Figures only; nothing passes or fails.  Needs about 1 GB in TMPDIR.
set -eu
RSWEEP=${RSWEEP:-src/rsweep}
BEFORE=${BEFORE:-}
ROWS=${ROWS:-1000000}
LIMIT=${LIMIT:-600}
what=${1:-all}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bigbench.XXXXXX")
trap 'rm -rf "$T"' EXIT

HDR=label,test,pipeline,clients,requests,repeat,seconds,rps,avg_ms,min_ms,p50_ms,p95_ms,p99_ms,max_ms,errors,p999_ms,misses,server_calls,order,threads,data_size,keyspace,mode,target,redis_version,server_arch,server_os,client_cpu,started_at,server_cpu_s,client_cpu_s,first_error

# gen LABELS TESTS DEPTHS REPEATS: a full-column sweep, depths 1..DEPTHS.
gen() {
	awk -v nl="$1" -v nt="$2" -v nd="$3" -v reps="$4" -v hdr="$HDR" 'BEGIN {
		srand(1)
		print hdr
		o = 0
		for (l = 1; l <= nl; l++)
			for (t = 1; t <= nt; t++)
				for (p = 1; p <= nd; p++)
					for (r = 1; r <= reps; r++) {
						rps = 1e6 * (1 - exp(-p / (5 + t % 50))) * (0.95 + 0.1 * rand())
						secs = 50000 / rps
						avg = p * 50 / rps * 1000
						printf "l%d,TEST_%05d,%d,50,50000,%d,%.6f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,0,%.4f,0,50000,%d,1,3,0,lockstep,spawn:/usr/bin/redis-server,7.0.15,x86_64,Linux,cpu,2026-12-01T13:56:35Z,%.6f,%.6f,\n",
							l, t, p, r, secs, rps, avg, avg * 0.3, avg, avg * 1.3,
							avg * 1.5, avg * 2, avg * 1.8, ++o, secs * 0.9, secs * 0.4
					}
	}'
}

# run NAME BIN ARGS...: one line of figures for BIN ARGS; output in $T/NAME.
run() {
	name=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %U %S %M" -o "$T/time" timeout "$LIMIT" "$@" >"$T/$name" 2>"$T/err" || true
		if grep -q "Command exited with non-zero status 124" "$T/time"; then
			printf '    %-36s > %s s\n' "$name" "$LIMIT"
			return
		fi
		tail -n 1 "$T/time" | awk -v n="$name" -v e="$(head -c 60 "$T/err")" '{
			printf "    %-36s %7.2f s wall %7.2f s CPU %6.0f MB  %s\n", n, $1, $2 + $3, $4 / 1024, e }'
	else
		s=$(date +%s.%N)
		timeout "$LIMIT" "$@" >"$T/$name" 2>"$T/err" || true
		e=$(date +%s.%N)
		awk -v n="$name" -v s="$s" -v e="$e" 'BEGIN { printf "    %-36s %7.2f s wall\n", n, e - s }'
	fi
}

one() {
	shape=$1 csv=$2
	printf '%s: %s rows, %s MB\n' "$shape" "$(($(wc -l <"$csv") - 1))" "$(($(wc -c <"$csv") / 1000000))"
	k=0
	for bin in $RSWEEP $BEFORE; do
		k=$((k + 1))
		echo "  $bin"
		run "report.$k" "$bin" report "$csv"
		run "json.$k" "$bin" report --format json "$csv"
		run "budget.$k" "$bin" report --latency-budget 1ms "$csv"
		run "plot.$k" "$bin" plot "$csv" -o "$T/plot.$k.png"
		run "plot-tests.$k" "$bin" plot --tests TEST_00001,TEST_00002 "$csv" -o "$T/two.$k.png"
	done
	[ -n "$BEFORE" ] || return 0
	for f in report json budget; do
		cmp -s "$T/$f.1" "$T/$f.2" && echo "  $f: identical" || echo "  $f: DIFFERS"
	done
	for f in plot two; do
		[ -e "$T/$f.1.png" ] || [ -e "$T/$f.2.png" ] || continue
		cmp -s "$T/$f.1.png" "$T/$f.2.png" && echo "  $f.png: identical" || echo "  $f.png: DIFFERS"
	done
}

case $what in deep|all) gen 4 25 $((ROWS / 300)) 3 >"$T/deep.csv"; one deep "$T/deep.csv"; rm -f "$T/deep.csv" ;; esac
case $what in wide|all) gen 2 $((ROWS / 500)) 25 10 >"$T/wide.csv"; one wide "$T/wide.csv"; rm -f "$T/wide.csv" ;; esac
