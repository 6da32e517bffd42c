#!/bin/sh
# run_clean.sh: rsweep clean removes only what a run can have left under
# the prefix: a prefix that holds other keys ("a" over apple, avocado) is
# refused with nothing removed; --dry-run lists what would go; with
# --force-flush every key under the prefix goes, and nothing outside it
# (issue 40, m10).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

t_foreign_prefix() {
	for k in apple avocado akey:000000000001 amylist banana; do rcli SET "$k" 1 >/dev/null; done
	expect_status 2 "$RSWEEP" clean -s "$SOCK" --key-prefix a
	grep -q "2 keys under 'a' are not named as rsweep names its keys" "$T/err" ||
		fail "clean a: $(cat "$T/err")"
	[ "$(rcli DBSIZE)" = 5 ] || fail "clean a removed keys: $(rcli DBSIZE) left"
	expect_status 0 "$RSWEEP" clean -s "$SOCK" --key-prefix a --dry-run
	[ "$(grep -c '^a' "$T/out")" = 2 ] || fail "dry run listed: $(cat "$T/out")"
	grep -qx "akey:000000000001" "$T/out" && grep -qx "amylist" "$T/out" ||
		fail "dry run listed: $(cat "$T/out")"
	grep -q "2 keys under 'a' would be removed" "$T/out" || fail "dry run: $(cat "$T/out")"
	[ "$(rcli DBSIZE)" = 5 ] || fail "--dry-run removed keys"
	expect_status 0 "$RSWEEP" clean -s "$SOCK" --key-prefix a --force-flush
	grep -q "4 keys under 'a' removed" "$T/out" || fail "--force-flush: $(cat "$T/out")"
	[ "$(rcli DBSIZE)" = 1 ] && [ "$(rcli GET banana)" = 1 ] || fail "banana: $(rcli DBSIZE)"
}
tcase 'a prefix that holds other keys is refused; --dry-run lists; --force-flush empties it' \
	t_foreign_prefix

t_run_prefix() {
	rcli FLUSHALL >/dev/null
	rcli SET user:1 x >/dev/null
	"$RSWEEP" run -s "$SOCK" --key-prefix cl: -t set,lpush,sadd -P 1..6 -n 20000 -r 1000 \
		--pause 0.5 -q -o "$T/k.csv" >/dev/null 2>&1 &
	pid=$!
	wait_rows "$T/k.csv" 1
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ -n "$(rcli --scan --pattern 'cl:*' | head -1)" ] || fail "the killed run left no key"
	expect_status 0 "$RSWEEP" clean -s "$SOCK" --key-prefix cl:
	[ -z "$(rcli --scan --pattern 'cl:*' | head -1)" ] || fail "clean left keys"
	[ "$(rcli GET user:1)" = x ] || fail "user:1 changed"
}
tcase 'what a killed run left under its prefix goes without --force-flush' t_run_prefix

tcase_done
