#!/bin/sh
# A signal never leaves the test's keys (issue 25 S1, S2): one INT or TERM
# to the leader during a point of an agents sweep, two within a
# millisecond, and timeout(1), each end with the guarded flush, so the
# target is empty and the next run is not refused; a second signal does not
# kill the process before that flush (seen before: exit 143, keys left).
# Five tries of each, each a case (tcase.sh lists every one that failed).
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

start_redis
start_control
start_agent s1
# The run stopped and the target emptied as a case ends, passed or failed,
# so that the next case starts from an empty target and nothing running.
reset_target() {
	if [ -n "${run:-}" ]; then
		kill -KILL "$run" 2>/dev/null
		wait "$run" 2>/dev/null
	fi
	rcli flushall >/dev/null
	rm -f "$T/s.csv" "$T/s.csv.hist"
}
# interrupt HOW AGENTS: HOW one of "INT", "TERM", "INT INT", "TERM TERM".
interrupt() {
	TCASE_LEAVE="$TCASE_LEAVE reset_target"
	if [ "$2" = 1 ]; then
		set -- "$1" --control "$CTL" --agents-key "$KEYF" --agents 1 --agents-wait 10 --target t=unix://"$SOCK"
	else
		set -- "$1" -s "$SOCK"
	fi
	how=$1
	shift
	"$RSWEEP" run "$@" -t lpush -P 1 -n 50000000 --repeat 1 -c 2 -q -o "$T/s.csv" \
		>/dev/null 2>"$T/s.err" &
	run=$!
	wait_for 20 "the test's key on the target" sh -c "[ \"\$(redis-cli -s '$SOCK' dbsize)\" -gt 0 ]"
	for sig in $how; do kill -"$sig" "$run"; done
	wait "$run"
	st=$?
	keys=$(rcli dbsize)
	case "$st:$keys" in
	130:0 | 143:0) ;;
	*) fail "$how ($*): exit $st, $keys keys left: $(tail -1 "$T/s.err")" ;;
	esac
}
for i in 1 2 3 4 5; do
	for how in INT TERM "INT INT" "TERM TERM"; do
		tcase "$how to the leader of an agent, try $i: no key left" interrupt "$how" 1
		[ "$i" -gt 2 ] || tcase "$how to a run on one server, try $i: no key left" interrupt "$how" 0
	done
done
# timeout(1) sends one TERM.
t_timeout() {
	TCASE_LEAVE="$TCASE_LEAVE reset_target"
	timeout 1 "$RSWEEP" run -s "$SOCK" -t lpush -P 1 -n 50000000 --repeat 1 -c 2 -q \
		>/dev/null 2>"$T/s.err"
	st=$?
	keys=$(rcli dbsize)
	[ "$keys" = 0 ] || fail "timeout: exit $st, $keys keys left: $(tail -1 "$T/s.err")"
}
for i in 1 2 3; do
	tcase "timeout(1), try $i: no key left" t_timeout
done

tcase_done
