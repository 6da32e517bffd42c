#!/bin/sh
# csv_bench.sh: what reading a results CSV costs, in memory and time.
#
#   RSWEEP=src/rsweep sh tests/bench/csv_bench.sh [rows|hostile|all]
#
# rows: generates sweeps of 100k and 1M rows (4 labels x 25 tests x depths
# 1..100, 10 or 100 repeats), once with every column rsweep run writes and
# once with only the four required ones and repeat, and runs rsweep report and rsweep
# plot on each: peak resident memory, wall time, and the memory per row
# (the difference between the two sizes, over the 900k rows between them).
# With every column the file's own text (it is read whole) is most of it.
# hostile: the inputs that used to take quadratic time: 30k distinct labels
# or tests (report and plot), a chart of the most series plot takes, 60k
# distinct test names (import), one row at depth 4294967295 (refused) and
# one at depth 1000000 (plot).
# Figures only; nothing passes or fails.  Needs about 1 GB free in TMPDIR.
set -eu
RSWEEP=${RSWEEP:-src/rsweep}
what=${1:-all}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-csvbench.XXXXXX")
trap 'rm -rf "$T"' EXIT

HDR=label,test,pipeline,clients,requests,repeat,seconds,rps,avg_ms,min_ms,p50_ms,p95_ms,p99_ms,max_ms,errors,p999_ms,misses,server_calls,order,threads,data_size,keyspace,mode,target,redis_version,server_arch,server_os,client_cpu,started_at,server_cpu_s,client_cpu_s,first_error

# gen FULL REPEATS: a sweep of 4 labels x 25 tests x depths 1..100 x REPEATS.
gen() {
	awk -v full="$1" -v reps="$2" -v hdr="$HDR" 'BEGIN {
		srand(1)
		print full ? hdr : "label,test,pipeline,repeat,rps"
		split("m1 intel tcp unix", lab, " ")
		for (t = 1; t <= 25; t++)
			test[t] = sprintf("TEST_%02d", t)
		o = 0
		for (l = 1; l <= 4; l++)
			for (t = 1; t <= 25; t++)
				for (p = 1; p <= 100; p++)
					for (r = 1; r <= reps; r++) {
						rps = 1e6 * (1 - exp(-p / (5 + t))) * (0.95 + 0.1 * rand())
						if (!full) {
							printf "%s,%s,%d,%d,%.2f\n", lab[l], test[t], p, r, rps
							continue
						}
						avg = 50 * p / rps * 1000
						printf "%s,%s,%d,50,100000,%d,%.6f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,0,%.4f,0,100000,%d,1,3,0,lockstep,unix:/tmp/rsweep-bench/redis.sock,7.0.15,64 epoll x86_64,Linux 6.1.0-18-amd64 x86_64,Intel(R) Xeon(R) CPU @ 2.20GHz x2,2024-05-01T12:%02d:%02dZ,%.6f,%.6f,\n",
							lab[l], test[t], p, r, 100000 / rps, rps, avg, avg * 0.3,
							avg * 0.95, avg * 1.6, avg * 2.2, avg * 4, avg * 3, ++o,
							int(o / 60) % 60, o % 60, 0.8 * 100000 / rps, 0.9 * 100000 / rps
					}
	}'
}

# measure FILE CMD...: prints "maxrss_kB wall_s cpu_s" of one run of CMD on
# FILE (its standard error goes to $T/err: a refusal is timed too).  On a
# shared machine the CPU time (user + system) is the steadier figure.
measure() {
	f=$1
	shift
	/usr/bin/time -f "%M %e %U %S" -o "$T/time" "$@" "$f" >/dev/null 2>"$T/err" || true
	tail -n 1 "$T/time" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'
}

