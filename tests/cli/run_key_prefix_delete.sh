#!/bin/sh
# run_key_prefix_delete.sh: the delete between points under --key-prefix
# costs what was written, not what -r could name: -r 10^12 runs (it once
# named 10^12 keys a point, deaf to ^C on the way out); SIGINT ends it
# with 130 and leaves the prefix empty; a foreign key outside the prefix
# is never touched.  (No timing assertion: `timeout` bounds a hang.)
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

P=rsd:
start_redis
rcli SET other:1 x >/dev/null
rcli SET rsdx 1 >/dev/null

t_huge_r() {
	expect_status 0 timeout -s KILL 120 "$RSWEEP" run -s "$SOCK" --key-prefix "$P" -t set,incr \
		-P 1,2 -n 300 -r 1000000000000 --repeat 1 -q -o "$T/huge.csv"
	[ "$(rows "$T/huge.csv")" = 4 ] || fail "huge.csv has $(rows "$T/huge.csv") rows"
	[ -z "$(rcli --scan --pattern "$P*" | head -1)" ] || fail "keys left under $P"
	[ "$(rcli GET other:1)" = x ] && [ "$(rcli GET rsdx)" = 1 ] || fail "a foreign key changed"
}
tcase '-r 10^12 under a prefix deletes what was written, not every name' t_huge_r

t_huge_sigint() {
	rm -f "$T/int.csv"
	timeout -s KILL 120 "$RSWEEP" run -s "$SOCK" --key-prefix "$P" -t set -P 1..20 -n 2000 \
		-r 1000000000000 --pause 0.3 --repeat 1 -q -o "$T/int.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/int.csv" 1
	kill -INT "$pid"
	wait "$pid"
	st=$?
	[ "$st" = 130 ] || fail "SIGINT: exit $st, wanted 130: $(cat "$T/err")"
	[ -z "$(rcli --scan --pattern "$P*" | head -1)" ] || fail "keys left under $P"
	[ "$(rcli GET other:1)" = x ] && [ "$(rcli GET rsdx)" = 1 ] || fail "a foreign key changed"
}
tcase 'one SIGINT ends a -r 10^12 run under a prefix with 130, the prefix empty' t_huge_sigint

# D13: --resume --key-prefix auto after kill -9 takes the prefix the file
# records, and clears what the killed run left there (only rsweep's names).
t_auto_resume() {
	rm -f "$T/auto.csv"
	"$RSWEEP" run -s "$SOCK" --key-prefix auto -t get,lpop -P 1..6 -n 20000 -r 3000 \
		--pause 0.5 --repeat 1 -q -o "$T/auto.csv" >/dev/null 2>&1 &
	pid=$!
	wait_rows "$T/auto.csv" 1
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	p=$(csv_col "$T/auto.csv" key_prefix | tail -1)
	[ -n "$(rcli --scan --pattern "$p*" | head -1)" ] || fail "the killed run left no key"
	expect_status 0 timeout -s KILL 120 "$RSWEEP" run -s "$SOCK" --key-prefix auto -t get,lpop \
		-P 1..6 -n 20000 -r 3000 --repeat 1 --resume -o "$T/auto.csv"
	grep -q "key.* a killed run of this sweep left under '$p' removed" "$T/err" ||
		fail "no word of the killed run's keys: $(cat "$T/err")"
	[ "$(csv_col "$T/auto.csv" key_prefix | sort -u)" = "$p" ] ||
		fail "prefixes in the file: $(csv_col "$T/auto.csv" key_prefix | sort -u | tr '\n' ' ')"
	[ "$(rows "$T/auto.csv")" = 12 ] || fail "auto.csv has $(rows "$T/auto.csv") rows"
	[ -z "$(rcli --scan --pattern "rsweep:*" | head -1)" ] || fail "keys left under rsweep:"
	[ "$(rcli GET other:1)" = x ] && [ "$(rcli GET rsdx)" = 1 ] || fail "a foreign key changed"
}
tcase '--resume --key-prefix auto reuses the file'"'"'s prefix and clears the killed run'"'"'s keys' \
	t_auto_resume

# m9: a key another client writes under the prefix during the run is the
# prefix's promise broken: status 2 with one line naming it, the key left.
t_foreign_in_prefix() {
	rm -f "$T/f.csv"
	"$RSWEEP" run -s "$SOCK" --key-prefix "$P" -t set -P 1..4 -n 5000 --pause 0.3 --repeat 1 \
		-q -o "$T/f.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/f.csv" 1
	rcli SET "${P}theirs" 1 >/dev/null
	wait "$pid"
	st=$?
	[ "$st" = 2 ] || fail "exit $st, wanted 2: $(cat "$T/err")"
	grep -q "keys rsweep did not write are under the prefix 'rsd:' ('rsd:theirs' for one)" \
		"$T/err" || fail "message: $(cat "$T/err")"
	[ "$(rcli GET "${P}theirs")" = 1 ] || fail "their key was touched"
	[ "$(rows "$T/f.csv")" = 4 ] || fail "f.csv has $(rows "$T/f.csv") rows"
	rcli DEL "${P}theirs" >/dev/null
}
tcase 'a key another client writes under the prefix ends the run with status 2' \
	t_foreign_in_prefix

tcase_done
