#!/bin/sh
# The guard decides by names, not by a count a foreign key can hide under:
# one key another client writes during a sweep stops it before the next
# flush and survives, for the pop tests too (their pops delete the test's
# own key, so a count of "one key of rsweep's" let one foreign key go).
# With the atomic check and flush (EVAL) and with the check-then-flush
# rsweep falls back to.  Every case runs; the failures are listed at the
# end (tcase.sh).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# one_foreign_key PAUSE TEST [redis-server arguments...]: the key is
# written after the first row, in the pause before the next point's flush.
# Without EVAL the check and the flush are two commands, and a key written
# between them goes unseen, as the man page says: that case pauses longer,
# so that a loaded machine does not land the write in that gap.  (The
# sweep's file goes first: a case that failed may have left its own.)
one_foreign_key() {
	pause=$1
	t=$2
	shift 2
	rm -f "$T/n.csv" "$T/n.csv.hist"
	start_redis "$@"
	"$RSWEEP" run -s "$SOCK" -t "$t" -P 1..4 -n 1000 -c 1 --pause "$pause" -q \
		-o "$T/n.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/n.csv" 1
	rcli set fk:1 v >/dev/null
	wait "$pid"
	st=$?
	case "$st:$(rcli get fk:1)" in
	2:v) grep -q "another client is writing" "$T/err" ||
		fail "$t $*: $(cat "$T/err")" ;;
	*) fail "$t $*: exit $st, fk:1 '$(rcli get fk:1)': $(tail -1 "$T/err")" ;;
	esac
	rm -f "$T/n.csv" "$T/n.csv.hist"
	stop_redis
}

for t in lpop rpop spop zpopmin get set lpush incr; do
	tcase "$t with EVAL: one foreign key stops the sweep and survives" one_foreign_key 0.2 $t
	tcase "$t without EVAL: one foreign key stops the sweep and survives" \
		one_foreign_key 1 $t --rename-command EVAL ""
done
# The message names the key that is not rsweep's.
t_named() {
	rm -f "$T/n.csv" "$T/n.csv.hist"
	start_redis
	"$RSWEEP" run -s "$SOCK" -t lpop -P 1..6 -n 1000 -c 1 --pause 0.2 -q -o "$T/n.csv" \
		>/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/n.csv" 1
	rcli set fk:named v >/dev/null
	wait "$pid"
	grep -qF "'fk:named' is not a name rsweep writes" "$T/err" ||
		fail "named: $(cat "$T/err")"
	stop_redis
}
tcase "the message names the key that is not rsweep's" t_named

tcase_done
