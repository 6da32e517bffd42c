#!/bin/sh
# run_expire.sh: --expire SECONDS (issue 29).  SET sends EX; INCR, the
# pushes, SADD, HSET and ZADD send an EXPIRE of the very key each wrote,
# one request of two commands, counted exactly; a read's prepared keys get
# the TTL; the rows say it; MSET, a write in a mix and a custom command
# are refused with one line.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_commands() {
	start_redis
	monitor_run "$T/mon" -t set,incr,lpush,get,lpop -P 4 -c 1 -n 400 -r 50 --repeat 1 -q \
		-o "$T/e.csv" --expire 77
	grep '"SET" "key:' "$T/mon" | grep -v '"EX" "77"$' | grep -v '"MSET"' >"$T/bad"
	[ ! -s "$T/bad" ] || fail "SET without EX 77: $(head -2 "$T/bad")"
	# One connection: each INCR's next command is the EXPIRE of its key.
	awk '{ c = $4; k = $5; conn = $3 }
		c == "\"INCR\"" { want[conn] = k; next }
		c == "\"EXPIRE\"" && (conn in want) {
			if (k != want[conn] || $6 != "\"77\"") bad++
			delete want[conn]; pairs++ }
		END { print pairs + 0, bad + 0 }' "$T/mon" >"$T/pairs"
	[ "$(cat "$T/pairs")" = "400 0" ] || fail "INCR and EXPIRE pairs (pairs, wrong): $(cat "$T/pairs")"
	# GET's 50 prepared keys and LPOP's list get the TTL.
	[ "$(grep -c '"EXPIRE" "key:' "$T/mon")" = 50 ] || fail "GET's keys: $(grep -c '"EXPIRE" "key:' "$T/mon")"
	grep -q '"EXPIRE" "mylist" "77"' "$T/mon" || fail "LPOP's list got no TTL"
	check_csv "$T/e.csv"
	[ "$(csv_col "$T/e.csv" expire | sort -u)" = 77 ] || fail "expire column"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ per = ($c["test"] == "INCR" || $c["test"] == "LPUSH") ? 2 : 1
		  if ($c["server_calls"] != $c["requests"] * per || $c["errors"] != 0) { print; bad = 1 } }
		END { exit bad }' "$T/e.csv" || fail "counts: $(cat "$T/e.csv")"
	grep -q 'LPUSH=400;EXPIRE=400' "$T/e.csv" || fail "LPUSH's mix_calls"
}
tcase 'SET EX, the other writes and EXPIRE, prepared keys: every command counted' t_commands

t_refused() {
	run_refused "--expire: MSET sets no TTL" --spawn -t mset --expire 5
	run_refused "--expire: LPUSH in a mix would need an EXPIRE of its own" --spawn \
		-t mix:get=1,lpush=1 --expire 5
	run_refused "--expire sets the catalogue's TTLs" --spawn --expire 5 -- SET a b
	run_refused "--expire" --spawn --expire 0
	run_refused "--cluster does not send --expire's EXPIRE after LPUSH yet" -h 127.0.0.1 -p 1 \
		--cluster -t lpush --expire 5
}
tcase 'MSET, a write in a mix and a custom command: one line, exit 2, no file' t_refused

tcase_done
