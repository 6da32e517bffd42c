#!/bin/sh
# run_mix.sh: mixes as tests end to end (issue 29).  Every row of a mix:
# requests = server_calls = the sum of mix_sent, mix_sent equal to
# mix_calls member by member, GET's share within sampling error (a
# chi-square at its 1e-9 quantile, 37.33 for one degree of freedom: a
# correct draw fails it once in a billion runs); --ratio is the same mix
# of SET and GET; bad mixes are refused with one line, exit 2, no file;
# report and plot name the mix by its members' shares as sent.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_counts() {
	expect_status 0 "$RSWEEP" run --spawn -t 'mix:get=80,set=20' -P 1,16 -n 20000 -r 1000 \
		--repeat 1 -q -o "$T/m.csv"
	check_mix "$T/m.csv" "get=80+set=20" GET 80 SET 20 2
	grep -q '^[^,]*,MIX_GET80_SET20,' "$T/m.csv" || fail "test name: $(cat "$T/m.csv")"
}
tcase 'a mix at P=1 and 16: exact per member, the weights met' t_counts

# A mix among plain tests, in a window: the plain rows leave the columns empty.
t_among_tests() {
	expect_status 0 "$RSWEEP" run --spawn -t 'get,mix:get=1,set=1,incr' -P 7 --mode window \
		-c 5 --threads 2 -n 6001 --repeat 1 -q -o "$T/a.csv"
	[ "$(rows "$T/a.csv")" = 3 ] || fail "a.csv has $(rows "$T/a.csv") rows"
	grep ',MIX_GET1_SET1,' "$T/a.csv" >"$T/mixrow"
	{ head -1 "$T/a.csv"; cat "$T/mixrow"; } >"$T/a1.csv"
	check_mix "$T/a1.csv" "get=1+set=1" GET 1 SET 1 1
	unquote_mix "$T/a.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["test"] != "MIX_GET1_SET1" &&
		($c["mix"] != "" || $c["mix_sent"] != "" || $c["mix_calls"] != "") { exit 1 }' ||
		fail "plain rows with mix columns: $(cat "$T/a.csv")"
}
tcase 'a mix among plain tests, window and threads; plain rows have no mix' t_among_tests

# --ratio 1:4 is memtier's Set:Get: SET one part, GET four.
t_ratio() {
	expect_status 0 "$RSWEEP" run --spawn --ratio 1:4 -P 4 -n 10000 -r 100 --repeat 1 -q \
		-o "$T/r.csv"
	check_mix "$T/r.csv" "set=1+get=4" SET 1 GET 4 1
	grep -q ',MIX_SET1_GET4,' "$T/r.csv" || fail "test name: $(cat "$T/r.csv")"
}
tcase '--ratio S:G is the mix set=S,get=G' t_ratio

# share FILE MEMBER FMT: MEMBER's share of the requests sent, in percent
# as printf FMT writes it, over every row of FILE (its mix_sent summed).
share() {
	unquote_mix "$1" | awk -F, -v m="$2" -v fmt="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["mix_sent"] != "" {
			n = split($c["mix_sent"], a, ";")
			for (i = 1; i <= n; i++) { split(a[i], kv, "="); all += kv[2]; if (kv[1] == m) mine += kv[2] }
		}
		END { printf fmt, 100 * (mine / all) }'
}

