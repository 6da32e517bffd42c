#!/bin/sh
# mix_bench.sh: rsweep's mixes and key distributions side by side with
# memtier_benchmark on the same Set:Get mix and key distribution (issue 29).
#
#   tests/bench/mix_bench.sh [RSWEEP] [PAIRS]
#   MEMTIER=/path/to/memtier_benchmark tests/bench/mix_bench.sh
#
# One private redis-server on a UNIX socket in a temp dir (no other server
# is touched), 1 thread x 10 connections, values of 32 bytes, keyspace
# 100000, each point about DUR=2 seconds.  Cases: SET:GET 1:10
# (memtier_benchmark's default) and 1:4, keys uniform and zipf, pipeline
# 1 and 16.  For each case PAIRS (default 3) interleaved pairs
# (memtier_benchmark, rsweep, memtier_benchmark, rsweep, ...), and per case
# the medians over the pairs of:
#   mt ops/s, rs rps   each tool's own throughput figure
#   rs/mt              the median of the per-pair ratios rsweep/memtier
#   set%               the share of SETs each actually sent
#   client CPU us/req  client CPU per request, user+sys, in microseconds:
#                      memtier_benchmark's whole process (/usr/bin/time:
#                      its start, connections and progress thread too)
#                      over its Totals count; rsweep's client_cpu_s (the
#                      timed window only) over its requests, and "rs all"
#                      its whole process (/usr/bin/time), which includes
#                      the untimed preparation of the 100000 keys: rsweep's
#                      figure comparable to memtier's lies between the two
#   GET misses         as each reports them: memtier's (its Gets count x
#                      Misses/sec / (Hits/sec + Misses/sec)) and the
#                      server's INFO keyspace_misses over its point (mt
#                      srv); rsweep's misses (nil replies) and
#                      server_misses (the same INFO count, its column)
# A request is one command for both (SET or GET; no MGET), and its reply.
# Ratios from one run, since the machine is shared and absolute figures
# drift (10-20% between single points).  About 3 minutes at PAIRS=3.
#
# The mix: memtier_benchmark's --ratio S:G is a cycle on each connection
# (S SETs, then G GETs, again: client.cpp create_request); rsweep's
# --ratio S:G (-t mix:set=S,get=G) draws each request, SET with chance
# S/(S+G).  Both send S/(S+G) SETs (set%), memtier exactly, rsweep within
# the draw's noise.
#
# Depth: memtier_benchmark's --pipeline N keeps up to N requests in flight
# on a connection and tops it up after each read (shard_connection.cpp
# fill_pipeline), which is rsweep's --mode window, used here; MODE=lockstep
# measures rsweep's default instead (batches of P).  At P=1 they are one.
#
# Both tools must find every key they read, so that GET does the same work:
# before each memtier_benchmark point the server is flushed and memtier
# writes the keyspace once (--ratio 1:0 --key-pattern P:P --requests
# allkeys, untimed, not in its CPU figure); before each rsweep point the
# server is flushed and rsweep prepares GET's keys itself.
#
# MEMTIER=path (default: memtier_benchmark on PATH, else
# /tmp/memtier/src/memtier_benchmark); without it the script says so and
# exits 0.  It prints figures; it does not pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PAIRS=${2:-${PAIRS:-3}}
DUR=${DUR:-2}
MODE=${MODE:-window}
KEYS=100000
if [ -z "${MEMTIER:-}" ]; then
	MEMTIER=$(command -v memtier_benchmark || echo /tmp/memtier/src/memtier_benchmark)
