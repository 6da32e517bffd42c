#!/bin/sh
# data/make-example-report.sh [RSWEEP]: data/example-report.html, the html
# report of data/aof-env.csv, written again.  RSWEEP is the binary
# (default: the build tree's src/rsweep); run from anywhere.  Nothing is
# measured, and the report's intervals are bootstraps with a fixed seed,
# so the same CSV and the same rsweep write the same page.
# data/aof-env.csv is job 2's recipe, small, recorded with its environment
# (data/aof-env.csv.env; its histograms are not kept, so the latency chart
# takes each point's median p99 over its repeats) on this project's 2-core
# VM while other work ran on it:
#   rsweep run --target plain=spawn: --target aof=spawn: \
#       --spawn-args 'aof=--appendonly yes --appendfsync always' \
#       -t get,set,incr,lpush -P 1,2,4,8,16,32 -n 20000 --repeat 3 -q -o aof-env.csv
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rs=${1:-$top/src/rsweep}
cd "$top"
"$rs" report --format html --baseline plain -o data/example-report.html data/aof-env.csv
echo "wrote data/example-report.html"