rows() {
	for kind in full minimal; do
		full=0
		[ $kind = full ] && full=1
		gen $full 10 >"$T/100k.csv"
		gen $full 100 >"$T/1m.csv"
		for cmd in report plot; do
			if [ $cmd = report ]; then
				set -- "$RSWEEP" report
			else
				set -- "$RSWEEP" plot --tests test_01,test_02 -o "$T/out.png"
			fi
			a=$(measure "$T/100k.csv" "$@")
			b=$(measure "$T/1m.csv" "$@")
			echo "$a $b" | awk -v k=$kind -v c=$cmd -v s1="$(wc -c <"$T/100k.csv")" \
				-v s2="$(wc -c <"$T/1m.csv")" '{
				printf "%-7s %-6s 100k rows (%5.1f MB): %6.1f MB %5.2f s   1M rows (%5.1f MB): %6.1f MB %5.2f s (CPU %5.2f s)   %4.0f bytes/row (file text %3.0f)\n",
					k, c, s1 / 1e6, $1 / 1024, $2, s2 / 1e6, $4 / 1024, $5, $6,
					($4 - $1) * 1024 / 900000, (s2 - s1) / 900000
			}'
		done
	done
}

hostile() {
	awk 'BEGIN { print "label,test,pipeline,rps"
		for (i = 0; i < 30000; i++) printf "l%d,GET,%d,%d\n", i, 1 + i % 2, 1000 + i }' >"$T/labels.csv"
	set -- $(measure "$T/labels.csv" "$RSWEEP" report)
	echo "30k labels, report: $2 s"
	set -- $(measure "$T/labels.csv" "$RSWEEP" plot -o "$T/l.png")
	echo "30k labels, plot: $2 s: $(cat "$T/err")"
	awk 'BEGIN { print "label,test,pipeline,rps"
		for (i = 0; i < 30000; i++) printf "x,T%d,1,%d\nx,T%d,2,%d\n", i, 1000 + i, i, 1900 + i }' \
		>"$T/tests.csv"
	set -- $(measure "$T/tests.csv" "$RSWEEP" report)
	echo "30k tests, report: $2 s"
	set -- $(measure "$T/tests.csv" "$RSWEEP" plot --tests 't1*' -o "$T/t.png")
	echo "30k tests, plot --tests 't1*': $2 s: $(cat "$T/err")"
	# The most series a chart takes: 128 tests x 2 labels x 40 depths x 3 repeats.
	awk 'BEGIN { print "label,test,pipeline,repeat,rps"
		for (l = 0; l < 2; l++) for (t = 0; t < 128; t++) for (p = 1; p <= 40; p++)
			for (r = 1; r <= 3; r++)
				printf "l%d,T%d,%d,%d,%.2f\n", l, t, p, r, 1e5 * (t + 1) * (1 - exp(-p / 8)) * (1 + r / 100) }' \
		>"$T/many.csv"
	set -- $(measure "$T/many.csv" "$RSWEEP" plot -o "$T/m.png")
	echo "256 series x 40 depths, plot: $2 s"
	awk 'BEGIN { for (i = 0; i < 60000; i++) printf "T%d: %d.00 requests per second\n", i, 1000 + i }' \
		>"$T/tests.txt"
	set -- $(measure "$T/tests.txt" "$RSWEEP" import -q -l x -o "$T/tests.csv")
	echo "60k test names, import: $2 s"
	printf 'label,test,pipeline,rps\nx,GET,1,1000\nx,GET,4294967295,2000\n' >"$T/deep.csv"
	set -- $(measure "$T/deep.csv" "$RSWEEP" plot -o "$T/d.png")
	echo "depth 4294967295, plot: $2 s: $(cat "$T/err")"
	printf 'label,test,pipeline,rps\nx,GET,1,1000\nx,GET,1000000,2000\n' >"$T/deep.csv"
	set -- $(measure "$T/deep.csv" "$RSWEEP" plot -o "$T/d.png")
	echo "depth 1000000, plot: $2 s"
}

case $what in
rows) rows ;;
hostile) hostile ;;
all) rows; hostile ;;
*) echo "usage: $0 [rows|hostile|all]" >&2; exit 2 ;;
esac
