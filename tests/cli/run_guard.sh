#!/bin/sh
# The safety guard: a server holding keys rsweep did not write is refused in
# every flush mode (exit 2) and its keys are untouched; --force-flush proceeds.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
rcli set precious gold >/dev/null
rcli -n 3 rpush mylist a b c >/dev/null
for mode in all db none; do
	# FLUSHALL touches every database; FLUSHDB and the tests only --dbnum (0).
	nkeys=2; [ $mode = all ] || nkeys=1
	expect_status 2 "$RSWEEP" run -s "$SOCK" --flush $mode -t get,lpop -n 100 -o "$T/g.csv"
	grep -q "holds $nkeys keys\{0,1\} that rsweep did not write" "$T/err" || fail "$mode: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$mode: not one line"
	[ "$(rcli get precious)" = gold ] || fail "$mode: precious changed"
	[ "$(rcli -n 3 llen mylist)" = 3 ] || fail "$mode: mylist changed"
	[ "$(rcli dbsize)" = 1 ] || fail "$mode: db0 changed"
	rm -f "$T/g.csv"
done
# Keys in another database do not stop --flush db on database 0, and survive it.
rcli del precious >/dev/null
expect_status 0 "$RSWEEP" run -s "$SOCK" --flush db -t get,lpop -n 100 -q
[ "$(rcli -n 3 llen mylist)" = 3 ] || fail "--flush db touched database 3"
rcli set precious gold >/dev/null
expect_status 0 "$RSWEEP" run -s "$SOCK" --force-flush -t get -n 100 -q
[ "$(rcli exists precious)" = 0 ] || fail "--force-flush did not flush"
# A sweep leaves the server as empty as it found it, so the next run is not
# refused because of rsweep's own keys.
[ "$(rcli dbsize)" = 0 ] || fail "the sweep left $(rcli dbsize) keys behind"
expect_status 0 "$RSWEEP" run -s "$SOCK" -t get,lpop -n 100 -q
echo "ok"
