#!/bin/sh
# run --slo: bad spellings and options refused in one line (exit 2); on a
# private server, a search with a small budget of short probes writes its
# rows marked as the search's steps, report prints the answers, --resume
# goes on with the search; and a budget no generator can keep (1 us: its
# own send slip is over 10% of it) is said to be the generator's limit,
# not the server's.  Structure only: no timing, no count of live verdicts
# but the one the 1 us budget makes certain.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_spellings() {
	run_refused "--slo: 'p99' is not PERCENTILE=TIME" --slo p99
	run_refused "--slo: '1' is no time" --slo p99=1
	run_refused "--slo: '1xs' is no time" --slo p99=1xs
	run_refused "--slo: '0ms' is no time" --slo p99=0ms
	run_refused "--slo: 'p100' is no percentile" --slo p100=1ms
	run_refused "--slo: 'p99.9' is no percentile" --slo p99.9=1ms
	run_refused "--slo: 'p99' is given twice" --slo p99=1ms,p99=2ms
	run_refused "--slo: '' is not PERCENTILE=TIME" --slo p99=1ms,
	run_refused "--slo: empty" --slo ''
	run_refused "option --slo-probes: " --slo p99=1ms --slo-probes 0
}
tcase 'bad --slo spellings: one line, exit 2, no file' t_spellings

t_rules() {
	run_refused "--slo searches the rate itself: drop --rate" --slo p99=1ms --rate 10k
	run_refused "--slo repeats the probes it is unsure of: drop --precision" \
		--slo p99=1ms --precision 5
	run_refused "--slo-probes goes with --slo" --slo-probes 3
	run_refused "--cluster runs closed loop only, and --slo's probes are open loop" \
		--cluster -h 127.0.0.1 -p 7000 --slo p99=1ms
}
tcase '--slo with options it does not go with' t_rules

t_dry() {
	expect_status 0 "$RSWEEP" run --dry-run --slo p99=1ms,p999=5ms -P 1,4 -t get --repeat 1 \
		--slo-probes 4
	grep -q "^search: --slo p99=1ms,p999=5ms from each depth's closed-loop point: about 4 open-loop probes a depth (at most 4" "$T/out" ||
		fail "dry run: $(cat "$T/out")"
	grep -q "long enough for 50000 requests" "$T/out" || fail "dry run: $(cat "$T/out")"
	# The shipped sweep file reads, and searches.
	expect_status 0 "$RSWEEP" run --sweep "${RS_SRCDIR:-.}/sweeps/latency-objective.sweep" \
		--dry-run
	grep -q "^search: --slo p99=1ms " "$T/out" || fail "latency-objective.sweep: $(cat "$T/out")"
}
tcase '--dry-run estimates the search' t_dry

start_redis

# whole FILE: every line has the header's number of fields.
whole() {
	awk -F, 'NR == 1 { n = NF; next } NF != n { print "line " NR ": " NF; bad = 1 }
		END { exit bad }' "$1" || fail "$1 is not whole"
}

# slo_run OUT ARGS...: a small search on our server.
slo_run() {
	out=$1
	shift
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -c 4 --repeat 1 --warmup 0 \
		--duration 0.2 -q -o "$out" "$@"
}

t_search() {
	slo_run "$T/s.csv" --slo p99=5ms -P 1,4 --slo-probes 2
	whole "$T/s.csv"
	[ "$(csv_col "$T/s.csv" slo | sort -u)" = "p99=5ms" ] ||
		fail "rows not all of the search: $(csv_col "$T/s.csv" slo | sort -u)"
	[ "$(csv_col "$T/s.csv" slo_phase | grep -c '^start$')" = 2 ] ||
		fail "a start a depth: $(csv_col "$T/s.csv" slo_phase | tr '\n' ' ')"
	probes=$(csv_col "$T/s.csv" slo_phase | grep -c '^probe$')
	[ "$probes" -ge 2 ] && [ "$probes" -le 4 ] || fail "$probes probes for 2 depths at 2 each"
	# Every probe: a rate, a verdict, its slip; the start: closed loop.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["slo_phase"] == "probe" && ($c["rate_offered"] == "" ||
			$c["slo_verdict"] !~ /^(met|missed|unsure|generator)$/ ||
			$c["slip_p99_ms"] == "" || $c["client_cpu_s"] == "") { print NR; bad = 1 }
		$c["slo_phase"] == "start" && ($c["rate_offered"] != "" || $c["slo_verdict"] != "") {
			print NR; bad = 1 }
		END { exit bad }' "$T/s.csv" >"$T/bad" || fail "rows $(cat "$T/bad"): $(cat "$T/s.csv")"
	expect_status 0 "$RSWEEP" report "$T/s.csv"
	grep -q "^Within p99=5ms (--slo)" "$T/out" || fail "no --slo section: $(cat "$T/out")"
	grep -q "^vm GET: \|GET: " "$T/out" || fail "no sentence: $(cat "$T/out")"
	# The depth series are the closed-loop starts', not a series a rate.
	grep -q "@[0-9]*/s" "$T/out" && fail "probes became series: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report --format json "$T/s.csv"
	grep -q '^"slo":\[$' "$T/out" && grep -q '"objective":"p99=5ms"' "$T/out" ||
		fail "json: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report --format markdown "$T/s.csv"
	grep -q "^## Within p99=5ms (--slo)" "$T/out" || fail "markdown: $(cat "$T/out")"
	# --resume goes on with the searches: more probes, no start again.
	slo_run "$T/s.csv" --slo p99=5ms -P 1,4 --slo-probes 3 --resume
	whole "$T/s.csv"
	[ "$(csv_col "$T/s.csv" slo_phase | grep -c '^start$')" = 2 ] || fail "resume ran starts again"
	more=$(csv_col "$T/s.csv" slo_phase | grep -c '^probe$')
	[ "$more" -ge "$probes" ] && [ "$more" -le 6 ] || fail "resume: $probes then $more probes"
	expect_status 0 "$RSWEEP" plot -o "$T/s.svg" "$T/s.csv"
	# A plain sweep's file, resumed with --slo: its points are the starts.
	slo_run "$T/p.csv" -P 1,4
	slo_run "$T/p.csv" -P 1,4 --slo p99=5ms --slo-probes 1 --resume
	[ "$(csv_col "$T/p.csv" slo_phase | grep -c '^probe$')" = 2 ] ||
		fail "a plain file resumed with --slo: $(cat "$T/p.csv")"
}
tcase 'a search writes its steps, report answers, --resume goes on' t_search

t_generator() {
	slo_run "$T/g.csv" --slo p99=1us -P 1 --slo-probes 3
	grep -q "rsweep's own load generation was the limit" "$T/err" ||
		fail "no word of the generator: $(cat "$T/err")"
	grep -q -- "--threads" "$T/err" || fail "no way to give it more: $(cat "$T/err")"
	[ "$(csv_col "$T/g.csv" slo_verdict | grep -c '^generator$')" = 1 ] ||
		fail "verdicts: $(csv_col "$T/g.csv" slo_verdict | tr '\n' ' ')"
	expect_status 0 "$RSWEEP" report "$T/g.csv"
	grep -q "own load generation, not the server, was the limit" "$T/out" || fail "report: $(cat "$T/out")"
	grep -q "generator-limited" "$T/out" || fail "report's table: $(cat "$T/out")"
}
tcase 'a budget under the generator'"'"'s own slip: the generator was the limit' t_generator

tcase_done
