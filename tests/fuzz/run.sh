#!/bin/sh
# run.sh: build each parser's libFuzzer target (and the deflate encoder's)
# and fuzz it for a bounded time.
#
#   tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [-b BUILDDIR] [TARGET...]
#
# TARGET is csv, spec, depths, import, plotfile, deflate, agentmsg, memtier or hdrlog (default: all of
# them: each tests/fuzz/fuzz_TARGET.c).  Each links the folders' libraries,
# as its replay program in make check does, built again here with
# clang -fsanitize=fuzzer-no-link,address,undefined from the sources and
# flags BUILDDIR's make print-fuzz-build gives (so the two cannot drift),
# and runs for SECONDS (default 60), JOBS targets at a time (default 1).
# BUILDDIR is a configured build directory (default: the current
# directory).  Work files go to BUILDDIR/tests/fuzz-work; the committed seed
# corpus is only read.  A crash is copied into tests/fuzz/crashes/TARGET/ in
# the source tree, where make check replays it from then on.  Prints
# executions per target; exits 1 if any target crashed.
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

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
targets=${*:-$(cd "$here" && ls fuzz_*.c | sed 's/^fuzz_\(.*\)\.c$/\1/' | tr '\n' ' ')}
builddir=$(cd "$builddir" && pwd)
if [ ! -f "$builddir/config.h" ]; then
	echo "run.sh: no config.h in $builddir: run configure there first, or give -b BUILDDIR" >&2
	exit 2
fi
CLANG=${CLANG:-clang}
work=$builddir/tests/fuzz-work
mkdir -p "$work"

# The libraries, as print-fuzz-build lists them ("lib NAME SOURCES..." in
# link order): each source compiled with the fuzzer's instrumentation,
# each library archived as $work/lib/NAME.a, their paths in $work/libs.
libs() {
	make -s -C "$builddir" print-fuzz-build >"$work/build.txt" || {
		echo "run.sh: make print-fuzz-build failed in $builddir" >&2
		return 1
	}
	flags=$(sed -n 's/^flags: //p' "$work/build.txt")
	mkdir -p "$work/lib"
	: >"$work/libs"
	sed -n 's/^lib //p' "$work/build.txt" | while read -r name files; do
		mkdir -p "$work/obj/$name"
		: >"$work/obj/$name.list"
		for f in $files; do
			case $f in *.c) ;; *) continue ;; esac
			o=$work/obj/$name/$(basename "$f" .c).o
			# shellcheck disable=SC2086
			$CLANG $CFLAGS_FUZZ -fsanitize=fuzzer-no-link $flags -c -o "$o" "$top/$f" || return 1
			echo "$o" >>"$work/obj/$name.list"
		done
		rm -f "$work/lib/$name.a"
		# shellcheck disable=SC2046
		ar rc "$work/lib/$name.a" $(cat "$work/obj/$name.list") || return 1
		echo "$work/lib/$name.a" >>"$work/libs"
	done
}

build() {
	t=$1
	# Twice over: the system library calls back into base's.
	# shellcheck disable=SC2046
	$CLANG $CFLAGS_FUZZ -fsanitize=fuzzer -I "$top/src" -I "$builddir" -I "$here" \
		-o "$work/fuzz_$t" "$here/fuzz_$t.c" $(cat "$work/libs" "$work/libs") -pthread -lz -lm
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
	[ -f "$here/fuzz_$t.c" ] || { echo "run.sh: unknown target '$t' (no tests/fuzz/fuzz_$t.c)" >&2; exit 2; }
done
CFLAGS_FUZZ="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
echo "building the libraries" >&2
libs || { echo "run.sh: cannot build the libraries" >&2; exit 2; }
for t in $targets; do
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
