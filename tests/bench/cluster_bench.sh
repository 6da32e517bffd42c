#!/bin/sh
# cluster_bench.sh: rsweep --cluster side by side with redis-benchmark
# --cluster, on one private 3-master cluster on 127.0.0.1.
#
#   tests/bench/cluster_bench.sh [RSWEEP] [PAIRS]
#
# 1. Throughput: GET and SET at P=1 and P=16, interleaved pairs
#    (redis-benchmark, rsweep, ...), the median of the per-pair ratios.
#    The same connections in all: redis-benchmark -c 48 spreads them over
#    the masters, rsweep -c 16 opens 16 to each.
# 2. Client cost of routing keys: user-space instructions per request
#    under callgrind, GET -r 100000, -c 4: (Ir at -n 40000 - Ir at -n 10000)
#    / 30000, with --cluster on the cluster and without on a plain
#    server started for it: the difference is the routing.
# 3. DEPTHS=LIST (e.g. 1..40): GET over those depths, -c 16 -n 100000,
#    on the cluster (16 connections to each master) and on one plain
#    server (16 connections), sequential, one repeat each: the rps per
#    depth side by side.
# PAIRS=0 skips part 1, COST=0 part 2.  It prints figures; it does not
# pass or fail.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
PAIRS=${2:-${PAIRS:-3}}
N=${N:-200000}
command -v redis-benchmark >/dev/null || { echo "needs redis-benchmark (redis-tools)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
# Three ports whose cluster bus ports (+10000) are free too, and a fourth
# for the plain server.
set -- $(python3 -c 'import socket
out = []
while len(out) < 4:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
    if p + 10000 > 65535: continue
    try:
        b = socket.socket(); b.bind(("127.0.0.1", p + 10000)); b.close()
    except OSError: continue
    out.append(p)
print(*out)')
P1=$1 P2=$2 P3=$3 PLAIN=$4
PIDS=
for p in $P1 $P2 $P3; do
	mkdir -p "$T/$p"
	redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes \
		--cluster-config-file "$T/$p/nodes.conf" --dir "$T/$p" --save '' --appendonly no \
		--daemonize no --logfile "$T/$p/redis.log" &
	PIDS="$PIDS $!"
done
redis-server --port "$PLAIN" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
	--dir "$T" --logfile "$T/plain.log" &
PIDS="$PIDS $!"
trap 'kill $PIDS 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
for p in $P1 $P2 $P3 $PLAIN; do
	n=0
	until redis-cli -p "$p" ping >/dev/null 2>&1; do
		n=$((n + 1)); [ $n -lt 200 ] || { echo "node $p did not start"; exit 1; }; sleep 0.05
	done
done
redis-cli --cluster create 127.0.0.1:$P1 127.0.0.1:$P2 127.0.0.1:$P3 --cluster-replicas 0 \
	--cluster-yes >"$T/create.log" 2>&1
n=0
until [ "$(for p in $P1 $P2 $P3; do redis-cli -p $p cluster info | grep -c 'cluster_state:ok'; done |
	   paste -sd+ | bc)" = 3 ]; do
	n=$((n + 1)); [ $n -lt 400 ] || { echo "cluster not ok"; exit 1; }; sleep 0.05
done

rb_rps() {  # test P
	redis-benchmark --cluster -h 127.0.0.1 -p "$P1" -c 48 -n "$N" -P "$2" -t "$1" -r 100000 \
		--csv 2>/dev/null | awk -F'"' '$2 ~ /^(GET|SET)$/ { print $4 }'
}
rs_rps() {  # test P
	"$RSWEEP" run --cluster -h 127.0.0.1 -p "$P1" -c 16 -n "$N" -P "$2" -t "$1" -r 100000 \
		--force-flush --repeat 1 -o "$T/p.csv" --overwrite -q >/dev/null 2>&1 &&
		python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["rps"], r["busy_master"], float(r["busy_cpu_s"]) / float(r["seconds"]))' "$T/p.csv"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [ "$PAIRS" -gt 0 ]; then
echo "# 3-master cluster, -n $N -r 100000, 48 connections in all, $PAIRS interleaved pairs, $(date -u +%Y-%m-%d), $(nproc) cores"
printf '%-4s %4s  %16s %14s %7s %18s\n' test P "redis-benchmark" rsweep ratio "busiest master CPU"
for t in get set; do
	for P in 1 16; do
		: >"$T/a"; : >"$T/b"; : >"$T/r"; : >"$T/c"
		for _ in $(seq "$PAIRS"); do
			a=$(rb_rps $t $P); set -- $(rs_rps $t $P); b=$1
			echo "$a" >>"$T/a"; echo "$b" >>"$T/b"; echo "$3" >>"$T/c"
			echo "$a $b" | awk '{ print $2 / $1 }' >>"$T/r"
		done
		printf '%-4s %4s  %16.0f %14.0f %7.2f %18.2f\n' $t $P "$(median <"$T/a")" \
			"$(median <"$T/b")" "$(median <"$T/r")" "$(median <"$T/c")"
	done
done
fi

if [ "${COST:-1}" != 0 ] && command -v valgrind >/dev/null; then
	ir() {  # cluster|plain n
		if [ "$1" = cluster ]; then a="--cluster -p $P1"; else a="-p $PLAIN"; fi
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$RSWEEP" run -h 127.0.0.1 $a \
			-c 4 -n "$2" -P 16 -t get -r 100000 --no-prepare --repeat 1 --force-flush -q \
			>/dev/null 2>"$T/vg" || true
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$T/vg"
	}
	echo
	echo "# client cost: instructions per request (callgrind), GET -r 100000 -P 16 -c 4, $RSWEEP"
	a=$(( ($(ir plain 40000) - $(ir plain 10000)) / 30000 ))
	b=$(( ($(ir cluster 40000) - $(ir cluster 10000)) / 30000 ))
	printf '%-24s %8s\n' "one server" "$a" "--cluster, 3 masters" "$b"
fi

if [ -n "${DEPTHS:-}" ]; then
	for where in cluster plain; do
		if [ $where = cluster ]; then a="--cluster -p $P1"; else a="-p $PLAIN"; fi
		"$RSWEEP" run -h 127.0.0.1 $a -c 16 -n 100000 -P "$DEPTHS" -t get -r 100000 \
			--repeat 1 --order sequential --force-flush -o "$T/$where.csv" -q >/dev/null 2>&1
	done
	echo
	echo "# GET rps by depth, -c 16 -n 100000 -r 100000: a 3-master cluster and one server"
	python3 - "$T/cluster.csv" "$T/plain.csv" <<'PY'
import csv, sys
c = {int(r["pipeline"]): r for r in csv.DictReader(open(sys.argv[1]))}
p = {int(r["pipeline"]): r for r in csv.DictReader(open(sys.argv[2]))}
print("%4s %12s %12s %7s %16s" % ("P", "cluster rps", "server rps", "ratio", "busiest master"))
for d in sorted(c):
    rc, rp = float(c[d]["rps"]), float(p[d]["rps"])
    busy = float(c[d]["busy_cpu_s"]) / float(c[d]["seconds"])
    print("%4d %12.0f %12.0f %7.2f %12.2f CPU" % (d, rc, rp, rc / rp, busy))
PY
fi
