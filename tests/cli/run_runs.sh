#!/bin/sh
# run_runs.sh: --runs N measures the whole plan N times, one run after
# another, each with its run number in the CSV; --resume counts a point
# done only in its own run; report counts each label's runs, and says
# what an interval between two labels of one run each leaves out (issue
# 33).  No timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# The run column of FILE, one value a line.
runs_of() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "run") c = i; next } { print $c }' "$1"
}

t_runs() {
	expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,2,4,8,16 -n 2000 -c 4 --repeat 1 \
		--runs 3 --run-pause 0.2 -q -l a -o "$T/a.csv"
	[ "$(rows "$T/a.csv")" = 30 ] || fail "$(rows "$T/a.csv") rows, want 30"
	[ "$(runs_of "$T/a.csv" | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = \
	  "1:10 2:10 3:10 " ] || fail "runs: $(runs_of "$T/a.csv" | sort | uniq -c)"
	grep -q "run 2 of 3" "$T/err" || fail "no run line: $(cat "$T/err")"
	# A resumed file: runs 1 to 3 are done, run 4 is new.
	expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,2,4,8,16 -n 2000 -c 4 --repeat 1 \
		--runs 4 --run-pause 0 --resume -q -l a -o "$T/a.csv"
	[ "$(rows "$T/a.csv")" = 40 ] || fail "$(rows "$T/a.csv") rows after --resume, want 40"
	[ "$(runs_of "$T/a.csv" | grep -c '^4$')" = 10 ] || fail "run 4 incomplete"
	expect_status 0 "$RSWEEP" report "$T/a.csv" --format json -o "$T/a.json"
	grep -q '"runs":4' "$T/a.json" || fail "json has no runs: $(head -c 600 "$T/a.json")"
	expect_status 0 "$RSWEEP" report "$T/a.csv"
	grep -q "Runs: a 4" "$T/out" || fail "no runs line: $(cat "$T/out")"
	grep -q "a GET: between runs" "$T/out" || fail "no variance line: $(cat "$T/out")"
}
tcase 'three runs of the plan, then a fourth by --resume, counted by report' t_runs

# The job is counted and timed whole (issue 44): the progress line counts
# every run's points, never starting again at 1, and one summary ends the
# job.  By default a run with -o prints no block a point (the CSV holds
# them); -v does.  No timing is asserted.
t_count() {
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,2 -n 2000 -c 4 --repeat 1 \
		--runs 3 --run-pause 0.1 -l a -o "$T/c.csv"
	[ "$(grep -c '^\[[0-9]*/6\] GET' "$T/err")" = 6 ] || fail "progress: $(cat "$T/err")"
	grep -q '^\[6/6\] GET' "$T/err" || fail "no [6/6]: $(cat "$T/err")"
	[ "$(grep -c ' points\{0,1\} .*in .* s timed' "$T/err")" = 1 ] || fail "summaries: $(cat "$T/err")"
	grep -q "^rsweep: 6 points (3 runs) in " "$T/err" || fail "summary: $(cat "$T/err")"
	grep -q "^rsweep: 6 points (every run), about " "$T/err" || fail "estimate: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "a block a point without -v: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,2 -n 2000 -c 4 --repeat 1 -v \
		-l a -o "$T/v.csv"
	[ "$(grep -c '^====== GET P=[12] ======$' "$T/out")" = 2 ] || fail "-v: $(cat "$T/out")"
	# Without -o the points are printed, one line each.
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,2 -n 2000 -c 4 --repeat 1
	[ "$(grep -c '^GET P=[12]: [0-9.]* requests per second' "$T/out")" = 2 ] ||
		fail "no -o: $(cat "$T/out")"
	! grep -q "======" "$T/out" || fail "blocks without -v: $(cat "$T/out")"
}
tcase 'three runs are one job: counted and timed whole, one summary; blocks only with -v' t_count

t_apart() {
	for l in a b; do
		expect_status 0 "$RSWEEP" run --spawn -t get -P 1,2,4,8,16 -n 2000 -c 4 --repeat 2 -q \
			-l $l -o "$T/one-$l.csv"
	done
	expect_status 0 "$RSWEEP" report "$T/one-a.csv" "$T/one-b.csv" --prose
	grep -q "b against a: one run each: the intervals hold the noise within each run, not the drift between runs" "$T/out" ||
		fail "no one-run note: $(cat "$T/out")"
	grep -q "from its run's first third to its last" "$T/out" || fail "no drift of its own: $(cat "$T/out")"
	grep -q "(one run each: the drift between runs is not in the interval)" "$T/out" ||
		fail "prose does not say it: $(cat "$T/out")"
	# Where each series' noise is: in the wide report, one run's too.
	expect_status 0 "$RSWEEP" report "$T/one-a.csv" "$T/one-b.csv" --wide
	grep -q "^    b GET: one run: between runs unknown, within the run ±[0-9.]*% at the peak; one point ±" \
		"$T/out" || fail "no noise line: $(cat "$T/out")"
	# One invocation, targets interleaved: the same run, no such note.
	expect_status 0 "$RSWEEP" run --target a=spawn: --target b=spawn: -t get \
		-P 1,2,4 -n 2000 -c 4 --repeat 2 -q -o "$T/ab.csv"
	expect_status 0 "$RSWEEP" report "$T/ab.csv"
	! grep -q "one run each" "$T/out" || fail "interleaved targets read as runs apart"
}
tcase 'two labels of one run each: the interval says what it leaves out' t_apart

t_bad() {
	expect_status 2 "$RSWEEP" run --spawn -t get -P 1 --runs 0 -o "$T/x.csv"
	grep -q -- "--runs" "$T/err" || fail "$(cat "$T/err")"
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,2 --runs 3 --run-pause 5 --dry-run
	grep -q "runs: 3" "$T/out" || fail "dry run: $(cat "$T/out")"
	expect_status 2 "$RSWEEP" run --spawn -t get -P 1 --run-pause 5 --dry-run
	grep -q -- "--run-pause goes with --runs" "$T/err" || fail "$(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --control redis://127.0.0.1:1 --agents 2 --runs 2 -h 127.0.0.1 \
		-t get -P 1 --dry-run
	grep -q -- "--agents measures one run at a time: drop --runs" "$T/err" || fail "$(cat "$T/err")"
}
tcase '--runs 0, --run-pause alone and --runs with --agents are refused; the dry run names the runs' t_bad

tcase_done
