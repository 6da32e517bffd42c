#!/bin/sh
# Two spawned servers from one binary, as two --target of one sweep: the
# rows alternate targets point by point (ABBA: a b, b a, a b, ...), every
# point is measured on both, the two servers are placed alike (issue 41:
# rsweep's default placement puts every spawned server on the same CPUs,
# apart from the load generator's, so the scheduler cannot keep one
# server on the client's core and the other on a free one for a whole
# sweep, a difference no interleaving removes), and `rsweep report`
# gives each test a verdict at the peak against the first target.
#
# What is asserted is what does not depend on the machine's noise: the
# order of the rows, the placement the rows record, and that the report
# compares b with a.  The verdicts themselves are printed, never counted:
# how often two alike servers are called different is a figure of
# tests/bench/aa_bench.sh (the README's trust section), not a pass or a
# fail of make check on a shared 2-core machine.  Every run is bounded by
# -n and --timeout; no timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# The CPUs this process may use (taskset, a cgroup): placement needs two.
NCPUS=$(getconf _NPROCESSORS_ONLN)
if command -v taskset >/dev/null 2>&1; then
	NCPUS=$(taskset -cp $$ 2>/dev/null | sed 's/.*: *//' | tr ',' '\n' |
		awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
fi

sweep() {
	f=$T/same-$1.csv
	expect_status 0 "$RSWEEP" run --target a=spawn:"$REDIS_SERVER" --target b=spawn: \
		-t get,set -P 1..8 --repeat 1 -n 4000 -c 4 --timeout 10 -q -o "$f"
	[ "$(rows "$f")" = 32 ] || fail "$(rows "$f") rows, wanted 32 (2 targets x 2 tests x 8 depths)"
	check_csv "$f"
	# Columns by name.  Rows 2k-1 and 2k are one point on both targets,
	# a first at odd k and b first at even k.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { k = int((NR - 2) / 2); lab = $col["label"]; pt = $col["test"] " " $col["pipeline"]
		   want = ((NR - 2) % 2 == 0) == (k % 2 == 0) ? "a" : "b"
		   if (lab != want) { print "row " NR ": label " lab ", wanted " want; exit 1 }
		   if ((NR - 2) % 2 == 0) first = pt
		   else if (pt != first) { print "row " NR ": " pt " after " first; exit 1 }
		   if ($col["order"] != NR - 1) { print "row " NR ": order " $col["order"]; exit 1 }
		   if ($col["target"] !~ /^spawn:\//) { print "row " NR ": target " $col["target"]; exit 1 } }' \
		"$f" || fail "the rows of $f do not alternate targets"
	# Placed alike, apart from the client when the process may use two
	# CPUs; on one, alike on that one.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { s[$col["server_cpus"]]++; c[$col["client_cpus"]]++; sv = $col["server_cpus"]
		   cl = $col["client_cpus"] }
		 END { ns = 0; for (k in s) ns++; nc = 0; for (k in c) nc++
		       if (ns != 1 || nc != 1 || sv == "") { print "placements differ"; exit 1 }
		       print sv " " cl }' "$f" >"$T/placed-$1" || fail "placement: $(cat "$T/placed-$1")"
	read -r sv cl <"$T/placed-$1"
	if [ "$NCPUS" -ge 2 ] && [ "$sv" = "$cl" ]; then
		fail "servers on CPUs $sv, the client on $cl: not apart"
	fi
	expect_status 0 "$RSWEEP" report --format csv "$f" -o "$T/rep-$1.csv"
	# Every test of b compared with a, with a verdict (which one is noise's).
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 $col["label"] == "b" { n++; v = $col["verdict_at_peak"]
			   printf "%s: %s (baseline %s)\n", $col["test"], v, $col["baseline"]
			   if (v == "" || $col["baseline"] != "a") bad = 1 }
		 END { if (n != 2) { print n + 0 " rows for b, wanted 2"; exit 2 }
		       exit bad }' \
		"$T/rep-$1.csv" >"$T/verdicts-$1"
	if grep -qE ": (faster|slower) " "$T/verdicts-$1"; then
		echo "note: b called different from a in one sweep (the A/A rate is aa_bench.sh's): \
$(tr '\n' ';' <"$T/verdicts-$1")" >&2
	fi
}

# --spawn-args reach the one server they name (and --spawn's without a
# label): a GET renamed away there answers errors, only there.
t_spawn_args() {
	expect_status 1 "$RSWEEP" run --target a=spawn: --target b=spawn: -t get -n 50 -q --repeat 1 \
		--spawn-args "b=--rename-command GET ''" -o "$T/args.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { e = $col["errors"]; t = $col["target"]; f = $col["first_error"] }
		 $col["label"] == "a" && (e != 0 || t ~ /rename/) { print "a: " e " errors, " t; bad = 1 }
		 $col["label"] == "b" && (e != 50 || t !~ /^spawn:\/.* --rename-command GET \047\047$/ ||
					  f !~ /unknown command/) { print "b: " e " errors, " t ", " f; bad = 1 }
		 END { exit bad || NR != 3 }' "$T/args.csv" || fail "--spawn-args: $(cat "$T/args.csv")"
	expect_status 1 "$RSWEEP" run --spawn --spawn-args "--rename-command GET ''" -t get -n 50 -q
	grep -q "unknown command" "$T/err" "$T/out" || fail "--spawn did not take --spawn-args: $(cat "$T/err")"
}
tcase '--spawn-args reach the one server they name' t_spawn_args

# --precision: whatever rounds it takes, each point measured again is
# measured on both targets, back to back in ABBA turns.
t_precision() {
	f=$T/prec.csv
	expect_status 0 "$RSWEEP" run --target a=spawn: --target b=spawn: -t get -P 1,2,3 --repeat 2 \
		--precision 1 --max-repeats 4 -n 1000 -c 4 --timeout 10 -q -o "$f"
	check_csv "$f"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { k = int((NR - 2) / 2); lab = $col["label"]; pt = $col["test"] " " $col["pipeline"]
		   want = ((NR - 2) % 2 == 0) == (k % 2 == 0) ? "a" : "b"
		   if (lab != want) { print "row " NR ": label " lab ", wanted " want; exit 1 }
		   if ((NR - 2) % 2 == 0) first = pt
		   else if (pt != first) { print "row " NR ": " pt " after " first; exit 1 }
		   n[lab]++ }
		 END { if (n["a"] != n["b"]) { print n["a"] " rows of a, " n["b"] " of b"; exit 1 }
		       if (n["a"] == 6) print "note: --precision measured no point again" }' \
		"$f" || fail "--precision's rounds do not pair the targets: $(cut -d, -f1-6 "$f")"
}
tcase '--precision measures a point again on both targets, in ABBA turns' t_precision

t_same() {
	sweep 1 || fail "a and b, one binary, placed on CPUs $(cat "$T/placed-1"): the report does \
not compare them: $(tr '\n' ';' <"$T/verdicts-1")"
	cat "$T/verdicts-1"
}
tcase "two spawned servers of one binary: measured in turns, placed alike, compared" t_same

tcase_done