# The report names the mix by its members' shares as sent, the rows' own
# (one line a mix, in text, markdown, json's notes and csv's columns), and
# says where the server's calls differ from them: a copy of the file whose
# SET calls are 7 short of what was sent.  Plot names them in the legend,
# in PNG and PDF alike.
t_report_plot() {
	[ -s "$T/m.csv" ] || expect_status 0 "$RSWEEP" run --spawn -t 'mix:get=80,set=20' \
		-P 1,16 -n 2000 --repeat 1 -q -o "$T/m.csv"
	g=$(share "$T/m.csv" GET %.1f) s=$(share "$T/m.csv" SET %.1f)
	line=" MIX_GET80_SET20: GET $g% and SET $s% of its requests as sent (weights 80:20)"
	expect_status 0 "$RSWEEP" report "$T/m.csv"
	[ "$(grep -cF "$line" "$T/out")" = 1 ] || fail "report: no '$line': $(cat "$T/out")"
	grep -F "$line" "$T/out" | grep -q "server counted" && fail "calls agree: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report -t mix --format markdown "$T/m.csv"
	grep -qF -- "$line" "$T/out" || fail "report -t mix: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report --format json "$T/m.csv"
	grep -qF "$line" "$T/out" || fail "json: $(cat "$T/out")"
	grep -qF "\"mix\":{\"weights\":\"get=80,set=20\",\"sent_pct\":{\"GET\":" "$T/out" ||
		fail "json mix: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report --format csv "$T/m.csv"
	pct="GET=$(share "$T/m.csv" GET %.2f);SET=$(share "$T/m.csv" SET %.2f)"
	tail -1 "$T/out" | grep -qF ",\"get=80,set=20\",$pct," || fail "csv: $(cat "$T/out")"
	# The first row's mix_calls, before data_size_range, expire,
	# server_cpus, client_cpus (a CPU list, quoted when it has a comma),
	# read_from, replica_calls, repl_lag and the empty first_error: SET's 7
	# less.
	awk 'NR == 2 { match($0, /;SET=[0-9]+,[^,]*,[^,]*,[^,]*,("[^"]*"|[^,]*),[^,]*,[^,]*,[^,]*,$/)
		       tail = substr($0, RSTART + 5)
		       n = substr(tail, 1, index(tail, ",") - 1)
		       $0 = substr($0, 1, RSTART - 1) ";SET=" n - 7 substr(tail, index(tail, ",")) }
		{ print }' "$T/m.csv" >"$T/d.csv"
	expect_status 0 "$RSWEEP" report "$T/d.csv"
	grep -F "$line" "$T/out" | grep -Eq "; the server counted [0-9]+ SET calls for [0-9]+ sent\$" ||
		fail "calls 7 short: $(cat "$T/out")"
	want="MIX_GET80_SET20 (GET $(share "$T/m.csv" GET %.0f)%, SET $(share "$T/m.csv" SET %.0f)%)"
	expect_status 0 "$RSWEEP" plot "$T/m.csv" -o "$T/m.png"
	[ -s "$T/m.png" ] || fail "no chart"
	expect_status 0 "$RSWEEP" plot "$T/m.csv" -o "$T/m.pdf"
	[ -s "$T/m.pdf" ] || fail "no PDF"
	if command -v pdftotext >/dev/null; then
		pdftotext "$T/m.pdf" - | grep -qF "$want" || fail "PDF: no '$want': $(pdftotext "$T/m.pdf" -)"
	fi
}
tcase 'report and plot name a mix by its members as sent (-t mix selects it)' t_report_plot

t_refused() {
	run_refused "mix 'get=80' has one member" --spawn -t mix:get=80
	run_refused "mix member 'GET' is named twice" --spawn -t mix:get=80,get=20
	run_refused "unknown test 'nosuch' in a mix" --spawn -t mix:get=80,nosuch=20
	run_refused "mix member 'set': weight 0 is out of range" --spawn -t mix:get=80,set=0
	run_refused "mix member 'set': weight 'x' is not a positive integer" --spawn -t mix:get=80,set=x
	run_refused "mix member 'lrange' names several tests" --spawn -t mix:get=1,lrange=1
	run_refused "has more than 16 members" --spawn -t "mix:ping_inline=1,ping_mbulk=1,set=1,get=1,incr=1,lpush=1,rpush=1,lpop=1,rpop=1,sadd=1,hset=1,spop=1,zadd=1,zpopmin=1,lrange_100=1,lrange_300=1,lrange_500=1"
	run_refused "--ratio '1:0': the GET weight is out of range" --spawn --ratio 1:0
	run_refused "--ratio 'x' is not S:G" --spawn --ratio x
	run_refused "--ratio S:G is -t mix:set=S,get=G: give one of them" --spawn --ratio 1:1 -t get
	run_refused "--ratio and a custom command after -- exclude each other" --spawn --ratio 1:1 -- SET a b
}
tcase 'bad mixes and --ratio: one line, exit 2, no file' \
	t_refused

tcase_done
