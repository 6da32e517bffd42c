#!/bin/sh
# aa_bench.sh: how often a one-depth comparison gives a false verdict, and
# how often it finds a real difference (issue 26).
#
#   tests/bench/aa_bench.sh [RSWEEP] [RUNS]
#
# A/A: RUNS (20) times, two spawned servers from one binary, interleaved,
# the seed's default tests (sweeps/redis-benchmark-default.sweep) at P=1,
# three repeats: the share of verdicts that are "faster" or "slower" (all
# false: the goal is at most 5%, the interval's promise).
# A/B: RUNS times, one private server reached over its UNIX socket and over
# TCP on 127.0.0.1, GET and SET at P=1, three repeats: the share called
# "faster" (the goal: every time).
#
# AA_PIN="taskset -c 0" runs every rsweep (and the servers it spawns) on
# one CPU: on a machine of few cores the scheduler may place the two
# servers unlike each other for a whole run, a real difference between the
# two processes that the A/A would count as false (tests/cli/report_aa.sh).
#
# Placement (issue 41): the A/A is run under each --cpus of AA_CPUS ("auto
# none": the default placement, every spawned server on the same CPUs
# apart from the load generator, against none), at P=1 and at the peaks
# of a GET,SET sweep over P=1..8 (AA_WHAT=p1 or peak for one of them),
# the placements taking turns run by run.  AA_AB=0 leaves out the A/B.
#
# It prints figures; it does not pass or fail.  Bounded: -n per point and a
# fixed plan; about RUNS x 15 s a placement on a quiet 2-core machine.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
RUNS=${2:-20}
N=${AA_N:-20000}
PIN=${AA_PIN:-}
# Placements compared (--cpus): the default and none.
PLACES=${AA_CPUS:-auto none}
# What to measure: p1, peak, or both.
WHAT=${AA_WHAT:-both}
PEAK_N=${AA_PEAK_N:-4000}
SRC=$(dirname "$0")/../..
TESTS=$(sed -n 's/^tests = //p' "$SRC/sweeps/redis-benchmark-default.sweep")
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-aa.XXXXXX")
PID=
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

placement() { # --cpus value -> what --dry-run says of it
	$PIN "$RSWEEP" run --target a=spawn: --target b=spawn: --cpus "$1" -t get -n 10 -c 1 --dry-run |
		sed -n 's/^placement: //p'
}

verdicts() { # csv label column -> one verdict a line
	awk -F, -v lab="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["label"] == lab { print ($col[c] == "" ? "none" : $col[c]) }' "$1"
}

# One A/A run at P=1 under placement $1 (auto: the default; none), run $2.
aa_p1() {
	$PIN "$RSWEEP" run --target a=spawn: --target b=spawn: --cpus "$1" -t "$TESTS" -P 1 \
		--repeat 3 -n "$N" --timeout 30 -q -o "$T/aa-$1-$2.csv" >/dev/null 2>"$T/err" ||
		{ cat "$T/err"; exit 1; }
	"$RSWEEP" report --format csv "$T/aa-$1-$2.csv" -o "$T/aa-$1-$2.rep"
	"$RSWEEP" report --prose "$T/aa-$1-$2.csv" -o "$T/aa-$1-$2.txt"
	verdicts "$T/aa-$1-$2.rep" b verdict_at_1 >>"$T/aa-$1.v"
	grep -E "(higher|lower) throughput" "$T/aa-$1-$2.txt" | grep -vcE ": (faster|slower)\)" \
		>>"$T/aa-$1.bare" || true
}

