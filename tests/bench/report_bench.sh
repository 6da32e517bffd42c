#!/bin/sh
# report_bench.sh: what report and plot cost on the shapes that used to be
# quadratic or slow (issue 25, T2-T4), and whether two builds agree.
#
#   RSWEEP=src/rsweep [BEFORE=/path/to/old/rsweep] sh tests/bench/report_bench.sh [series|repeats|deep|inputs|all]
#
# series:  32k tests x 2 depths x 1 repeat, cluster columns (masters,
#          busy_master, busy_cpu_s) so that the one-shard note is looked for
#          in every series (T2: report_busy_note).
# repeats: 3 depths x 16k repeats, and 3 depths x 300k repeats (T3: the
#          resampled median's law, knee_medtab_cdf).
# deep:    4 labels x 25 tests x 3,333 depths x 3 repeats, 1M rows (T4).
# inputs:  import --skip-bad of 160k lines 'abc $ x' (T1: a prompt's word
#          searched past itself, quadratic); run -d 512M -P 3 on a spawned
#          server, refused (M1: before, after 4 s and 1.5 GB); report of
#          /dev/zero and /dev/urandom (M2: read to 1 GB).  Wall time, and the
#          peak memory where /usr/bin/time is installed.
# For each file: wall time of report (text) and plot; with BEFORE set, the
# same for the old build, and whether report's text, csv and json are
# byte-identical between the two (plot's PNG too).  A run BEFORE takes
# more than LIMIT seconds (default 120) is stopped and shown as "> LIMIT".
# Figures only; nothing passes or fails.  Needs about 300 MB in TMPDIR.
set -eu
RSWEEP=${RSWEEP:-src/rsweep}
BEFORE=${BEFORE:-}
LIMIT=${LIMIT:-120}
what=${1:-all}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-reportbench.XXXXXX")
trap 'rm -rf "$T"' EXIT

HDR=label,test,pipeline,clients,requests,repeat,seconds,rps,avg_ms,min_ms,p50_ms,p95_ms,p99_ms,max_ms,errors,p999_ms,misses,server_calls,order,threads,data_size,keyspace,mode,target,redis_version,server_arch,server_os,client_cpu,started_at,server_cpu_s,client_cpu_s,masters,busy_master,busy_cpu_s,first_error

# gen LABELS TESTS DEPTHS REPEATS: a full-column sweep, depths 1..DEPTHS.
# Every seventh test is a three-master cluster with one busy shard.
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
						cl = (t % 7 == 0)
						printf "l%d,TEST_%05d,%d,50,50000,%d,%.6f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,0,%.4f,0,50000,%d,1,3,0,lockstep,spawn:/usr/bin/redis-server,7.0.15,x86_64,Linux,cpu,2026-12-01T13:56:35Z,%.6f,%.6f,%s,%s,%s,\n",
							l, t, p, r, secs, rps, avg, avg * 0.3, avg, avg * 1.3,
							avg * 1.5, avg * 2, avg * 1.8, ++o, secs * (cl ? 1.6 : 0.9),
							secs * 0.4, cl ? 3 : "", cl ? "127.0.0.1:7001" : "",
							cl ? sprintf("%.6f", secs * 0.95) : ""
					}
	}'
}

# secs CMD...: wall seconds of CMD (output to $T/out), "> LIMIT" if stopped.
secs() {
	s=$(date +%s.%N)
	if timeout "$LIMIT" "$@" >"$T/out" 2>"$T/err"; then :; else
		rc=$?
		[ "$rc" = 124 ] && { echo "> $LIMIT"; return; }
	fi
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'
}

one() {
	name=$1 csv=$2
	printf '%-28s %9s rows\n' "$name" "$(($(wc -l <"$csv") - 1))"
	for bin in $RSWEEP $BEFORE; do
		r=$(secs "$bin" report "$csv")
		cp "$T/out" "$T/report.$(basename "$bin").$$" 2>/dev/null || true
		p=$(secs "$bin" plot "$csv" -o "$T/p.png")
		printf '  %-40s report %8s s   plot %8s s\n' "$bin" "$r" "$p"
	done
	[ -n "$BEFORE" ] || return 0
	for f in text csv json; do
		if timeout "$LIMIT" "$RSWEEP" report --format "$f" "$csv" >"$T/a" 2>&1 &&
		   timeout "$LIMIT" "$BEFORE" report --format "$f" "$csv" >"$T/b" 2>&1; then
			cmp -s "$T/a" "$T/b" && echo "  report --format $f: identical" ||
				echo "  report --format $f: DIFFERS"
		else
			echo "  report --format $f: not compared (a build failed or timed out)"
		fi
	done
}

case $what in series|all) gen 1 32000 2 1 >"$T/series.csv"; one "32k tests x 2 depths" "$T/series.csv" ;; esac
case $what in repeats|all)
	gen 1 1 3 16000 >"$T/r16k.csv"; one "3 depths x 16k repeats" "$T/r16k.csv"
	gen 1 1 3 300000 >"$T/r300k.csv"; one "3 depths x 300k repeats" "$T/r300k.csv" ;;
esac
# mem CMD...: "S s, M MB" of CMD (its exit status ignored).
mem() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e s, %M KB" timeout "$LIMIT" "$@" >/dev/null 2>"$T/time" || true
		tail -1 "$T/time" | awk '{ printf "%s s, %.0f MB", $1, $3 / 1024 }'
	else
		secs "$@"
		printf ' s'
	fi
}

inputs() {
	awk 'BEGIN { for (i = 0; i < 160000; i++) print "abc $ x" }' >"$T/t1.txt"
	for bin in $RSWEEP $BEFORE; do
		echo "  $bin"
		printf '    import --skip-bad, 160k lines:   %s\n' \
			"$(mem "$bin" import --skip-bad --label x -P 1 "$T/t1.txt" -o "$T/t1.csv")"
		rm -f "$T/t1.csv"
		printf '    run -d 512M -P 3 (refused):      %s\n' \
			"$(mem "$bin" run --spawn -t set -d 512M -P 3 -c 1 -n 10 -o "$T/m1.csv")"
		rm -f "$T/m1.csv" "$T/m1.csv.hist"
		printf '    report /dev/zero (refused):      %s\n' "$(mem "$bin" report /dev/zero)"
		printf '    report /dev/urandom (refused):   %s\n' "$(mem "$bin" report /dev/urandom)"
	done
}

case $what in inputs|all) echo "hostile inputs"; inputs ;; esac
case $what in deep|all) gen 4 25 3333 3 >"$T/deep.csv"; one "4x25 tests x 3333 depths x 3" "$T/deep.csv" ;; esac
