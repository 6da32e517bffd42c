#!/bin/sh
# data/readme.sh [RSWEEP]: every figure README.md shows, from the CSVs
# recorded in data/: the three jobs' charts (written over data/*.png) and
# the report lines the README quotes, printed under the README's headings
# so that the two can be compared.  RSWEEP is the binary (default: the
# build tree's src/rsweep); run from anywhere.  Nothing is measured: each
# CSV says how it was recorded (the commands are below, and in
# rsweep-methods(7)); the report's intervals are bootstraps with a fixed
# seed, so the same CSVs and the same rsweep print the same lines.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rs=${1:-$top/src/rsweep}
cd "$top"

# Job 1, two machines.  Recorded as two labels of the m1-article sweep on
# one VM, one over a UNIX socket and one over TCP, standing in for two
# machines (a second machine was not at hand):
#   rsweep run --spawn [--spawn-tcp] --sweep m1-article -n 100000 --label unix|tcp
echo "== Two machines: rsweep report --baseline tcp data/sweep-unix.csv data/sweep-tcp.csv"
"$rs" report --baseline tcp data/sweep-unix.csv data/sweep-tcp.csv |
	sed -n '/^Compared with/,/^$/p' | grep -E '^  (test|GET|SET|MSET|SPOP) '
"$rs" plot --kind speedup --baseline tcp --size 800x440 \
	--title "UNIX socket over TCP loopback, peak to peak" \
	data/sweep-unix.csv data/sweep-tcp.csv -o data/speedup.png

# Job 2, two installs or configurations of one server, interleaved:
#   rsweep run --target plain=spawn: --target aof=spawn: --spawn-args 'aof=--appendonly yes' \
#       -t get,set,incr,lpush,sadd,hset -P 1..16,24,32 -n 50000 -o data/aof.csv
echo "== Two installs: rsweep report --prose data/aof.csv"
"$rs" report --prose data/aof.csv | sed -n '/^In words/,/^$/p' | grep -E '^  (SET|GET): '
"$rs" plot --kind speedup --size 800x440 \
	--title "--appendonly yes over no, peak to peak (one binary, interleaved)" \
	data/aof.csv -o data/aof-speedup.png

# Job 3, one server over a UNIX socket, TCP and TLS, interleaved
# (tests/bench/transport_bench.sh recorded it).
echo "== UNIX socket against TCP: rsweep report data/transport.csv"
"$rs" report data/transport.csv | sed -n '/^Compared with/,/^$/p' | grep -E '^  (test|GET|SET) '
"$rs" plot data/transport.csv --kind multiples \
	--title "one redis-server over UNIX socket, TCP and TLS" -o data/transport.png

# A latency objective: a small run --slo search on this VM (tests/data/):
#   rsweep run -s SOCK -t get -c 2 --repeat 1 --warmup 0 --duration 0.3 \
#       --slo p99=50ms -P 1,4,16 --slo-probes 6 --label vm
echo "== A latency objective: rsweep report tests/data/slo-search.csv"
"$rs" report tests/data/slo-search.csv | grep '^vm GET: '

# The CI gate, on job 2's file: status 3, the verdicts first.
echo "== The CI gate: rsweep report data/aof.csv --baseline plain --fail-on slower:5 --format markdown"
st=0
"$rs" report data/aof.csv --baseline plain --fail-on slower:5 --format markdown \
	-o "${TMPDIR:-/tmp}/rsweep-readme-gate.md" || st=$?
sed -n '1,/^| GET /p' "${TMPDIR:-/tmp}/rsweep-readme-gate.md"
rm -f "${TMPDIR:-/tmp}/rsweep-readme-gate.md"
echo "exit status $st"