fi
[ -x "$MEMTIER" ] || { echo "mix_bench: skipped: no memtier_benchmark ($MEMTIER; set MEMTIER=path)"; exit 0; }
[ -x /usr/bin/time ] || { echo "mix_bench: skipped: needs /usr/bin/time (package time)"; exit 0; }
command -v redis-server >/dev/null || { echo "mix_bench: skipped: needs redis-server"; exit 0; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-mix.XXXXXX")
SOCK=$T/redis.sock
redis-server --port 0 --unixsocket "$SOCK" --unixsocketperm 700 \
	--save '' --appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
until redis-cli -s "$SOCK" ping >/dev/null 2>&1; do sleep 0.05; done

cli() { redis-cli -s "$SOCK" "$@"; }
server_misses() { cli info stats | sed -n 's/^keyspace_misses:\([0-9]*\).*/\1/p'; }
# col FILE N: the median of column N of a file of one point a line.
col() { cut -d' ' -f"$2" "$1" | median; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Keys.  memtier_benchmark's keys are numbered --key-minimum..--key-maximum;
# rsweep's -r N are 0..N-1.  memtier's zipf (--key-pattern Z, obj_gen.cpp
# set_key_zipf_distribution and zipf_distribution: rejection-inversion,
# Hormann and Derflinger) draws the key numbered k with probability
# proportional to k^-e over max(1, key-minimum)..key-maximum, key 0 never;
# e is --key-zipf-exp, in (0, 5), and 1.0 when unset.  rsweep's zipf:S draws
# rank k (the key numbered k-1) with probability proportional to k^-S over
# 1..N.  So memtier over 1..100000 with e = 1 (passed explicitly) and
# rsweep -r 100000 --key-dist zipf:1 are the same distribution of ranks
# over the same number of keys, hottest first; uniform is memtier's R over
# 1..100000 and rsweep's uniform over 0..99999.  The names differ
# (memtier-1 .. memtier-100000, 9 to 14 bytes; key:000000000000, 16), which
# a server's hash table hardly sees.
MT_KEYS="--key-minimum 1 --key-maximum $KEYS"
# Every memtier connection draws from a seed of its own
# (--distinct-client-seed): without it all ten send the same key sequence.
MT_COMMON="-S $SOCK --protocol redis --threads 1 -c 10 --data-size 32 --hide-histogram --distinct-client-seed"

# mt RATIO PATTERN P: one memtier_benchmark point; prints ops/s, the share
# of SETs in %, CPU us per request, its GET misses, the server's misses.
mt() {
	case $2 in uniform) pat=R:R zexp= ;; zipf) pat=Z:Z zexp="--key-zipf-exp 1" ;; esac
	cli flushall >/dev/null
	# shellcheck disable=SC2086
	"$MEMTIER" $MT_COMMON $MT_KEYS --pipeline 16 --ratio 1:0 --key-pattern P:P \
		--requests allkeys >/dev/null 2>"$T/mt.err" || { cat "$T/mt.err" >&2; exit 1; }
	n=$(cli dbsize)
	[ "$n" = "$KEYS" ] || { echo "mix_bench: memtier's preload left $n keys, not $KEYS" >&2; exit 1; }
	m0=$(server_misses)
	# shellcheck disable=SC2086
	/usr/bin/time -f '%U %S' -o "$T/mt.time" "$MEMTIER" $MT_COMMON $MT_KEYS --pipeline "$3" \
		--ratio "$1" --key-pattern $pat $zexp --test-time "$DUR" --json-out-file "$T/mt.json" \
		>/dev/null 2>"$T/mt.err" || { cat "$T/mt.err" >&2; exit 1; }
	m1=$(server_misses)
	# The rate is the last "(avg: N) ops/sec" of its progress lines (its
	# count over its own thread's time), not its summary's Ops/sec: in this
	# build (2f74d61) with 10 connections the summary's duration is now
	# and then 1 or 2 ms instead of about DUR s, and its Ops/sec 1000 times
	# too high (it averages the connections' start and end times one field
	# at a time, run_stats.cpp timeval_factorial_average, and seconds are
	# truncated).  Its misses are Gets' count x Misses/(Hits+Misses), which
	# that duration cancels out of.
	python3 - "$T/mt.json" "$T/mt.time" $((m1 - m0)) "$T/mt.err" <<'PY'
import json, re, sys
a = json.load(open(sys.argv[1]))["ALL STATS"]
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
rate = re.findall(r"\(avg: *([0-9]+)\) ops/sec", open(sys.argv[4]).read())[-1]
n, sets, g = a["Totals"]["Count"], a["Sets"]["Count"], a["Gets"]
looked = g["Hits/sec"] + g["Misses/sec"]
print(rate, 100.0 * sets / n, 1e6 * (u + s) / n,
      round(g["Count"] * g["Misses/sec"] / looked) if looked else 0, sys.argv[3])
PY
}

