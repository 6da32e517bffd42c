#!/bin/sh
# run.sh: build each parser's libFuzzer target (and the deflate encoder's)
# and fuzz it for a bounded time.
#
#   tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [-b BUILDDIR] [TARGET...]
#
# TARGET is csv, spec, depths, import, plotfile or deflate (default: all).  Each runs
# for SECONDS (default 60) with clang -fsanitize=fuzzer,address,undefined,
# JOBS targets at a time (default 1).  BUILDDIR is a configured build
# directory (for config.h; default: the current directory).  Work files go
# to BUILDDIR/tests/fuzz-work; the committed seed corpus is only read.  A
# crash is copied into tests/fuzz/crashes/TARGET/ in the source tree, where
# make check replays it from then on.  Prints executions per target; exits 1
# if any target crashed.
set -eu

secs=60
jobs=1
builddir=.
while getopts t:j:b: opt; do
	case $opt in
	t) secs=$OPTARG ;;
	j) jobs=$OPTARG ;;
	b) builddir=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-j JOBS] [-b BUILDDIR] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
targets=${*:-csv spec depths import plotfile deflate}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
builddir=$(cd "$builddir" && pwd)
if [ ! -f "$builddir/config.h" ]; then
	echo "run.sh: no config.h in $builddir: run configure there first, or give -b BUILDDIR" >&2
	exit 2
fi
CLANG=${CLANG:-clang}
work=$builddir/tests/fuzz-work
mkdir -p "$work"

# The library files each target needs: the parser and what it calls, never
# sockets or drawing.
base="err.c xalloc.c num.c"
sources() {
	case $1 in
	csv) echo "$base csv.c row.c series.c" ;;
	spec) echo "$base spec.c csv.c row.c opts.c depths.c" ;;
	depths) echo "$base depths.c" ;;
	import) echo "$base import.c" ;;
	plotfile) echo "$base plotfile.c spec.c csv.c row.c opts.c depths.c" ;;
	deflate) echo "$base render_png_deflate.c" ;;
	*) echo "run.sh: unknown target '$1' (csv spec depths import plotfile deflate)" >&2; return 1 ;;
	esac
}

build() {
	t=$1
	srcs=$(sources "$t") || return 1
	files=
	for f in $srcs; do files="$files $top/src/$f"; done
	# shellcheck disable=SC2086
	$CLANG -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-fno-omit-frame-pointer -I "$top/src" -I "$builddir" -I "$here" \
		-DRS_DATADIR="\"$top\"" -o "$work/fuzz_$t" "$here/fuzz_$t.c" $files -lz -lm
}

fuzz() {
	t=$1
	mkdir -p "$work/corpus_$t" "$work/crashes_$t"
	# New inputs go to the work corpus; the committed seeds are read only.
	# A unit slower than 10 s or a leak counts as a crash too.
	"$work/fuzz_$t" "$work/corpus_$t" "$here/corpus/$t" \
		-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/crashes_$t/" \
		>"$work/log_$t" 2>&1 || true
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log_$t" | tail -n 1)
	found=0
	for c in "$work/crashes_$t"/*; do
		[ -f "$c" ] || continue
		mkdir -p "$here/crashes/$t"
		cp "$c" "$here/crashes/$t/"
		found=$((found + 1))
	done
	rm -f "$work/crashes_$t"/*
	if [ "$found" -gt 0 ]; then
		echo "$t: ${n:-?} executions, then $found CRASH(ES), copied to tests/fuzz/crashes/$t/ (log: $work/log_$t)"
		return 1
	fi
	if [ -z "$n" ]; then
		echo "$t: the fuzzer did not finish (log: $work/log_$t)"
		return 1
	fi
	echo "$t: $n executions in ${secs} s, no crash"
}

for t in $targets; do
	sources "$t" >/dev/null || exit 2
	echo "building fuzz_$t" >&2
	build "$t" || { echo "run.sh: cannot build fuzz_$t" >&2; exit 2; }
done

status=0
running=0
for t in $targets; do
	(fuzz "$t") >"$work/result_$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait || true
		running=0
	fi
done
wait || true
for t in $targets; do
	cat "$work/result_$t"
	grep -q ', no crash$' "$work/result_$t" || status=1
done
exit $status
