#!/bin/sh
# run_dry_estimate.sh: --dry-run's estimate counts --rate (100,000
# requests at 5000/s are 20 s a point, not a fraction of one) and the keys
# prepared and deleted between points (-r 1M GET under --key-prefix: a
# million keys each way a point), so that it is not 0 s (issue 40, m1).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

estimate() {
	sed -n 's/^estimated duration: \([0-9]*\) s.*/\1/p' "$T/out"
}

t_rate() {
	expect_status 0 "$RSWEEP" run --dry-run -t set -P 1 -n 100000 --rate 5000 --repeat 1
	[ "$(estimate)" -ge 20 ] || fail "estimate with --rate: $(tail -1 "$T/out")"
}
tcase '--dry-run counts --rate' t_rate

t_prefix() {
	expect_status 0 "$RSWEEP" run --dry-run --key-prefix p: -t get -P 1 -n 1000 -r 1000000 \
		--repeat 6
	[ "$(estimate)" -ge 10 ] || fail "estimate of -r 1M under a prefix: $(tail -1 "$T/out")"
	grep -q "keys prepared, flushed or deleted between points" "$T/out" ||
		fail "the estimate does not say how: $(tail -1 "$T/out")"
}
tcase '--dry-run counts the preparation and the deletes between points' t_prefix

tcase_done
