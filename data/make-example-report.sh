#!/bin/sh
# data/make-example-report.sh [RSWEEP]: data/example-report.html, the html
# report of job 2's file (data/aof.csv: one redis-server binary spawned as
# plain and with --appendonly yes, interleaved), written again.  RSWEEP is
# the binary (default: the build tree's src/rsweep); run from anywhere.
# Nothing is measured, and the report's intervals are bootstraps with a
# fixed seed, so the same CSV and the same rsweep write the same page.
# data/aof.csv was recorded before rsweep kept a run's environment
# (FILE.csv.env), so the page says none was recorded; a file of a run of
# today's rsweep gets its environment table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rs=${1:-$top/src/rsweep}
cd "$top"
"$rs" report --format html --baseline plain -o data/example-report.html data/aof.csv
echo "wrote data/example-report.html"
