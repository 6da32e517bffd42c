#!/bin/sh
# prefix_bench.sh: what --key-prefix costs between points against FLUSHALL
# (issue 28).  Under a prefix rsweep deletes what it can have written, the
# cheaper way: UNLINK of each of the -r numbers of a random name when they
# are fewer than the database's keys, else a SCAN MATCH of the prefix
# (issue 40); FLUSHALL empties the server at once.
#
#   tests/bench/prefix_bench.sh [RSWEEP]
#
# For -r 100000 and -r 1000000: one private redis-server (a UNIX socket in
# a directory of its own), SET at P=1, 10 points of 1,000 requests, once
# with FLUSHALL between points and once with --key-prefix, each run timed
# whole; the extra seconds a point are (prefix - flush) / 10.  A second
# pair on a server that holds 1,000,000 other keys (where FLUSHALL is not
# an option: the prefix run alone, and that the keys are still there).
#
# It prints figures; it does not pass or fail.  Bounded: 4 runs of 10
# points, about a minute on a quiet 2-core machine.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-prefix.XXXXXX")
SOCK=$T/redis.sock
PID=
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

redis-server --port 0 --unixsocket "$SOCK" --unixsocketperm 700 --save '' --appendonly no \
	--dir "$T" --logfile "$T/redis.log" &
PID=$!
for _ in $(seq 1 500); do
	redis-cli -s "$SOCK" ping 2>/dev/null | grep -q PONG && break
	sleep 0.01
done

now() { date +%s.%N; }
# timed ARGS...: seconds the rsweep run takes, whole.
timed() {
	t0=$(now)
	"$RSWEEP" run -s "$SOCK" -t set -P 1 --repeat 10 -n 1000 -c 4 -q "$@" >/dev/null 2>"$T/err" ||
		{ cat "$T/err" >&2; exit 1; }
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}

printf '%-10s %-22s %10s %10s %14s\n' "-r" "server" "FLUSHALL" "prefix" "extra s/point"
for r in 100000 1000000; do
	f=$(timed -r "$r")
	p=$(timed -r "$r" --key-prefix bench:)
	printf '%-10s %-22s %10s %10s %14s\n' "$r" "empty" "$f s" "$p s" \
		"$(echo "$f $p" | awk '{ printf "%.3f", ($2 - $1) / 10 }')"
done
redis-cli -s "$SOCK" EVAL "for i = 1, 1000000 do redis.call('SET', 'other:' .. i, i) end" 0 \
	>/dev/null
for r in 100000 1000000; do
	p=$(timed -r "$r" --key-prefix bench:)
	printf '%-10s %-22s %10s %10s %14s\n' "$r" "1,000,000 other keys" "-" "$p s" "-"
done
echo "other keys still there: $(redis-cli -s "$SOCK" DBSIZE)"
