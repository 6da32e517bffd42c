#!/bin/sh
# slo_bench.sh: run --slo's answer beside a brute-force grid of fixed
# rates, in one command.
#
#   tests/bench/slo_bench.sh [RSWEEP]
#
# Two rsweep runs, each on a private redis-server of its own (--spawn),
# GET over a UNIX socket at P=1,4,16 (DEPTHS), -c 50, one thread:
#   1. the search: --slo $SLO (p99=1ms), --slo-probes $PROBES (12), each
#      probe as long as its percentile needs (at least half a second);
#   2. the grid: --rate $GRID (20k..400k:+20k) at every depth, --duration
#      $GRID_S (0.5) each, judged as the search judges a probe by its
#      point estimate: p99 within the budget and the rate kept.
# Then, per depth: the search's answer (the highest rate that met the
# objective, its bracket, its probes, whether rsweep's own generator was
# the limit) beside the grid's (the highest grid rate that met it, the
# lowest above it that did not), and each run's wall time.
# redis-benchmark 7.0.15 (Debian 12) has no rate option, so it has no
# figure to stand beside these (valkey-benchmark --rps and memtier
# --rate-limiting do; they are not packaged in Debian 12).
# It prints figures; it does not pass or fail.  About 2 minutes on a quiet
# 2-core machine.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
SLO=${SLO:-p99=1ms}
PROBES=${PROBES:-12}
DEPTHS=${DEPTHS:-1,4,16}
GRID=${GRID:-20k..400k:+20k}
GRID_S=${GRID_S:-0.5}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-slo.XXXXXX")
trap 'rm -rf "$T"' EXIT

now() { date +%s.%N; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$(redis-server --version | sed 's/ sha=.*//'); GET -P $DEPTHS -c 50 --threads 1"
t0=$(now)
"$RSWEEP" run --spawn -t get -P "$DEPTHS" --repeat 1 --slo "$SLO" --slo-probes "$PROBES" \
	-q -o "$T/search.csv" >/dev/null 2>"$T/search.err" || { cat "$T/search.err"; exit 1; }
t1=$(now)
"$RSWEEP" run --spawn -t get -P "$DEPTHS" --repeat 1 --rate "$GRID" --duration "$GRID_S" \
	--order shuffled -q -o "$T/grid.csv" >/dev/null 2>"$T/grid.err" || { cat "$T/grid.err"; exit 1; }
t2=$(now)
echo "# rsweep run --spawn -t get -P $DEPTHS --repeat 1 --slo $SLO --slo-probes $PROBES"
sed 's/^/#   /' "$T/search.err"
echo "# rsweep run --spawn -t get -P $DEPTHS --repeat 1 --rate $GRID --duration $GRID_S --order shuffled"
python3 - "$T/search.csv" "$T/grid.csv" "$SLO" "$t0" "$t1" "$t2" <<'EOF'
import csv, re, sys

search, grid, slo = sys.argv[1], sys.argv[2], sys.argv[3]
t0, t1, t2 = (float(x) for x in sys.argv[4:7])
m = re.fullmatch(r"p(\d+)=([\d.]+)(us|ms|s)", slo)
if not m:
    sys.exit("this script judges the grid on one percentile: SLO=p99=1ms")
digits = m.group(1)
pct = float(digits[:2] + ("." + digits[2:] if len(digits) > 2 else ""))
budget = float(m.group(2)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(3)]
col = {50: "p50_ms", 95: "p95_ms", 99: "p99_ms", 99.9: "p999_ms"}.get(pct)
if col is None:
    sys.exit("the grid's rows have p50, p95, p99 and p999 only")

def k(v):
    return "-" if not v else "%.0fk" % (v / 1e3) if v >= 1e4 else "%.0f" % v

ans = {}
for r in csv.DictReader(open(search)):
    d = int(r["pipeline"])
    a = ans.setdefault(d, {"met": 0, "missed": 0, "probes": 0, "gen": 0, "start": 0,
                           "unsure": 0})
    if r["slo_phase"] == "start":
        a["start"] = max(a["start"], float(r["rps"]))
        continue
    rate, v = float(r["rate_offered"]), r["slo_verdict"]
    a["probes"] += 1
    if v == "met":
        a["met"] = max(a["met"], rate)
    elif v == "generator":
        a["gen"] = rate
    elif v == "unsure":
        a["unsure"] += 1
for d, a in ans.items():
    above = [float(r["rate_offered"]) for r in csv.DictReader(open(search))
             if r["slo_phase"] == "probe" and int(r["pipeline"]) == d and
             r["slo_verdict"] in ("missed", "unsure") and float(r["rate_offered"]) > a["met"]]
    a["missed"] = min(above) if above else 0

g = {}
for r in csv.DictReader(open(grid)):
    d = int(r["pipeline"])
    ok = float(r[col]) <= budget and r["rate_short"] == "0"
    g.setdefault(d, []).append((float(r["rate_offered"]), ok, float(r[col])))
print("%-5s | %-9s %-9s %-15s %6s %-10s | %-9s %-15s %s" % (
    "depth", "closed", "search", "met..missed", "probes", "generator", "grid", "met..missed",
    "holds"))
for d in sorted(ans):
    a = ans[d]
    pts = sorted(g.get(d, []))
    best = max([r for r, ok, _ in pts if ok], default=0)
    miss = min([r for r, ok, _ in pts if not ok and r > best], default=0)
    # Whether the search's bracket holds the grid's best (within a grid step).
    holds = "-" if not (a["met"] and best) else \
        "yes" if a["met"] <= best + 20000 and (not a["missed"] or best < a["missed"]) else "no"
    print("%-5d | %-9s %-9s %-15s %6d %-10s | %-9s %-15s %s" % (
        d, k(a["start"]), k(a["met"]), "%s..%s" % (k(a["met"]), k(a["missed"])), a["probes"],
        "at " + k(a["gen"]) if a["gen"] else "no", k(best), "%s..%s" % (k(best), k(miss)),
        holds))
n_search = sum(1 for _ in csv.DictReader(open(search)))
n_grid = sum(1 for _ in csv.DictReader(open(grid)))
print("wall time: search %.1f s (%d points), grid %.1f s (%d points): the search took %.2fx "
      "the grid's" % (t1 - t0, n_search, t2 - t1, n_grid, (t1 - t0) / (t2 - t1)))
EOF
echo
"$RSWEEP" report "$T/search.csv" | sed -n '/^Within/,$p'
