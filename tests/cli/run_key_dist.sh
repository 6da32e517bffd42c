#!/bin/sh
# run_key_dist.sh: --key-dist end to end.  Exact counts under zipf; the
# server's keyspace after SET shows the skew (fewer distinct keys than
# uniform for the same draws); sequential INCRs every key exactly once a
# pass across threads and connections; bad specs and options that do not
# go with it are refused with one line and exit 2; a resume refuses
# another distribution, and the rows say which one they drew.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_zipf_counts() {
	expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,16 -r 1000 --key-dist zipf:0.99 \
		-n 20000 --repeat 1 -q -o "$T/z.csv"
	[ "$(rows "$T/z.csv")" = 4 ] || fail "z.csv has $(rows "$T/z.csv") rows"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != 20000 || $c["server_calls"] != 20000 || $c["errors"] != 0 ||
		$c["key_dist"] != "zipf:0.99" || $c["keyspace"] != 1000 { print "row " NR ": " $0; bad = 1 }
		END { exit bad }' "$T/z.csv" >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
}
tcase 'zipf: every request counted, the server ran each, the rows say zipf:0.99' t_zipf_counts

# The same 20,000 SETs over 100,000 keys: uniform writes about 18,000 keys,
# zipf:0.99 far fewer (its top ranks take most draws).  --flush none leaves
# the keys for DBSIZE; the test flushes its own server between runs.
dbsize_after() {
	rcli FLUSHALL >/dev/null
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t set -P 16 -r 100000 -n 20000 --repeat 1 \
		--flush none -q "$@"
	rcli DBSIZE
}

t_fewer_keys() {
	start_redis
	uni=$(dbsize_after)
	zipf=$(dbsize_after --key-dist zipf:0.99)
	hot=$(dbsize_after --key-dist hotspot:0.01:1)
	stop_redis
	# 1 - e^-0.2 of 100,000
	[ "$uni" -gt 17000 ] && [ "$uni" -lt 19000 ] || fail "uniform wrote $uni keys"
	[ "$zipf" -lt $((uni * 2 / 3)) ] || fail "zipf wrote $zipf keys, uniform $uni"
	# every draw in the hot 1%: at most 1,000 keys
	[ "$hot" -le 1000 ] || fail "hotspot:0.01:1 wrote $hot keys"
}
tcase 'under zipf SET writes fewer distinct keys than under uniform' t_fewer_keys

# 3,000 INCRs of counter:__rand_int__ over 1,000 keys, 7 connections on 2
# threads, windows of 3: three passes, each counter exactly 3.
t_sequential() {
	start_redis
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t incr -P 3 --mode window -c 7 --threads 2 \
		-r 1000 -n 3000 --repeat 1 --flush none --key-dist sequential -q -o "$T/s.csv"
	[ "$(rcli DBSIZE)" = 1000 ] || fail "DBSIZE $(rcli DBSIZE)"
	rcli EVAL "local bad = {}
		for i = 0, 999 do
			local k = string.format('counter:%012d', i)
			local v = redis.call('GET', k)
			if v ~= '3' then table.insert(bad, k .. '=' .. tostring(v)) end
		end
		return table.concat(bad, ' ')" 0 >"$T/counters"
	stop_redis
	[ -z "$(tr -d '\n' <"$T/counters")" ] || fail "counters not 3: $(head -c 300 "$T/counters")"
	grep -q ',sequential,' "$T/s.csv" || fail "no sequential in the row: $(cat "$T/s.csv")"
}
tcase 'sequential covers every key once a pass, across threads and connections' t_sequential

t_refused() {
	run_refused "--key-dist draws the keys of -r N: give -r N" -t get --key-dist zipf
	run_refused "--key-dist draws the keys of -r N: give -r N" -t get -r 0 --key-dist zipf
	run_refused "--key-dist: zipf:S needs S > 0: 'zipf:0'" -t get -r 100 --key-dist zipf:0
	run_refused "--key-dist: 'pareto' is no key distribution" -t get -r 100 --key-dist pareto
	run_refused "--key-dist: gaussian:SIGMA needs SIGMA > 0" -t get -r 100 --key-dist gaussian:-1
	run_refused "--key-dist: hotspot:FRACTION:SHARE needs SHARE in 0..1" -t get -r 100 \
		--key-dist hotspot:0.1:2
	run_refused "hotspot:0.01:0.8 over -r 10 leaves the hot set without a key" -t get -r 10 \
		--key-dist hotspot:0.01
	run_refused "--cluster draws each master's keys uniformly: drop --key-dist" -h 127.0.0.1 -p 1 \
		--cluster -t get -r 100 --key-dist zipf
}
tcase 'a bad spec, no -r or --cluster: one line, exit 2, no file' t_refused

# A sweep file takes the key too.
t_sweepfile() {
	printf 'keyspace = 100\nkey-dist = gaussian:0.1\n' >"$T/k.sweep"
	expect_status 0 "$RSWEEP" run --spawn --sweep "$T/k.sweep" -t get -n 500 --repeat 1 -q \
		-o "$T/f.csv"
	grep -q ',gaussian:0.1,' "$T/f.csv" || fail "no gaussian:0.1: $(cat "$T/f.csv")"
}
tcase 'key-dist in a sweep file' t_sweepfile

t_resume() {
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1 -r 1000 --key-dist zipf -n 500 \
		--repeat 1 -q -o "$T/r.csv"
	expect_status 2 "$RSWEEP" run --spawn -t get -P 1,2 -r 1000 -n 500 --repeat 1 -q \
		-o "$T/r.csv" --resume
	grep -q "was measured with --key-dist zipf:0.99, this run uses --key-dist uniform" \
		"$T/err" || fail "resume with uniform: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1,2 -r 1000 --key-dist zipf:0.99 -n 500 \
		--repeat 1 -q -o "$T/r.csv" --resume
	[ "$(rows "$T/r.csv")" = 2 ] || fail "r.csv has $(rows "$T/r.csv") rows"
	# Random keys without --key-dist are uniform; fixed keys say nothing.
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1 -r 10 -n 100 --repeat 1 -q -o "$T/u.csv"
	grep -q ',uniform,' "$T/u.csv" || fail "no uniform: $(cat "$T/u.csv")"
	expect_status 0 "$RSWEEP" run --spawn -t get -P 1 -n 100 --repeat 1 -q -o "$T/x.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["key_dist"] != "" { exit 1 }' "$T/x.csv" || fail "fixed keys: $(cat "$T/x.csv")"
}
tcase 'a resume refuses another distribution; the rows say uniform or nothing' t_resume

tcase_done
