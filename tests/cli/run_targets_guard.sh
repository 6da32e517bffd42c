#!/bin/sh
# The guard on each target of a two-target sweep: a server holding keys
# rsweep did not write is refused before anything is measured on either
# target (exit 2, naming it); keys another client writes to one target
# mid-sweep stop the sweep, naming that target, with the rows so far
# intact and the foreign key left alone; a target whose server dies stops
# the sweep too (exit 1), naming it.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
rcli set precious 1 >/dev/null

t_refused() {
	expect_status 2 "$RSWEEP" run --target a=spawn: --target b=unix://"$SOCK" -t get -P 1 -n 100 \
		-q -o "$T/refused.csv"
	grep -q "target 'b'.*holds 1 key that rsweep did not write" "$T/err" || fail "$(cat "$T/err")"
	[ ! -e "$T/refused.csv" ] || fail "a refused sweep wrote its file"
	[ "$(rcli get precious)" = 1 ] || fail "the refused server's key is gone"
}
tcase 'a target holding keys rsweep did not write is refused before anything is measured' t_refused

# Mid-sweep.  Bounded: 160 points of 2000 requests; the key comes after 4.
t_mid_sweep() {
	rcli del precious >/dev/null
	f=$T/mid.csv
	"$RSWEEP" run --target a=spawn: --target b=unix://"$SOCK" -t get -P 1..40 --repeat 2 -n 2000 \
		-c 4 --timeout 10 -q -o "$f" >/dev/null 2>"$T/mid.err" &
	pid=$!
	wait_rows "$f" 4
	rcli set intruder 1 >/dev/null
	wait $pid
	st=$?
	[ "$st" = 2 ] || fail "exit $st after another client wrote to b, wanted 2: $(cat "$T/mid.err")"
	grep -q "target 'b'" "$T/mid.err" || fail "the message names no target: $(cat "$T/mid.err")"
	grep -q "another client" "$T/mid.err" || fail "$(cat "$T/mid.err")"
	check_csv "$f"
	n=$(rows "$f")
	[ "$n" -ge 4 ] && [ "$n" -lt 160 ] || fail "$n rows after the refusal"
	[ "$(rcli get intruder)" = 1 ] || fail "the other client's key was flushed"
}
tcase 'keys written to one target mid-sweep stop the sweep, naming it, the key left alone' t_mid_sweep

# A target that fails mid-sweep (its server killed): exit 1 naming it, the
# rows so far intact, the other target's server stopped.
t_dies() {
	rcli flushall >/dev/null
	f=$T/dead.csv
	"$RSWEEP" run --target a=spawn: --target b=unix://"$SOCK" -t get -P 1..40 --repeat 2 -n 2000 \
		-c 4 --timeout 10 -q -o "$f" >/dev/null 2>"$T/dead.err" &
	pid=$!
	wait_rows "$f" 4
	stop_redis
	wait $pid
	st=$?
	[ "$st" = 1 ] || fail "exit $st after target b's server died, wanted 1: $(cat "$T/dead.err")"
	grep -q "target 'b'" "$T/dead.err" || fail "the message names no target: $(cat "$T/dead.err")"
	check_csv "$f"
	[ "$(rows "$f")" -ge 4 ] || fail "rows lost: $(rows "$f")"
}
tcase 'a target whose server dies mid-sweep stops the sweep, naming it' t_dies

tcase_done
