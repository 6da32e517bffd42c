#!/bin/sh
# rsweep report --latency-budget: for each series the depth with the most
# throughput whose latency is within the budget, with its bootstrap
# interval over repeats; "no depth meets the budget" when none does; in
# text, markdown, csv and json; bad input refused with one line and exit 2.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# GET: p99 rises with depth, 1 ms is crossed between P=8 and P=16; SET
# never meets it; a window series of GET is a series of its own.
{
	echo "label,test,pipeline,repeat,rps,p99_ms,p999_ms,mode"
	for r in 1 2 3; do
		echo "a,GET,1,$r,$((100000 + r)),0.2$r,0.5,lockstep"
		echo "a,GET,4,$r,$((300000 + r)),0.5$r,0.9,lockstep"
		echo "a,GET,8,$r,$((500000 + r * 1000)),0.9$r,1.5,lockstep"
		echo "a,GET,16,$r,$((600000 + r)),1.8$r,2.5,lockstep"
		echo "a,SET,1,$r,$((90000 + r)),1.5$r,2,lockstep"
		echo "a,SET,4,$r,$((200000 + r)),2.5$r,3,lockstep"
		echo "a,GET,1,$r,$((110000 + r)),0.3$r,0.6,window"
		echo "a,GET,4,$r,$((310000 + r)),0.6$r,1.1,window"
	done
	# One repeat of P=4 window over the budget: the median still meets it.
	echo "a,GET,4,4,310004,1.20,1.2,window"
} >"$T/b.csv"

t_text() {
	expect_status 0 "$RSWEEP" report "$T/b.csv" --latency-budget 1ms
	grep -q "^Latency budget: p99_ms <= 1 ms" "$T/out" || fail "no budget section: $(cat "$T/out")"
	grep -Eq "^  a +GET +8  502000 \\(501000-503000\\) +0\\.920 \\(0\\.910-0\\.930\\)$" "$T/out" ||
		fail "GET: $(grep GET "$T/out")"
	# No sidecar: -v says the percentiles are the repeats' medians.
	expect_status 0 "$RSWEEP" report "$T/b.csv" --latency-budget 1ms -v
	grep -q "b.csv has no histogram sidecar" "$T/err" || fail "no note: $(cat "$T/err")"
	grep -Eq "^  a +SET +-  no depth meets the budget \\(lowest 1\\.520 ms, at P=1\\)$" "$T/out" ||
		fail "SET: $(grep SET "$T/out")"
	grep -Eq "^  a +GET window +4  310002\\.5 |^  a +GET window +4  31000[23] .* marginal: the interval is over$" \
		"$T/out" || fail "GET window: $(grep window "$T/out")"
}
tcase 'text: the deepest GET within budget, no depth for SET, a window series of its own' t_text

t_p999() {
	expect_status 0 "$RSWEEP" report "$T/b.csv" --latency-budget 1ms --budget-metric p999_ms
	grep -Eq "^  a +GET +4  300002 " "$T/out" || fail "p999: $(grep ' GET ' "$T/out")"
}
tcase '--budget-metric p999_ms picks its own depth' t_p999

t_markdown() {
	expect_status 0 "$RSWEEP" report "$T/b.csv" --latency-budget 2500us --format markdown
	grep -q "^| a | SET | 1 | 90002 (90001-90003) | 1.520 (1.510-1.530) |$" "$T/out" ||
		fail "markdown: $(cat "$T/out")"
}
tcase '--format markdown' t_markdown

t_csv() {
	expect_status 0 "$RSWEEP" report "$T/b.csv" --latency-budget 1ms --format csv
	[ "$(head -1 "$T/out")" = "label,test,metric,budget_ms,found,depth,rps,rps_lo,rps_hi,latency_ms,latency_lo,latency_hi,merged,marginal,lowest_ms,lowest_depth" ] ||
		fail "csv header: $(head -1 "$T/out")"
	grep -q "^a,GET,p99_ms,1,1,8,502000.00,501000.00,503000.00,0.9200,0.9100,0.9300,0,0,0.2200,1$" "$T/out" ||
		fail "csv GET: $(cat "$T/out")"
	grep -q "^a,SET,p99_ms,1,0,,,,,,,,,,1.5200,1$" "$T/out" || fail "csv SET: $(cat "$T/out")"
}
tcase '--format csv' t_csv

t_json() {
	expect_status 0 "$RSWEEP" report "$T/b.csv" --latency-budget 1ms --format json
	grep -q '"latency_budget":{"metric":"p99_ms","budget_ms":1,"series":\[' "$T/out" ||
		fail "json: $(cat "$T/out")"
	grep -q '^{"label":"a","test":"GET","found":true,"depth":8,"rps":502000.00,' "$T/out" ||
		fail "json GET: $(grep GET "$T/out")"
	grep -q '^{"label":"a","test":"SET","found":false,"lowest_ms":1.5200,"lowest_depth":1}' "$T/out" ||
		fail "json SET: $(grep SET "$T/out")"
}
tcase '--format json' t_json

bad() {
	msg=$1
	shift
	expect_status 2 "$RSWEEP" report "$T/b.csv" "$@"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': not one line: $(cat "$T/err")"
	grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
}

t_bad() {
	bad "'1': a budget needs its unit (us, ms or s), as in 1ms" --latency-budget 1
	bad "'0ms': a budget is above 0" --latency-budget 0ms
	bad "'fastms': " --latency-budget fastms
	bad "--budget-metric goes with --latency-budget" --budget-metric p50_ms
	bad "option --budget-metric: " --latency-budget 1ms --budget-metric p42
}
tcase 'a bad budget or metric: one line, exit 2' t_bad

tcase_done
