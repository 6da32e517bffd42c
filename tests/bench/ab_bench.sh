#!/bin/sh
# ab_bench.sh: what interleaving targets buys, measured here.
#
#   tests/bench/ab_bench.sh [RSWEEP] [RUNS]
#
# Part 1, the A/A ratio.  Two private servers from one binary (a and b),
# measured RUNS (3) times each way:
#   interleaved  one run, --target a=spawn: --target b=spawn: (ABBA);
#   sequential   two runs one after the other, --spawn -l a, then
#                --spawn -l b --resume into the same file (how it was done
#                before --target).
# and each way once on a quiet machine and once with a drift: from the
# moment the file holds half its rows, the benchmark SIGSTOPs rsweep's
# spawned servers for 10 ms out of every 40 ms (the machine "slows down
# half-way").  For each it prints the ratio b/a (rsweep report, baseline
# a) at P=1 and at the peak over every test and run: mean, standard
# deviation, range, and how many verdicts were "faster" or "slower".  The true ratio
# is 1; interleaving should keep it there under drift, two sequential runs
# should not.
#
# Part 2, the snap-vs-apt style comparison in one command: one binary, two
# configurations (--appendonly no against yes, appendfsync everysec),
# interleaved; its report's prose and a speed-up chart with intervals
# (ab-aof.png in the current directory, or $OUT).
#
# It prints figures; it does not pass or fail.  Bounded: -n per point and
# a fixed plan; about RUNS x 4 x 10 s plus 30 s on a quiet 2-core machine.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
RUNS=${2:-3}
N=${N:-5000}
OUT=${OUT:-ab-aof.png}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-ab.XXXXXX")
NOISE=
trap '[ -n "$NOISE" ] && kill $NOISE 2>/dev/null; rm -rf "$T"' EXIT
PLAN="-t get,set,incr,lpush -P 1,2,4,8 --repeat 2 -n $N -c 10 --timeout 10 -q"
TOTAL=$((2 * 4 * 4 * 2))

rows() { if [ -f "$1" ]; then tail -n +2 "$1" | grep -c . || true; else echo 0; fi; }

# noise FILE PID: once FILE holds half its rows, stop and continue the
# redis-servers that PID (an rsweep) spawned, 10 ms in every 40, until PID ends.
noise() {
	until [ "$(rows "$1")" -ge $((TOTAL / 2)) ]; do
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.02
	done
	while kill -0 "$2" 2>/dev/null; do
		pids=$(pgrep -P "$2" 2>/dev/null || true)
		[ -n "$pids" ] && kill -STOP $pids 2>/dev/null
		sleep 0.01
		[ -n "$pids" ] && kill -CONT $pids 2>/dev/null
		sleep 0.03
	done
}

# measure WAY DRIFT FILE: one sweep of a and b into FILE.
measure() {
	rm -f "$3"
	if [ "$1" = interleaved ]; then
		# shellcheck disable=SC2086
		"$RSWEEP" run --target a=spawn: --target b=spawn: $PLAN -o "$3" >/dev/null 2>&1 &
		pid=$!
		if [ "$2" = drift ]; then noise "$3" $pid & NOISE=$!; fi
		wait $pid
	else
		for l in a b; do
			resume=; [ $l = b ] && resume=--resume
			# shellcheck disable=SC2086
			"$RSWEEP" run --spawn -l $l $PLAN -o "$3" $resume >/dev/null 2>&1 &
			pid=$!
			if [ "$2" = drift ] && [ $l = b ]; then noise "$3" $pid & NOISE=$!; fi
			wait $pid
		done
	fi
	[ -n "$NOISE" ] && { wait $NOISE 2>/dev/null || true; NOISE=; }
	"$RSWEEP" report --format csv --baseline a "$3" -o "$3.rep"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 $col["label"] == "b" { print $col["ratio_at_1"], $col["ratio_at_peak"],
				       $col["verdict_at_1"], $col["verdict_at_peak"] }' "$3.rep"
}

echo "Part 1: the A/A ratio b/a, $RUNS runs each way (4 tests x P=1,2,4,8 x 2 repeats, -n $N)"
printf '%-12s %-6s %-28s %-28s %s\n' way drift "ratio at P=1 mean sd [range]" \
	"ratio at peak mean sd [range]" "faster/slower verdicts (P=1, peak)"
for drift in quiet drift; do
	for way in interleaved sequential; do
		: >"$T/all"
		for r in $(seq 1 "$RUNS"); do
			measure $way $drift "$T/$way-$drift-$r.csv" >>"$T/all"
		done
		awk -v way=$way -v drift=$drift '
			{ n++; a[n] = $1; p[n] = $2; s1 += $1; sp += $2
			  if ($3 ~ /^(faster|slower)/) d1++; if ($4 ~ /^(faster|slower)/) dp++ }
			function sd(v, m,   i, t) { for (i = 1; i <= n; i++) t += (v[i] - m) ^ 2
						      return n > 1 ? sqrt(t / (n - 1)) : 0 }
			function lo(v,   i, m) { m = v[1]; for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]; return m }
			function hi(v,   i, m) { m = v[1]; for (i = 2; i <= n; i++) if (v[i] > m) m = v[i]; return m }
			END { m1 = s1 / n; mp = sp / n
			      printf "%-12s %-6s %.3f %.3f [%.2f..%.2f]       %.3f %.3f [%.2f..%.2f]       %d/%d, %d/%d\n",
				     way, drift, m1, sd(a, m1), lo(a), hi(a), mp, sd(p, mp), lo(p), hi(p),
				     d1, n, dp, n }' "$T/all"
	done
done

echo
echo "Part 2: one binary, --appendonly no (plain, the baseline) against yes (aof), in one command"
"$RSWEEP" run --target plain=spawn: --target aof=spawn: --spawn-args 'aof=--appendonly yes' \
	-t get,set,incr,lpush,sadd,hset -P 1,2,4,8,16 --repeat 3 -n "$N" -c 10 --timeout 10 -q \
	-o "$T/aof.csv" >/dev/null
"$RSWEEP" report --prose "$T/aof.csv" | sed -n '/^Compared/,$p'
"$RSWEEP" plot --kind speedup "$T/aof.csv" -o "$OUT" && echo "chart: $OUT"
cp "$T/aof.csv" "${OUT%.png}.csv" && echo "rows: ${OUT%.png}.csv"
