#!/bin/sh
# run_axes.sh: -c, -d and --threads lists as axes of a sweep.  Every
# combination once per test x depth x repeat, each row exact (requests =
# server_calls) and saying its own settings; the combinations of a point
# back to back; --resume adds a new value's points only and refuses a list
# that leaves out a measured value; a shared (not spawned) server takes
# the combinations one after another through the guard; bad lists are
# refused with one line and exit 2; report and plot read the file.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# rows FILE AWK-CONDITION: how many rows meet it.
count() {
	awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n += (want == "all") || ($c["clients"] "/" $c["data_size"] "/" $c["threads"] == want) }
		END { print n + 0 }' "$1"
}

expect_msg() {
	[ "$(wc -l <"$T/err")" = 1 ] || fail "message is not one line: $(cat "$T/err")"
	grep -qF -- "$1" "$T/err" || fail "'$(cat "$T/err")' does not say '$1'"
}

exact() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != $c["server_calls"] || $c["errors"] != 0 { print "row " NR ": " $0; bad = 1 }
		END { exit bad }' "$1" >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
}

t_product() {
	expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,8 -c 1,4 -d 3,100 -n 2000 \
		--repeat 2 -q -o "$T/p.csv"
	[ "$(rows "$T/p.csv")" = 32 ] || fail "p.csv has $(rows "$T/p.csv") rows, not 2x2x2x2x2"
	for combo in 1/3/1 4/3/1 1/100/1 4/100/1; do
		[ "$(count "$T/p.csv" "$combo")" = 8 ] || fail "$combo: $(count "$T/p.csv" "$combo") rows"
	done
	exact "$T/p.csv"
	# A point's four combinations run back to back: orders 1..4 are one
	# test, depth and repeat.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["order"] <= 4 { k[$c["test"] "/" $c["pipeline"] "/" $c["repeat"]]++ }
		END { n = 0; for (x in k) n++; exit n != 1 }' "$T/p.csv" ||
		fail "the first four points are not one point's combinations"
}
tcase 'c x d: every combination once a test, depth and repeat, exact, back to back' t_product

t_threads() {
	expect_status 0 "$RSWEEP" run --spawn -t get -P 4 -c 1,4 --threads 1,2 -n 2000 \
		--repeat 1 -q -o "$T/t.csv" 2>"$T/err"
	grep -q "1 combination of -c and --threads left out" "$T/err" || fail "no note: $(cat "$T/err")"
	[ "$(rows "$T/t.csv")" = 3 ] || fail "t.csv has $(rows "$T/t.csv") rows"
	[ "$(count "$T/t.csv" 4/3/2)" = 1 ] || fail "no c=4 t=2 row"
	exact "$T/t.csv"
}
tcase '--threads list: combinations with more threads than connections left out, said' t_threads

t_resume() {
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,8 -c 1,4 -n 2000 --repeat 2 -q \
		-o "$T/r.csv"
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,8 -c 1,4,16 -n 2000 --repeat 2 -q \
		-o "$T/r.csv" --resume
	[ "$(rows "$T/r.csv")" = 12 ] || fail "r.csv has $(rows "$T/r.csv") rows"
	[ "$(count "$T/r.csv" 16/3/1)" = 4 ] || fail "c=16 has $(count "$T/r.csv" 16/3/1) rows"
	expect_status 2 "$RSWEEP" run --spawn -t get -P 1,8 -c 4,16 -n 2000 --repeat 2 -q \
		-o "$T/r.csv" --resume
	expect_msg "was measured with -c 1, which this run's -c list leaves out"
}
tcase '--resume: a new value adds its points only; a list without a measured value refused' t_resume

t_shared_server() {
	start_redis
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get,set -P 1,4 -c 1,2 -n 2000 --repeat 1 -q \
		-o "$T/s.csv"
	[ "$(rows "$T/s.csv")" = 8 ] || fail "s.csv has $(rows "$T/s.csv") rows"
	exact "$T/s.csv"
	[ "$(rcli DBSIZE)" = 0 ] || fail "the server kept $(rcli DBSIZE) keys"
	stop_redis
}
tcase 'a server rsweep did not start: the combinations share it through the guard' t_shared_server

