#!/bin/sh
# import_valkey.sh: rsweep import on valkey-benchmark's output, the captures
# checked in under tests/data/valkey (its README gives each command line):
# every figure a capture shows is the imported row's, read from the capture
# here by a reader of its own; the client column names valkey-benchmark
# where the capture or --from says so.  No server and no valkey are needed.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
D="${RS_SRCDIR:-.}/tests/data/valkey"

# field CSV ROW COLUMN: column COLUMN of data row ROW (1-based) of CSV.
field() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(rows[int(sys.argv[2]) - 1][sys.argv[3]])' "$1" "$2" "$3"
}

# same_figures CAPTURE CSV: each result of the capture (--csv lines, -q
# lines, or the default output's summaries), in order, has the rps and
# latencies it shows, equal as decimals, in the CSV's row; no other row.
same_figures() {
	python3 - "$1" "$2" <<'EOF' || fail "figures of $2 differ from $1"
import csv, re, sys
from decimal import Decimal
text = open(sys.argv[1], newline='').read().replace('\r', '\n')
cols = ("rps", "avg_ms", "min_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms")
want = []
for m in re.finditer(r'^"([A-Z_]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)"$', text, re.M):
    want.append((m.group(1), dict(zip(cols, m.groups()[1:]))))
for m in re.finditer(r'^([A-Z_]+): ([0-9.]+) requests per second, p50=([0-9.]+) msec$', text, re.M):
    want.append((m.group(1), {"rps": m.group(2), "p50_ms": m.group(3)}))
for m in re.finditer(r'^====== ([A-Z_]+) ======$.*?throughput summary: ([0-9.]+) requests per second$.*?max\n +([0-9. ]+)$', text, re.M | re.S):
    want.append((m.group(1), dict(zip(cols, [m.group(2)] + m.group(3).split()))))
got = list(csv.DictReader(open(sys.argv[2])))
bad = len(got) != len(want) or not want
for (test, figs), row in zip(want, got):
    if row["test"] != test:
        bad = True
    for k, v in figs.items():
        if Decimal(row[k]) != Decimal(v):
            print("%s %s: %s, the capture shows %s" % (test, k, row[k], v))
            bad = True
print("%d results compared" % len(want), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

# ---- every capture, every figure ----
t_figures() {
	for f in csv-P1.csv csv-P16.csv full-P16.txt full-threads.txt quiet-P4.txt session-loop.txt; do
		rm -f "$T/f.csv"
		expect_status 0 "$RSWEEP" import --from valkey -l v -o "$T/f.csv" "$D/$f"
		check_csv "$T/f.csv"
		same_figures "$D/$f" "$T/f.csv"
	done
}
tcase 'every figure of every capture is the imported row' t_figures

# ---- the client column ----
t_client() {
	# --csv output does not name its program: redis-benchmark 7's is the same.
	expect_status 0 "$RSWEEP" import -l v -o "$T/c.csv" "$D/csv-P16.csv"
	[ "$(field "$T/c.csv" 1 client)" = redis-benchmark ] || fail "plain: $(field "$T/c.csv" 1 client)"
	expect_status 0 "$RSWEEP" import --from valkey -P 16 -l v -o "$T/v.csv" "$D/csv-P16.csv"
	for r in 1 2; do
		[ "$(field "$T/v.csv" $r client)" = valkey-benchmark ] || fail "--from valkey: $(field "$T/v.csv" $r client)"
		[ "$(field "$T/v.csv" $r pipeline)" = 16 ] || fail "-P 16: $(field "$T/v.csv" $r pipeline)"
	done
	grep -q "2 rows from .*csv-P16.csv (valkey-benchmark --csv output, 1 run)" "$T/err" || fail "summary: $(cat "$T/err")"
	# The full output, without -P: the unknown depth is said, with the program.
	expect_status 0 "$RSWEEP" import --from valkey -l v -o "$T/full.csv" "$D/full-threads.txt"
	grep -q "does not show its pipeline depth: recorded as P=1 (valkey-benchmark's default)" "$T/err" ||
		fail "unknown depth: $(cat "$T/err")"
	[ "$(field "$T/full.csv" 1 clients)" = 10 ] && [ "$(field "$T/full.csv" 1 data_size)" = 64 ] &&
		[ "$(field "$T/full.csv" 2 requests)" = 20000 ] || fail "full: the block's figures"
}
tcase 'the client column: valkey-benchmark with --from valkey' t_client

# ---- a session: its version and command lines say it all ----
t_session() {
	expect_status 0 "$RSWEEP" import -l v -o "$T/s.csv" "$D/session-loop.txt"
	[ "$(rows "$T/s.csv")" = 6 ] || fail "session: $(rows "$T/s.csv") rows"
	for r in 1 2 3 4 5 6; do
		want=$(( r <= 2 ? 1 : r <= 4 ? 2 : 4 ))
		[ "$(field "$T/s.csv" $r pipeline)" = $want ] || fail "row $r: P=$(field "$T/s.csv" $r pipeline), wanted $want"
		[ "$(field "$T/s.csv" $r client)" = "valkey-benchmark 255.255.255" ] || fail "row $r: client $(field "$T/s.csv" $r client)"
		[ "$(field "$T/s.csv" $r target)" = unix:/tmp/vb/s.sock ] || fail "row $r: target $(field "$T/s.csv" $r target)"
		[ "$(field "$T/s.csv" $r clients)" = 10 ] || fail "row $r: clients $(field "$T/s.csv" $r clients)"
		[ "$(field "$T/s.csv" $r requests)" = 20000 ] || fail "row $r: requests $(field "$T/s.csv" $r requests)"
	done
	grep -q "the depth of 3 of 3 runs is the one its command line shows (line 3: -P 1)" "$T/err" ||
		fail "depth's origin: $(cat "$T/err")"
	# A -P that contradicts the command lines is refused, as redis-benchmark's.
	expect_status 2 "$RSWEEP" import -l v -P 8 -o "$T/no.csv" "$D/session-loop.txt"
	grep -q "session-loop.txt:3: the command line shows -P 1, but -P says 8" "$T/err" || fail "$(cat "$T/err")"
}
tcase "a session's version and command lines give the program, depths and target" t_session

# ---- export --format valkey-metrics: valkey-perf-benchmark's metrics.json ----
t_metrics() {
	expect_status 0 "$RSWEEP" import -q --from valkey -P 16 -l base -o "$T/m.csv" "$D/full-P16.txt"
	expect_status 0 "$RSWEEP" export --format valkey-metrics -o "$T/m.json" "$T/m.csv"
	# The man page's example record, key for key in valkey-perf-benchmark's
	# order; SET after GET (point order), every figure the capture's.
	python3 - "$T/m.json" <<'PY' || fail "metrics.json: $(cat "$T/m.json")"
import json, sys
recs = json.load(open(sys.argv[1]))
want_keys = ["timestamp", "commit", "repository", "command", "data_size", "pipeline", "clients",
             "rps", "avg_latency_ms", "min_latency_ms", "p50_latency_ms", "p95_latency_ms",
             "p99_latency_ms", "max_latency_ms", "cluster_mode", "tls", "requests"]
common = {"timestamp": None, "commit": "base", "repository": None, "data_size": 3, "pipeline": 16,
          "clients": 50, "min_latency_ms": None, "cluster_mode": None, "tls": None, "requests": 20000}
want = [dict(common, command="GET", rps=769230.75, avg_latency_ms=0.842, p50_latency_ms=0.751,
             p95_latency_ms=1.407, p99_latency_ms=2.615, max_latency_ms=2.743),
        dict(common, command="SET", rps=869565.19, avg_latency_ms=0.677, p50_latency_ms=0.583,
             p95_latency_ms=1.263, p99_latency_ms=1.647, max_latency_ms=1.831)]
ok = len(recs) == 2 and all(list(r) == want_keys for r in recs) and recs == want
if not ok:
    print(json.dumps(recs, indent=1), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
	# rsweep's own rows: a cluster, TLS, and neither; a -q import: nulls.
	python3 - "$T/m.csv" "$T/own.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
rows[0].update(client="rsweep 0.1.0", target="rediss://10.0.0.1:6380", masters="3", label='a"b\\c')
rows[1].update(client="rsweep 0.1.0", target="10.0.0.1:6379", masters="", label='a"b\\c')
w.writerows(rows)
PY
	expect_status 0 "$RSWEEP" export --format valkey-metrics -o "$T/own.json" "$T/own.csv"
	python3 - "$T/own.json" <<'PY' || fail "own rows: $(cat "$T/own.json")"
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if [(x["commit"], x["command"], x["cluster_mode"], x["tls"]) for x in r] ==
         [('a"b\\c', "GET", False, False), ('a"b\\c', "SET", True, True)] else 1)
PY
	expect_status 0 "$RSWEEP" import -q -l q -o "$T/q.csv" "$D/quiet-P4.txt"
	expect_status 0 "$RSWEEP" export --format valkey-metrics -o "$T/q.json" "$T/q.csv"
	python3 - "$T/q.json" <<'PY' || fail "-q rows: $(cat "$T/q.json")"
import json, sys
r = json.load(open(sys.argv[1]))
nulls = ["data_size", "clients", "avg_latency_ms", "min_latency_ms", "p95_latency_ms",
         "p99_latency_ms", "max_latency_ms", "requests"]
sys.exit(0 if [x["rps"] for x in r] == [266666.66, 281690.12] and
         [x["p50_latency_ms"] for x in r] == [0.359, 0.359] and
         all(x[k] is None for x in r for k in nulls) else 1)
PY
}
tcase 'export --format valkey-metrics writes valkey-perf-benchmark records' t_metrics

tcase_done
