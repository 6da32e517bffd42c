#!/bin/sh
# The report names the likely cause of each unstable point, from the noise
# figures its rows carry: rows measured for real, then given known figures
# (a depth whose repeats disagree, and what the machine did meanwhile).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1..4 -n 2000 -c 2 --repeat 3 -q -o "$T/m.csv"
# Depth 2: repeats 100k, 200k, 300k rps; repeat 3 saw 9% steal.  Depth 3:
# repeats 1.0M, 1.5M and 2.0M; repeat 1 saw other processes keep 1.3 CPUs
# busy.  Depth 4 disagrees with nothing recorded: no cause.  Depth 1 is
# steady (its measured figures would carry this machine's own noise).
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
	{ p = $col["pipeline"]; r = $col["repeat"]
	  $col["steal_pct"] = "0.00"; $col["other_cpus"] = "0.00"; $col["drift_pct"] = "1.0"
	  $col["client_nivcsw"] = 0; $col["server_cpu_s"] = ""
	  if (p == 1) $col["rps"] = 50000
	  if (p == 2) { $col["rps"] = r * 100000; if (r == 3) $col["steal_pct"] = "9.00" }
	  if (p == 3) { $col["rps"] = 500000 + r * 500000; if (r == 1) $col["other_cpus"] = "1.30" }
	  if (p == 4) $col["rps"] = 2000000 + r * 400000
	  print }' "$T/m.csv" >"$T/k.csv"

t_text() {
	expect_status 0 "$RSWEEP" report "$T/k.csv"
	grep -q "GET P=2: CV 50.0% over 3 repeats: the host took 9% of the CPU" "$T/out" ||
		fail "steal: $(cat "$T/out")"
	grep -q "GET P=3: CV 33.3% over 3 repeats: other processes kept 1.3 CPUs busy" "$T/out" ||
		fail "other load: $(cat "$T/out")"
	grep -q "GET P=4: .*no recorded cause" "$T/out" || fail "none: $(cat "$T/out")"
}
tcase "the text report names each unstable point's cause, or none" t_text

t_csv() {
	expect_status 0 "$RSWEEP" report --format csv "$T/k.csv" -o "$T/r.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { print $col["unstable_depths"] "/" $col["unstable_causes"] }' "$T/r.csv" >"$T/c"
	[ "$(cat "$T/c")" = "2 3 4/steal other-load none" ] || fail "csv: $(cat "$T/c")"
}
tcase '--format csv: unstable depths and their causes' t_csv

t_json() {
	expect_status 0 "$RSWEEP" report --format json "$T/k.csv"
	grep -q '"depth":2,"repeats":3,"cv":0.5000,"cause":"steal","why":"the host took 9% of the CPU"' \
		"$T/out" || fail "json: $(cat "$T/out")"
}
tcase "--format json: each unstable depth's cause and why" t_json

tcase_done
