#!/bin/sh
# The guard during a sweep: keys another client writes while a sweep runs
# stop it before its next flush (exit 2, one line naming each database and
# its count) and survive; once rsweep has seen them it sends no FLUSHALL or
# FLUSHDB again, not even on its way out.  Both with the atomic check and
# flush (EVAL) and with the check-then-flush rsweep falls back to.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# foreign_keys_stop_the_sweep DBS [redis-server arguments...]: keys written
# into each database of DBS in turn while a sweep runs.  (The sweep's file
# goes first: a case that failed may have left its own.)
foreign_keys_stop_the_sweep() {
	dbs=$1
	shift
	rm -f "$T/a.csv"
	start_redis "$@"
	# 40 points with a pause between them: the keys land in a pause or a
	# point, and the next flush is the one that must not happen.
	"$RSWEEP" run -s "$SOCK" -t get,set -P 1..20 -n 20000 -c 10 --pause 0.2 -q \
		-o "$T/a.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/a.csv" 1
	for db in $dbs; do
		rcli -n "$db" set "foreign$db" x >/dev/null
	done
	wait "$pid"
	st=$?
	[ "$st" = 2 ] || fail "$dbs $*: exit $st, wanted 2: $(cat "$T/err")"
	# One line of error (after the summary of the points measured), naming
	# the first database written to: the sweep may stop before the next.
	[ "$(grep -c "^rsweep run:" "$T/err")" = 1 ] || fail "$dbs $*: not one line: $(cat "$T/err")"
	msg=$(grep "^rsweep run:" "$T/err")
	case $msg in
	*"another client is writing"*"db${dbs%% *}: "*) ;;
	*"db${dbs%% *}: "*"another client is writing"*) ;;
	*) fail "$dbs $*: $msg" ;;
	esac
	for db in $dbs; do
		[ "$(rcli -n "$db" get "foreign$db")" = x ] || fail "$dbs $*: foreign$db was flushed"
	done
	check_csv "$T/a.csv"
	rm -f "$T/a.csv"
	stop_redis
}

# A database rsweep never writes, then its own: the check before the flush
# (or right after it) stops the sweep.
tcase 'keys in db3 then db0 stop the sweep, with EVAL' foreign_keys_stop_the_sweep "3 0"
# Its own database only: more keys in it than GET and SET can have made.
tcase 'keys in db0 only stop the sweep, with EVAL' foreign_keys_stop_the_sweep 0
# EVAL renamed away (ACL would do the same): check, then flush.
tcase 'keys in db3 then db0 stop the sweep, without EVAL' \
	foreign_keys_stop_the_sweep "3 0" --rename-command EVAL ""
tcase 'keys in db0 only stop the sweep, without EVAL' foreign_keys_stop_the_sweep 0 --rename-command EVAL ""

# A writer that keeps writing: MONITOR shows every command the server ran,
# in order; no flush may follow the first foreign write.
t_writer() {
	start_redis
	rcli monitor >"$T/monitor" 2>/dev/null &
	mon=$!
	for _ in $(seq 1 500); do
		grep -q OK "$T/monitor" 2>/dev/null && break
		sleep 0.01
	done
	"$RSWEEP" run -s "$SOCK" -t get -P 1..200 -n 2000 -c 5 --pause 0.05 -q -o "$T/b.csv" \
		>/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/b.csv" 1
	redis-cli -s "$SOCK" -n 3 -r 20000 -i 0 set foreign3 v >/dev/null 2>&1 &
	writer=$!
	wait "$pid"
	st=$?
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
	rcli echo end-of-test >/dev/null
	for _ in $(seq 1 500); do
		grep -q end-of-test "$T/monitor" && break
		sleep 0.01
	done
	kill "$mon" 2>/dev/null
	wait "$mon" 2>/dev/null
	first=$(grep -n '"foreign3"' "$T/monitor" | head -1 | cut -d: -f1)
	[ -n "$first" ] || fail "writer: MONITOR saw no foreign write"
	late=$(tail -n +"$first" "$T/monitor" | grep -i '\] "flush\(all\|db\)"')
	[ -z "$late" ] || fail "writer: flushed after the first foreign write: $late"
	[ "$st" = 2 ] || fail "writer: exit $st, wanted 2: $(cat "$T/err")"
	grep -q "another client is writing" "$T/err" || fail "writer: $(cat "$T/err")"
	[ "$(rcli -n 3 get foreign3)" = v ] || fail "writer: foreign3 is gone"
	check_csv "$T/b.csv"
}
tcase 'a writer that keeps writing: no flush after its first write, its keys survive' t_writer

tcase_done