# rs RATIO PATTERN P: one rsweep point; prints rps, the share of SETs in %,
# CPU us per request, its misses (nil replies) and server_misses, and the
# CPU us per request of the whole process (preparation included).
rs() {
	case $2 in uniform) dist=uniform ;; zipf) dist=zipf:1 ;; esac
	cli flushall >/dev/null
	/usr/bin/time -f '%U %S' -o "$T/rs.time" "$RSWEEP" run -s "$SOCK" --threads 1 -c 10 -d 32 -r "$KEYS" --key-dist "$dist" -P "$3" \
		--mode "$MODE" --ratio "$1" --duration "$DUR" --repeat 1 -o "$T/rs.csv" --overwrite -q \
		>/dev/null 2>"$T/rs.err" || { cat "$T/rs.err" >&2; exit 1; }
	python3 - "$T/rs.csv" "$T/rs.time" <<'PY'
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
n = int(r["requests"])
sent = dict(kv.split("=") for kv in r["mix_sent"].split(";"))
print(r["rps"], 100.0 * int(sent["SET"]) / n, 1e6 * float(r["client_cpu_s"]) / n,
      r["misses"], r["server_misses"] or "-", 1e6 * (u + s) / n)
PY
}

echo "# $(basename "$MEMTIER") ($("$MEMTIER" --version 2>&1 | head -1)) vs rsweep ($("$RSWEEP" --version | head -1))"
echo "# $(redis-server --version | cut -d' ' -f1-3), UNIX socket, 1 thread x 10 conns, -d 32," \
	"$KEYS keys, ${DUR} s points, $PAIRS interleaved pairs, medians, rsweep --mode $MODE; $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
printf '%-5s %-7s %3s %10s %10s %6s  %5s %5s  %6s %6s %6s  %7s %7s %7s %7s\n' \
	S:G keys P "mt ops/s" "rs rps" rs/mt "mt" "rs" "mt" "rs" "rs all" "mt" "mt srv" "rs" "rs srv"
printf '%-5s %-7s %3s %10s %10s %6s  %11s  %20s  %31s\n' "" "" "" "" "" "" "set%" "client CPU us/req" "GET misses per point"
for ratio in 1:10 1:4; do
	for keys in uniform zipf; do
		for P in 1 16; do
			: >"$T/mt.all"; : >"$T/rs.all"; : >"$T/r"
			for _ in $(seq "$PAIRS"); do
				# Through a file: a failed point must stop the script.
				mt $ratio $keys $P >"$T/pt"
				cat "$T/pt" >>"$T/mt.all"
				a=$(cut -d' ' -f1 "$T/pt")
				rs $ratio $keys $P >"$T/pt"
				cat "$T/pt" >>"$T/rs.all"
				echo "$a $(cut -d' ' -f1 "$T/pt")" | awk '{ print $2 / $1 }' >>"$T/r"
			done
			printf '%-5s %-7s %3s %10.0f %10.0f %6.2f  %5.1f %5.1f  %6.2f %6.2f %6.2f  %7.0f %7.0f %7.0f %7s\n' \
				$ratio $keys $P "$(col "$T/mt.all" 1)" "$(col "$T/rs.all" 1)" "$(median <"$T/r")" \
				"$(col "$T/mt.all" 2)" "$(col "$T/rs.all" 2)" "$(col "$T/mt.all" 3)" "$(col "$T/rs.all" 3)" \
				"$(col "$T/rs.all" 6)" "$(col "$T/mt.all" 4)" "$(col "$T/mt.all" 5)" \
				"$(col "$T/rs.all" 4)" "$(col "$T/rs.all" 5)"
		done
	done
done
