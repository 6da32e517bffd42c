#!/bin/sh
# The safety guard: a server holding keys rsweep did not write is refused in
# every flush mode (exit 2, one line naming each database and its count),
# its keys are untouched and no -o file is created; --force-flush proceeds.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
rcli set precious gold >/dev/null
rcli -n 3 rpush mylist a b c >/dev/null
# t_mode MODE: a run with --flush MODE on the foreign keys.
t_mode() {
	mode=$1
	# FLUSHALL touches every database; FLUSHDB and the tests only --dbnum (0).
	if [ $mode = all ]; then
		says="holds 2 keys that rsweep did not write (db0: 1 key; db3: 1 key)"
	else
		says="holds 1 key that rsweep did not write in the database the sweep uses (db0: 1 key; db3: 1 key, left alone)"
	fi
	expect_status 2 "$RSWEEP" run -s "$SOCK" --flush $mode -t get,lpop -n 100 -o "$T/g.csv"
	grep -qF "$says" "$T/err" || fail "$mode: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$mode: not one line"
	[ ! -e "$T/g.csv" ] || fail "$mode: a refused run created its -o file"
	[ "$(rcli get precious)" = gold ] || fail "$mode: precious changed"
	[ "$(rcli -n 3 llen mylist)" = 3 ] || fail "$mode: mylist changed"
	[ "$(rcli dbsize)" = 1 ] || fail "$mode: db0 changed"
}
for mode in all db none; do
	tcase "--flush $mode: refused, one line naming each database, the keys untouched" t_mode $mode
done

# A command of one's own may touch any database (here FLUSHALL): with it
# every database counts, even with --flush none.
t_custom() {
	rcli del precious >/dev/null
	expect_status 2 "$RSWEEP" run -s "$SOCK" --flush none -n 10 -o "$T/g.csv" -- FLUSHALL
	grep -qF "holds 1 key that rsweep did not write (db3: 1 key), and a command of your own may touch any database" \
		"$T/err" || fail "custom: $(cat "$T/err")"
	[ ! -e "$T/g.csv" ] || fail "custom: a refused run created its -o file"
	[ "$(rcli -n 3 llen mylist)" = 3 ] || fail "custom: mylist changed"
}
tcase "a command of one's own counts every database, even with --flush none" t_custom

# Keys in other databases do not stop --flush db on the database of
# --dbnum, and survive it.
t_flush_db() {
	rcli set precious gold >/dev/null
	expect_status 0 "$RSWEEP" run -s "$SOCK" --flush db --dbnum 5 -t get,lpop -n 100 -q
	[ "$(rcli -n 3 llen mylist)" = 3 ] || fail "--flush db touched database 3"
	[ "$(rcli get precious)" = gold ] || fail "--flush db touched database 0"
	[ "$(rcli -n 5 dbsize)" = 0 ] || fail "--flush db left keys in database 5"
}
tcase 'keys in other databases do not stop --flush db on --dbnum, and survive it' t_flush_db

t_force() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" --force-flush -t get -n 100 -q
	[ "$(rcli exists precious)" = 0 ] || fail "--force-flush did not flush"
}
tcase '--force-flush proceeds' t_force

# A sweep leaves the server as empty as it found it, so the next run is not
# refused because of rsweep's own keys.
t_empty() {
	tcase_needs '--force-flush proceeds'
	[ "$(rcli dbsize)" = 0 ] || fail "the sweep left $(rcli dbsize) keys behind"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get,lpop -n 100 -q
	# Random keys of a command of one's own stay within what it can write.
	expect_status 0 "$RSWEEP" run -s "$SOCK" -r 100 -P 1,2 -n 1000 -q -- SET k:__rand_int__ v
	[ "$(rcli dbsize)" = 0 ] || fail "the custom sweep left $(rcli dbsize) keys behind"
	# Without -o nothing is saved, and rsweep says so.
	grep -q "no -o FILE.csv: the points are printed, not saved" "$T/err" || fail "no -o: $(cat "$T/err")"
}
tcase 'a sweep leaves the server as empty as it found it' t_empty

tcase_done