# One A/A sweep to the peaks under placement $1, run $2: GET and SET over
# P=1..8, as tests/cli/run_targets_same.sh sweeps them; the verdicts at
# the peaks.
aa_peak() {
	$PIN "$RSWEEP" run --target a=spawn: --target b=spawn: --cpus "$1" -t get,set -P 1..8 \
		--repeat 1 -n "$PEAK_N" -c 4 --timeout 30 -q -o "$T/pk-$1-$2.csv" >/dev/null \
		2>"$T/err" || { cat "$T/err"; exit 1; }
	"$RSWEEP" report --format csv "$T/pk-$1-$2.csv" -o "$T/pk-$1-$2.rep"
	verdicts "$T/pk-$1-$2.rep" b verdict_at_peak >>"$T/pk-$1.v"
}

rate() { # file what
	awk -v what="$2" '{ n++; c[$1]++ } END {
		printf "  %s: verdicts %d: same %d, cannot tell %d, faster %d, slower %d, none %d; ",
			what, n, c["same"], c["cannot"], c["faster"], c["slower"], c["none"]
		printf "false-verdict rate %.1f%% (goal <= 5%%)\n", 100 * (c["faster"] + c["slower"]) / n }' "$1"
}

echo "A/A: one binary against itself, $RUNS runs each, placements: $PLACES${PIN:+, under $PIN}"
echo "  at P=1: 19 tests, 3 repeats, -n $N; at the peaks: GET,SET, P=1..8, -n $PEAK_N, -c 4"
# The placements take turns run by run, so that load from other jobs
# falls on each alike.
for r in $(seq 1 "$RUNS"); do
	for p in $PLACES; do
		[ "$WHAT" = peak ] || aa_p1 "$p" "$r"
		[ "$WHAT" = p1 ] || aa_peak "$p" "$r"
	done
done
for p in $PLACES; do
	echo "--cpus $p ($(placement "$p")):"
	[ "$WHAT" = peak ] || rate "$T/aa-$p.v" "at P=1"
	[ "$WHAT" = p1 ] || rate "$T/pk-$p.v" "at the peaks"
	[ "$WHAT" = peak ] || awk '{ s += $1 } END { printf "  prose sentences with a difference but no verdict: %d\n", s }' \
		"$T/aa-$p.bare"
done
[ "${AA_AB:-1}" = 1 ] || exit 0

PORT=$((30000 + $$ % 20000))
redis-server --port "$PORT" --bind 127.0.0.1 --unixsocket "$T/redis.sock" --unixsocketperm 700 \
	--save "" --appendonly no --daemonize no >"$T/server.log" 2>&1 &
PID=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	redis-cli -s "$T/redis.sock" ping 2>/dev/null | grep -q PONG && break
	sleep 0.2
done
echo "A/B: UNIX socket against TCP (baseline), $RUNS runs x GET,SET, P=1, 3 repeats, -n $N"
for r in $(seq 1 "$RUNS"); do
	"$RSWEEP" run --target tcp=redis://127.0.0.1:"$PORT" --target unix=unix://"$T/redis.sock" \
		-t get,set -P 1 --repeat 3 -n "$N" --timeout 30 -q -o "$T/ab-$r.csv" >/dev/null \
		2>"$T/err" || { cat "$T/err"; exit 1; }
	"$RSWEEP" report --format csv "$T/ab-$r.csv" -o "$T/ab-$r.rep"
	verdicts "$T/ab-$r.rep" unix verdict_at_1 >>"$T/ab.v"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["label"] == "unix" { print $col["ratio_at_1"] }' "$T/ab-$r.rep" >>"$T/ab.r"
done
awk '{ n++; c[$1]++ } END { printf "  verdicts %d: faster %d, cannot tell %d, same %d, slower %d, none %d\n",
	n, c["faster"], c["cannot"], c["same"], c["slower"], c["none"]
	printf "  called faster %.1f%% (goal 100%%)\n", 100 * c["faster"] / n }' "$T/ab.v"
sort -g "$T/ab.r" | awk '{ v[NR] = $1 } END { printf "  ratio unix/tcp at P=1: min %s, median %s, max %s\n",
	v[1], v[int((NR + 1) / 2)], v[NR] }'
