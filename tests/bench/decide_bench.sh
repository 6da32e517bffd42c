#!/bin/sh
# decide_bench.sh: what `rsweep run --until-decided` costs and promises
# (issue 42).
#
#   tests/bench/decide_bench.sh [RSWEEP] [RUNS]
#
# A/A: RUNS (15) times, two spawned servers from one binary with the
# default placement (--cpus auto), GET, SET, INCR and LPUSH at P=1,
# --repeat 3, -n $DB_N (5000) a point, --until-decided=$DB_AA_BUDGET (40s)
# with the default repeat cap (20): each run's verdicts as the report
# gives them, and the share that is a direction ("faster", "slower", sure
# or with its size unsure): all false, the promise is at most 5%.  Stopping
# when decided looks at the data after every round; this is what that
# does to the error rate (a run that called a direction says before which
# round it first did: an early look, or the last).
#
# UNIX against TCP: one private server reached over its UNIX socket and
# over TCP (the baseline), the shipped unix-vs-tcp sweep's 11 tests at P=1
# (-n $DB_AB_N, 50000), once with a fixed --repeat 5 and once with the
# sweep's --repeat 3 and --until-decided (its default 5-minute budget):
# each one's wall time, points measured, and how many tests the report
# decides (faster, slower or the same) at P=1.
#
# DB_WHAT=aa or ab runs one part.  It prints figures; it does not pass or
# fail.  Bounded by the budgets and -n: about RUNS x 30 s and 4 minutes on
# a 2-core machine.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
RUNS=${2:-15}
N=${DB_N:-5000}
AA_BUDGET=${DB_AA_BUDGET:-40s}
AB_N=${DB_AB_N:-50000}
WHAT=${DB_WHAT:-both}
SRC=$(dirname "$0")/../..
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-decide.XXXXXX")
PID=
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

now() { date +%s.%N; }

verdicts() { # csv label -> one verdict at P=1 a line
	awk -F, -v lab="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["label"] == lab { print ($col["verdict_at_1"] == "" ? "none" : $col["verdict_at_1"]) }' "$1"
}

if [ "$WHAT" != ab ]; then
	echo "A/A: one binary against itself, --cpus auto, $RUNS runs x GET,SET,INCR,LPUSH at P=1,"
	echo "  --repeat 3, -n $N, --until-decided=$AA_BUDGET (repeat cap 20)"
	: >"$T/aa.v"
	: >"$T/aa.t"
	for r in $(seq 1 "$RUNS"); do
		t0=$(now)
		"$RSWEEP" run --target a=spawn: --target b=spawn: -t get,set,incr,lpush -P 1 \
			--repeat 3 -n "$N" --timeout 30 -q -v --until-decided="$AA_BUDGET" \
			-o "$T/aa-$r.csv" >/dev/null 2>"$T/err-$r" || { cat "$T/err-$r"; exit 1; }
		t1=$(now)
		"$RSWEEP" report --format csv "$T/aa-$r.csv" -o "$T/aa-$r.rep"
		verdicts "$T/aa-$r.rep" b >>"$T/aa.v"
		echo "$t0 $t1 $(($(wc -l <"$T/aa-$r.csv") - 1))" >>"$T/aa.t"
		sed -n 's/^rsweep: --until-decided: \([^ur].*\)/    run '"$r"': \1/p' "$T/err-$r" | head -1
		# When a direction was first called (-v's tally of each round):
		# at an early look, or only at the last.
		awk '/--until-decided: round [0-9]+ measures/ && !seen {
			if (match($0, /[1-9][0-9]* (faster|slower),/)) { seen = 1
				print "      first called " substr($0, RSTART, RLENGTH - 1) " before round " $4 } }' \
			"$T/err-$r"
	done
	awk -F'\n' '{ n++; c[$1]++ } END {
		printf "  verdicts %d:", n; for (v in c) printf " %s %d;", v, c[v]; printf "\n"
		d = c["faster"] + c["slower"]; u = c["faster (size unsure)"] + c["slower (size unsure)"]
		printf "  false \"faster\"/\"slower\": %d of %d (%.1f%%); with the size unsure too: %d (%.1f%%) (promise <= 5%%)\n",
			d, n, 100 * d / n, d + u, 100 * (d + u) / n }' "$T/aa.v"
	awk '{ w += $2 - $1; p += $3; if ($2 - $1 > m) m = $2 - $1 } END {
		printf "  wall time a run: mean %.1f s, longest %.1f s; points a run: mean %.1f\n", w / NR, m, p / NR }' "$T/aa.t"
fi
[ "$WHAT" != aa ] || exit 0

PORT=$((30000 + $$ % 20000))
redis-server --port "$PORT" --bind 127.0.0.1 --unixsocket "$T/redis.sock" --unixsocketperm 700 \
	--save "" --appendonly no --daemonize no >"$T/server.log" 2>&1 &
PID=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	redis-cli -s "$T/redis.sock" ping 2>/dev/null | grep -q PONG && break
	sleep 0.2
done
TARGETS="--target tcp=redis://127.0.0.1:$PORT --target unix=unix://$T/redis.sock"
echo "UNIX against TCP (baseline), one private server, the unix-vs-tcp sweep's tests at P=1, -n $AB_N"
ab() { # name, what to print, then rsweep run's own options
	name=$1
	what=$2
	shift 2
	t0=$(now)
	# shellcheck disable=SC2086
	"$RSWEEP" run --sweep "$SRC/sweeps/unix-vs-tcp.sweep" $TARGETS -P 1 -n "$AB_N" \
		--timeout 30 -q -o "$T/$name.csv" "$@" >/dev/null 2>"$T/err-$name" ||
		{ cat "$T/err-$name"; exit 1; }
	t1=$(now)
	"$RSWEEP" report --format csv "$T/$name.csv" -o "$T/$name.rep"
	verdicts "$T/$name.rep" unix >"$T/$name.v"
	awk -v name="$what" -v t0="$t0" -v t1="$t1" -v pts="$(($(wc -l <"$T/$name.csv") - 1))" -F'\n' '
		{ n++; c[$1]++ } END {
		d = c["faster"] + c["slower"] + c["same"]
		printf "  %-22s %6.1f s %4d points   decided %2d of %d tests:", name, t1 - t0, pts, d, n
		for (v in c) printf " %s %d;", v, c[v]; printf "\n" }' "$T/$name.v"
}
ab fixed "fixed --repeat 5" --repeat 5
ab until "--until-decided (repeat 3)" --until-decided
sed -n 's/^rsweep: --until-decided: \(.*\)/    \1/p' "$T/err-until"
