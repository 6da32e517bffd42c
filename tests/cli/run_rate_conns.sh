#!/bin/sh
# The open loop with many connections on one thread: a request that falls
# due between the engine's hand-out and its wait is sent at once, not a
# whole 100 ms tick later.  Seen before: -c 10 --rate 10k gave p99 96 ms
# from its intended send against a service p99 of 0.25 ms, because the
# wait took "due" for "due and no room".  The bound (50 ms, half the
# tick) is far from both; of three runs, one within it passes, so a
# loaded machine's hiccup does not fail the test.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

t_due() {
	ok=0
	for i in 1 2 3; do
		expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -c 10 --threads 1 -P 1 --rate 10k \
			--duration 1 --repeat 1 -q -o "$T/r$i.csv"
		p99=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["p99_ms"] }' "$T/r$i.csv")
		echo "run $i: p99 $p99 ms"
		if awk -v p="$p99" 'BEGIN { exit !(p < 50) }'; then
			ok=1
			break
		fi
	done
	[ "$ok" = 1 ] || fail "every run's p99 is a tick late (last $p99 ms)"
}
tcase 'a request due between hand-out and wait is sent at once, in one of three runs' t_due

tcase_done
