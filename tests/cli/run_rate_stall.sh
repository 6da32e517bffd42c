#!/bin/sh
# Coordinated omission: a private server SIGSTOPped for 300 ms during a
# 3 s run at 10,000 requests/s.  The open loop (--rate) times each request
# from when it was due, so the stall counts for every request it delayed:
# p99 of at least 200 ms, and the offered rate still kept (a window of 4
# on each of 10 connections leaves room to catch up on a loaded machine).
# A closed loop of the same shape (the same window) sees the stall too
# (its max), but only on the 40 requests in flight, and its p99 stays far
# below.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

# run_stalled OUT ARGS...: run GET for 3 s with ARGS; half a second into
# the timed window (5,000 more GETs counted by the server: the count
# survives FLUSHALL, so from what it was before), stop the server for
# 300 ms.
run_stalled() {
	out=$1
	shift
	want=$(($(get_calls) + 5000))
	"$RSWEEP" run -s "$SOCK" -t get -P 4 -c 10 --duration 3 --warmup 0 --repeat 1 -q \
		-o "$out" "$@" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for 30 "5000 GETs" sh -c "[ \$(redis-cli -s '$SOCK' info commandstats | tr -d '\r' |
		sed -n 's/^cmdstat_get:calls=\([0-9]*\).*/\1/p' | grep . || echo 0) -ge $want ]"
	kill -STOP "$REDIS_PID"
	sleep 0.3
	kill -CONT "$REDIS_PID"
	wait "$pid" || fail "rsweep run $*: exit $?: $(cat "$T/err")"
}

# field FILE NAME: column NAME of the first row.
field() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		NR == 2 { print $c }' "$1"
}

t_stall() {
	run_stalled "$T/open.csv" --rate 10k
	run_stalled "$T/closed.csv" --mode window

	open_p99=$(field "$T/open.csv" p99_ms)
	closed_p99=$(field "$T/closed.csv" p99_ms)
	closed_max=$(field "$T/closed.csv" max_ms)
	echo "open loop p99 $open_p99 ms; closed loop p99 $closed_p99 ms, max $closed_max ms"
	awk -v v="$open_p99" 'BEGIN { exit !(v >= 200) }' ||
		fail "open loop p99 $open_p99 ms: the 300 ms stall is not counted for the requests it delayed"
	[ "$(field "$T/open.csv" rate_offered)" = 10000.00 ] || fail "rate_offered $(field "$T/open.csv" rate_offered)"
	[ "$(field "$T/open.csv" rate_short)" = 0 ] ||
		fail "the offered rate was not kept: $(field "$T/open.csv" rps) of 10000/s"
	[ "$(field "$T/open.csv" mode)" = window ] || fail "mode $(field "$T/open.csv" mode)"
	# The service time (from the actual send) is kept beside: it is what the
	# stall did to the requests already sent, not to those that queued.
	[ -n "$(field "$T/open.csv" svc_p99_ms)" ] || fail "no service time"
	# The closed loop saw the stall (its slowest request) ...
	awk -v v="$closed_max" 'BEGIN { exit !(v >= 200) }' ||
		fail "closed loop max $closed_max ms: the stall did not happen during the run"
	# ... and hid it from its percentiles: 40 requests of tens of thousands.
	awk -v c="$closed_p99" -v o="$open_p99" 'BEGIN { exit !(c < o / 4) }' ||
		fail "closed loop p99 $closed_p99 ms is not far below the open loop's $open_p99 ms"
	[ -z "$(field "$T/closed.csv" rate_offered)" ] || fail "a closed-loop row has an offered rate"
}
tcase 'a 300 ms stall: the open loop counts it for every request it delayed, the closed loop hides it' t_stall

# A rate no server keeps up with, for --duration 1: the schedule ends at
# the deadline (what is still unsent is dropped, not sent for seconds
# after it, past --timeout), and the point is marked and noted short.
t_short() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1,2 -c 10 --rate 10M --duration 1 --timeout 1 \
		--repeat 1 -q -o "$T/sat.csv"
	[ "$(field "$T/sat.csv" rate_short)" = 1 ] || fail "rate_short $(field "$T/sat.csv" rate_short)"
	grep -q "GET P=1 @10000000/s: achieved .*, short of the offered rate" "$T/err" ||
		fail "no note of the shortfall: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" report "$T/sat.csv"
	grep -q "GET @10000000/s: the achieved rate fell short of the offered rate at P=1,2" "$T/out" ||
		fail "the report does not say the point fell short: $(cat "$T/out")"
}
tcase 'a rate no server keeps up with ends at the deadline, marked and noted short' t_short

tcase_done
