#!/bin/sh
# Reads from a cluster's replicas (issue 47): --cluster --read-from
# replicas sends the read tests to each master's replica (READONLY), the
# writes and the preparation to the masters; --read-from all splits each
# master's share between it and its replica; counted exactly on each
# node's INFO commandstats.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
add_cluster_replicas

t_reads() {
	for p in $P1 $P2 $P3 $R1 $R2 $R3; do
		eval "g0_$p=$(cl_calls "$p" get)"
	done
	f=$T/reads.csv
	expect_status 0 "$RSWEEP" run --cluster -h 127.0.0.1 -p "$P1" --read-from replicas \
		-t get,set -n 3000 -P 1,4 -c 2 -r 1000 --repeat 1 -q -o "$f"
	# Two GET points of 3000, an equal share on each master's replica.
	for p in $R1 $R2 $R3; do
		eval "d=\$(($(cl_calls "$p" get) - g0_$p))"
		[ "$d" = 2000 ] || fail "replica $p ran $d GETs, wanted 2000"
	done
	for p in $P1 $P2 $P3; do
		eval "d=\$(($(cl_calls "$p" get) - g0_$p))"
		[ "$d" = 0 ] || fail "master $p ran $d GETs"
	done
	python3 - "$f" <<'PY' || fail "rows: $(cat "$f.bad")"
import csv, sys
bad = []
for r in csv.DictReader(open(sys.argv[1])):
    calls = [c.split("=")[1] for c in r["replica_calls"].split(";") if c]
    want = ["1000"] * 3 if r["test"] == "GET" else []
    if calls != want or r["server_calls"] != "3000" or r["read_from"] != "replicas" or \
       r["masters"] != "3" or r["redirects"] != "0":
        bad.append(str(r))
open(sys.argv[1] + ".bad", "w").write("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
tcase 'GET on the masters'"'"' replicas (READONLY), SET on the masters, counted exactly' t_reads

# --read-from all: each master's share split between the master (the odd
# request) and its replica.  -n 3001 over three masters: shares of 1001,
# 1000 and 1000, so P1 runs 501 GETs a point and R1 500, the others 500
# each; two points.
t_all() {
	for p in $P1 $P2 $P3 $R1 $R2 $R3; do
		eval "g0_$p=$(cl_calls "$p" get)"
	done
	f=$T/all.csv
	expect_status 0 "$RSWEEP" run --cluster -h 127.0.0.1 -p "$P1" --read-from all \
		-t get,set -n 3001 -P 1,4 -c 2 -r 1000 --repeat 1 -q -o "$f"
	for p in $P1 $P2 $P3 $R1 $R2 $R3; do
		want=1000
		[ "$p" = "$P1" ] && want=1002
		eval "d=\$(($(cl_calls "$p" get) - g0_$p))"
		[ "$d" = "$want" ] || fail "node $p ran $d GETs, wanted $want"
	done
	python3 - "$f" "$R1" <<'PY' || fail "rows: $(cat "$f.bad")"
import csv, sys
bad = []
for r in csv.DictReader(open(sys.argv[1])):
    calls = [c.split("=")[1] for c in r["replica_calls"].split(";") if c]
    want = ["500"] * 3 if r["test"] == "GET" else []
    if calls != want or r["server_calls"] != "3001" or r["read_from"] != "all" or \
       r["masters"] != "3" or r["redirects"] != "0" or r["requests"] != "3001":
        bad.append(str(r))
    # master_rps: each master's rate, its replica's share with it.
    if r["test"] == "GET" and len([m for m in r["master_rps"].split(";") if m]) != 3:
        bad.append("master_rps " + r["master_rps"])
open(sys.argv[1] + ".bad", "w").write("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
tcase '--read-from all: each master'"'"'s GETs split with its replica, counted exactly' t_all
tcase_done
