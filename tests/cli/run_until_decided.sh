#!/bin/sh
# rsweep run --until-decided[=BUDGET] (issue 42): with two targets, the
# points whose comparison is undecided are measured again, on both targets
# in turns, until each is decided, --max-repeats or the budget is reached;
# the run's last notes give the tally and name each point still undecided
# (or say "undecided: none"), with the verdict the report prints for it.
# Without a comparison to decide it is refused: one line, status 2.
#
# What is asserted does not depend on the machine's noise: that the run
# ends, that its rows are ordinary rows (paired, numbered on, resumable),
# that every point it names undecided got its extra repeats (unless the
# budget was spent), and that its words are the report's.  Which points
# are decided is noise's, and is printed, never counted; runs are bounded
# by -n, --max-repeats, the budget and --timeout, and no time is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_refused() {
	run_refused "give two --target" --spawn -t get -P 1 -n 100 --until-decided
	run_refused "one target has none" --target a=spawn: -t get -P 1 -n 100 --until-decided
	run_refused "--until-decided and --precision" --target a=spawn: --target b=spawn: \
		-t get -P 1 -n 100 --until-decided --precision 5
	run_refused "drop --budget" --target a=spawn: --target b=spawn: -t get -P 1 -n 100 \
		--until-decided --budget 10
	run_refused "--until-decided: '10x' is not a time" --target a=spawn: --target b=spawn: \
		-t get -P 1 -n 100 --until-decided=10x
	run_refused "--until-decided: '0' is out of range" --target a=spawn: --target b=spawn: \
		-t get -P 1 -n 100 --until-decided=0
}
tcase 'without a comparison, or with --precision, --budget or a bad budget: refused' t_refused

# The defaults (5 minutes, 20 repeats a point) and what overrides them,
# as --dry-run says them.
t_dry() {
	expect_status 0 "$RSWEEP" run --target a=spawn: --target b=spawn: -t get -P 1 \
		--until-decided --dry-run
	grep -q 'then --until-decided: .* up to 20 repeats a point, no new point after 300 s' \
		"$T/out" || fail "defaults: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" run --target a=spawn: --target b=spawn: -t get -P 1 \
		--until-decided=1.5m --max-repeats 7 --dry-run
	grep -q 'up to 7 repeats a point, no new point after 90 s' "$T/out" ||
		fail "--until-decided=1.5m --max-repeats 7: $(cat "$T/out")"
}
tcase '--dry-run: the budget and repeat cap, default and given' t_dry

F=$T/decide.csv

t_run() {
	expect_status 0 "$RSWEEP" run --target a=spawn:"$REDIS_SERVER" --target b=spawn: \
		-t get,set -P 1 --repeat 2 -n 2000 -c 4 --timeout 10 -q \
		--until-decided=20s --max-repeats 4 -o "$F"
	cp "$T/err" "$T/notes"
	sed 's/^/  /' "$T/notes"
	check_csv "$F"
	grep -q -- '--until-decided: ' "$T/notes" || fail "no --until-decided note: $(cat "$T/notes")"
	# Ordinary rows: each point's repeats numbered 1..k on both labels
	# alike, k between --repeat and --max-repeats, rows two by two one
	# point on both targets.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { p = $col["test"] " " $col["pipeline"]; k = $col["label"] " " p
		   if (seen[k " " $col["repeat"]]++) { print "repeat twice: " k; bad = 1 }
		   n[k]++; if ($col["repeat"] > hi[k]) hi[k] = $col["repeat"]
		   if ((NR - 2) % 2 == 0) first = p
		   else if (p != first) { print "row " NR ": " p " after " first; bad = 1 } }
		 END { for (k in n) {
			 if (n[k] != hi[k]) { print k ": " n[k] " rows, repeats to " hi[k]; bad = 1 }
			 if (n[k] < 2 || n[k] > 4) { print k ": " n[k] " repeats"; bad = 1 }
			 split(k, w, " "); o = (w[1] == "a" ? "b" : "a") " " w[2] " " w[3]
			 if (n[o] != n[k]) { print k ": " n[k] " repeats, " o ": " n[o]; bad = 1 } }
		       exit bad }' "$F" >"$T/why" || fail "rows: $(cat "$T/why")"
	expect_status 0 "$RSWEEP" report --format csv "$F" -o "$T/rep.csv"
	if grep -q 'undecided: none' "$T/notes"; then
		# Decided: the report's verdict at P=1 is faster, slower or same.
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			 $col["label"] == "b" && $col["verdict_at_1"] !~ /^(faster|slower|same)$/ {
				print $col["test"] ": " $col["verdict_at_1"]; bad = 1 }
			 END { exit bad }' "$T/rep.csv" >"$T/why" ||
			fail "the run said decided, the report: $(cat "$T/why")"
		return 0
	fi
	grep -q 'undecided: [A-Z]* P=1, b against a ' "$T/notes" ||
		fail "neither 'undecided: none' nor a list: $(cat "$T/notes")"
	# Each point named undecided: the report's verdict is the run's, and
	# (unless the budget ran out) it has all its --max-repeats on both.
	budget=0
	grep -q 'budget is spent' "$T/notes" && budget=1
	sed -n 's/.*undecided: \([A-Z]*\) P=1, b against a [^,]*, \(.*\), \([0-9]*\) repeats*$/\1,\2,\3/p' \
		"$T/notes" >"$T/open"
	[ -s "$T/open" ] || fail "undecided points not read from: $(cat "$T/notes")"
	while IFS=, read -r test verdict reps; do
		got=$(awk -F, -v t="$test" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["label"] == "b" && $col["test"] == t { print $col["verdict_at_1"] }' "$T/rep.csv")
		[ "$got" = "$verdict" ] || fail "$test: the run said '$verdict', the report '$got'"
		[ "$budget" = 1 ] || [ "$reps" = 4 ] || fail "$test undecided with $reps repeats of 4"
	done <"$T/open"
}
tcase 'two spawned targets: ends, rows paired and numbered on, the undecided named as the report words them' t_run

# --resume counts the extra repeats: nothing is measured twice.
t_resume() {
	[ -s "$F" ] || tcase_skip "no file from the run before"
	before=$(rows "$F")
	expect_status 0 "$RSWEEP" run --target a=spawn:"$REDIS_SERVER" --target b=spawn: \
		-t get,set -P 1 --repeat 2 -n 2000 -c 4 --timeout 10 -q \
		--until-decided=20s --max-repeats 4 -o "$F" --resume
	grep -q -- '--until-decided: ' "$T/err" || fail "no --until-decided note: $(cat "$T/err")"
	if grep -q 'budget is spent' "$T/notes"; then
		return 0  # the first run's budget ran out: --resume may measure more
	fi
	[ "$(rows "$F")" = "$before" ] || fail "$before rows before --resume, $(rows "$F") after"
}
tcase '--resume: the extra repeats count, nothing is measured again' t_resume

tcase_done
