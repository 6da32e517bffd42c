#!/bin/sh
# Faults against a real server: a hung server (SIGSTOP), a restart between
# points (--retries), auth errors, a forbidden FLUSHALL,
# maxclients below -c.  Each fails plainly and in bounded time.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# A hung server: the point fails after --timeout, saying so.
t_hung() {
	start_redis
	"$RSWEEP" run -s "$SOCK" -t get -P 1 -n 100000000 -c 5 --timeout 1 -q >/dev/null 2>"$T/err" &
	pid=$!
	# Stopped mid-point, once the engine's requests are reaching it.
	gets_started() { [ "$(get_calls)" -gt 0 ]; }
	wait_for 10 "hung server: the point never started" gets_started
	kill -STOP "$REDIS_PID"
	wait "$pid"
	st=$?
	[ "$st" = 1 ] || fail "hung server: exit $st"
	grep -q "stopped answering" "$T/err" || fail "hung server: $(cat "$T/err")"
	stop_redis
}
tcase 'a hung server fails the point after --timeout' t_hung

# Control connection too: a server stopped before rsweep connects.
t_stopped() {
	start_redis
	kill -STOP "$REDIS_PID"
	expect_status 1 timeout 20 "$RSWEEP" run -s "$SOCK" -t get -n 100 --timeout 1 --connect-timeout 1
	grep -q "stopped answering\|timed out" "$T/err" || fail "stopped before connect: $(cat "$T/err")"
	stop_redis
}
tcase 'a server stopped before rsweep connects times out' t_stopped

# A restart between points: --retries reconnects and the CSV is complete.
t_restart() {
	start_redis
	"$RSWEEP" run -s "$SOCK" -t set,get -P 1..8 -n 20000 -c 10 --repeat 1 --retries 5 --timeout 5 \
		-o "$T/r.csv" -q >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/r.csv" 3
	stop_redis
	# Restarted only once rsweep has seen it gone: a restart quicker than
	# that would test nothing.
	wait_for 10 "restart: rsweep never noticed the server was gone" grep -q "retry 1 of 5" "$T/err"
	start_redis
	wait "$pid"
	st=$?
	[ "$st" = 0 ] || fail "restart: exit $st: $(cat "$T/err")"
	[ "$(rows "$T/r.csv")" = 16 ] || fail "restart: $(rows "$T/r.csv") rows"
	check_csv "$T/r.csv"
	grep -q "retry 1 of 5" "$T/err" || fail "restart: no retry note: $(cat "$T/err")"
	stop_redis
}
tcase 'a restart between points: --retries reconnects, the CSV is whole' t_restart

# A full disk: see run_csv_file.sh (rows go to regular files only, so not
# to /dev/full).

# Passwords: none given to a server that needs one; a wrong one; never echoed.
t_passwords() {
	start_redis --requirepass s3cret-pw
	expect_status 1 "$RSWEEP" run -s "$SOCK" -t get -n 100
	grep -q "needs a password (NOAUTH)" "$T/err" || fail "noauth: $(cat "$T/err")"
	REDISCLI_AUTH=wrong-pw expect_status 1 "$RSWEEP" run -s "$SOCK" -t get -n 100
	grep -q "authentication failed" "$T/err" || fail "wrong password: $(cat "$T/err")"
	grep -q "wrong-pw" "$T/err" && fail "the password was printed"
	REDISCLI_AUTH=s3cret-pw expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -n 1000 -o "$T/p.csv" --force-flush
	grep -q "s3cret" "$T/p.csv" "$T/out" "$T/err" && fail "the password reached output or CSV"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -a s3cret-pw -t get -n 1000 --force-flush
	grep -q "Warning: Using a password with '-a'" "$T/err" || fail "no -a warning"
	grep -q "s3cret" "$T/out" && fail "the password reached output"
	stop_redis
}
tcase 'no password, a wrong one, and never one echoed' t_passwords

# FLUSHALL renamed away: a clear error, not a hang.
t_renamed() {
	start_redis --rename-command FLUSHALL ""
	expect_status 1 "$RSWEEP" run -s "$SOCK" -t get -n 100
	grep -q "FLUSHALL is renamed or forbidden" "$T/err" || fail "renamed: $(cat "$T/err")"
	stop_redis
}
tcase 'FLUSHALL renamed away is a clear error' t_renamed

# FLUSHALL forbidden by ACL for rsweep's user.
t_acl() {
	start_redis
	rcli acl setuser bench on '>pw' '~*' '&*' '+@all' '-flushall' >/dev/null
	REDISCLI_AUTH=pw expect_status 1 "$RSWEEP" run -s "$SOCK" --user bench -t get -n 100
	grep -q "FLUSHALL is renamed or forbidden" "$T/err" || fail "acl: $(cat "$T/err")"
	stop_redis
}
tcase 'FLUSHALL forbidden by ACL is a clear error' t_acl

# maxclients below -c: reported plainly.
t_maxclients() {
	start_redis --maxclients 5
	expect_status 1 "$RSWEEP" run -s "$SOCK" -t get -n 100 -c 20
	grep -q "max number of clients" "$T/err" || fail "maxclients: $(cat "$T/err")"
	stop_redis
}
tcase 'maxclients below -c is reported plainly' t_maxclients

# WRONGTYPE: a point whose replies are all errors is never a fast success.
t_errors() {
	start_redis
	rcli set mylist not-a-list >/dev/null
	expect_status 1 "$RSWEEP" run -s "$SOCK" -t lpop -n 1000 --no-prepare --flush none --force-flush \
		-o "$T/w.csv" -q
	grep -q "1000 ERRORS of 1000 replies" "$T/out" || fail "wrongtype: $(cat "$T/out")"
	grep -q "nothing but errors (first: WRONGTYPE" "$T/err" || fail "wrongtype: $(cat "$T/err")"
	grep -q ",1000,.*WRONGTYPE" "$T/w.csv" || fail "wrongtype: errors column"
	# Errors that are not all: counted, exit 0; with --fail-on-error, exit 1.
	# INCR over two keys, one of which holds text: about half the replies fail.
	rcli del mylist >/dev/null
	rcli set k:000000000001 text >/dev/null
	expect_status 0 "$RSWEEP" run -s "$SOCK" --flush none --force-flush -r 2 -n 2000 -q \
		-o "$T/e.csv" -- INCR k:__rand_int__
	grep -q "ERRORS of 2000 replies" "$T/out" || fail "partial errors not shown: $(cat "$T/out")"
	errors=$(awk -F, 'NR == 2 { print $15 }' "$T/e.csv")
	[ "$errors" -gt 0 ] && [ "$errors" -lt 2000 ] || fail "errors column: $errors"
	expect_status 1 "$RSWEEP" run -s "$SOCK" --flush none --force-flush -r 2 -n 2000 -q \
		--fail-on-error -- INCR k:__rand_int__
	grep -q "3 points had error replies (first: ERR value is not an integer" "$T/err" ||
		fail "--fail-on-error: $(cat "$T/err")"
	stop_redis
}
tcase 'error replies: all errors fail, some are counted, --fail-on-error' t_errors

tcase_done