t_bad_lists() {
	expect_status 2 "$RSWEEP" run --spawn -t get -c 1,1
	expect_msg "1 is listed twice"
	expect_status 2 "$RSWEEP" run --spawn -t get -c 0,4
	expect_msg "0 is out of range (1 to 100000)"
	expect_status 2 "$RSWEEP" run --spawn -t get -c 1 --threads 2,4
	expect_msg "every combination has more threads than connections"
	expect_status 2 "$RSWEEP" run --spawn -c 1..4096 -t get
	expect_msg "more than 64 values"
	expect_status 2 "$RSWEEP" run --spawn -t get -c 1000..4000:+1000
	expect_msg "connections open at once"
	expect_status 2 "$RSWEEP" run --spawn -d 3,10 -- SET k v
	expect_msg "-d LIST with a custom command"
}
tcase 'bad lists: one line, exit 2' t_bad_lists

t_report_plot() {
	expect_status 0 "$RSWEEP" report "$T/p.csv"
	grep -q "GET c=1 d=100" "$T/out" || fail "report: $(head -20 "$T/out")"
	expect_status 0 "$RSWEEP" plot "$T/p.csv" -o "$T/p.png"
	[ -s "$T/p.png" ] || fail "no chart"
}
tcase 'report and plot: a series for each combination' t_report_plot

t_plot_by() {
	expect_status 0 "$RSWEEP" plot --by clients "$T/p.csv" -o "$T/by.pdf"
	pdftotext "$T/by.pdf" - >"$T/by.txt"
	grep -q "GET d=100" "$T/by.txt" && grep -q "vm c=4" "$T/by.txt" || fail "no GET d=100 panel, c=4 line: $(head -c 400 "$T/by.txt")"
	expect_status 2 "$RSWEEP" plot --by colour "$T/p.csv" -o "$T/x.png"
	expect_msg "--by: 'colour' is not one of clients, data-size, threads, server-args"
}
tcase 'plot --by clients: a line for each value; a bad axis refused' t_plot_by

t_server_args() {
	expect_status 0 "$RSWEEP" run --spawn --spawn-args '--io-threads 1|2' -t get -P 1,4 -c 4 \
		-n 2000 --repeat 1 -q -o "$T/a.csv"
	[ "$(rows "$T/a.csv")" = 4 ] || fail "a.csv has $(rows "$T/a.csv") rows"
	exact "$T/a.csv"
	for a in '--io-threads 1' '--io-threads 2'; do
		[ "$(grep -c ",$a," "$T/a.csv")" = 2 ] || fail "no two rows of $a: $(cat "$T/a.csv")"
	done
	expect_status 0 "$RSWEEP" report "$T/a.csv"
	grep -qF "GET [--io-threads 2]" "$T/out" || fail "report: $(head -12 "$T/out")"
	expect_status 2 "$RSWEEP" run --spawn --spawn-args '--io-threads 1||2' -t get
	expect_msg "has an empty alternative"
	expect_status 2 "$RSWEEP" run --spawn --spawn-args '--hz 1..64' --spawn-args \
		'--io-threads 1|2|3|4|5|6|7|8 --hz 10|20|30|40|50|60|70|80|90' -t get
	expect_msg "make more than 64 servers"
}
tcase '--spawn-args alternatives: a server each, rows say which, report tells them apart' \
	t_server_args

# More threads than cores, the server's io-threads and rsweep's --threads
# together, are warned of before the run (issue 44: an example estimated
# at 44 s ran for 12 minutes on two cores).
t_cores() {
	n=$(getconf _NPROCESSORS_ONLN)
	expect_status 0 "$RSWEEP" run --spawn --spawn-args "--io-threads 1|$n" -t get -P 1 -c 4 \
		--dry-run
	grep -q "warning: the spawned server's $n threads (--io-threads $n, target .*) and rsweep's 1 want $((n + 1)) CPUs, and this machine has $n: " "$T/err" ||
		fail "no warning: $(cat "$T/err")"
	if [ "$n" -ge 2 ]; then
		expect_status 0 "$RSWEEP" run --spawn --spawn-args "--io-threads 1" -t get -P 1 --dry-run
		! grep -q "want .* CPUs" "$T/err" || fail "warned of 2 threads: $(cat "$T/err")"
	fi
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1 -c 4 --threads "$n" --dry-run
	grep -q "warning: the spawned server's 1 thread and rsweep's $n want" "$T/err" ||
		fail "--threads: $(cat "$T/err")"
}
tcase "the server's threads and rsweep's beyond the cores are warned of before the run" t_cores

t_sweep_file() {
	printf 'clients = 1,2\ntests = get\npipeline = 1\nrequests = 1000\nrepeat = 1\n' \
		>"$T/x.sweep"
	expect_status 0 "$RSWEEP" run --spawn --sweep "$T/x.sweep" -q -o "$T/f.csv"
	[ "$(rows "$T/f.csv")" = 2 ] || fail "f.csv has $(rows "$T/f.csv") rows"
}
tcase 'a sweep file takes a list' t_sweep_file

tcase_done
