#!/bin/sh
# run.sh: build each parser's libFuzzer target (and the deflate encoder's)
# and fuzz it for a bounded time.
#
#   tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [-b BUILDDIR] [TARGET...]
#
# TARGET is csv, spec, depths, import, plotfile, deflate, agentmsg, memtier or hdrlog (default: all of
# them, as Makefile.am lists them: RS_FUZZ_SRC_<target> names the library
# files each is built from, for its replay program in make check and for
# the libFuzzer build here alike, so the two cannot drift).  Each runs
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

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
targets=${*:-$(sed -n 's/^RS_FUZZ_SRC_\([a-z0-9]*\) *=.*/\1/p' "$top/Makefile.am" |
	tr '\n' ' ')}
builddir=$(cd "$builddir" && pwd)
if [ ! -f "$builddir/config.h" ]; then
	echo "run.sh: no config.h in $builddir: run configure there first, or give -b BUILDDIR" >&2
	exit 2
fi
CLANG=${CLANG:-clang}
work=$builddir/tests/fuzz-work
mkdir -p "$work"

# The library files of target $1 (paths from the top of the tree): the
# value of RS_FUZZ_SRC_$1 in Makefile.am, its continued lines joined and
# the $(RS_FUZZ_...) variables in it expanded.
sources() {
	awk -v want="RS_FUZZ_SRC_$1" '
		{ line = line $0 }
		/\\$/ { sub(/\\$/, " ", line); next }
		line ~ /^RS_FUZZ_[A-Za-z0-9_]+ *=/ {
			name = line; sub(/ *=.*/, "", name)
			value = line; sub(/^[^=]*= */, "", value)
			var[name] = value
		}
		{ line = "" }
		END {
			if (!(want in var))
				exit 1
			s = var[want]
			while (match(s, /\$\([A-Za-z0-9_]+\)/))
				s = substr(s, 1, RSTART - 1) var[substr(s, RSTART + 2, RLENGTH - 3)] \
				    substr(s, RSTART + RLENGTH)
			print s
		}' "$top/Makefile.am" || {
		echo "run.sh: unknown target '$1' (no RS_FUZZ_SRC_$1 in Makefile.am)" >&2
		return 1
	}
}

build() {
	t=$1
	srcs=$(sources "$t") || return 1
	files=
	for f in $srcs; do
		case $f in *.c) files="$files $top/$f" ;; esac
	done
	# shellcheck disable=SC2086
	$CLANG -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-fno-omit-frame-pointer -I "$top/src" -I "$builddir" -I "$here" \
		-o "$work/fuzz_$t" "$here/fuzz_$t.c" $files -lz -lm
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
