#!/bin/sh
# run_server_misses.sh: the server's own count of reads that found
# nothing.  GETBIT on a missing key answers 0, never a nil: misses stays 0
# and server_misses, from INFO keyspace_misses, counts every request, and
# the run says so once; a GET of prepared keys counts hits only.  (Half-
# missing keys would need keys rsweep did not write, which the guard
# refuses; a custom command cannot prepare them.)
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

col() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["requests"], $c["misses"], $c["server_hits"], $c["server_misses"] }' "$1"
}

t_getbit_missing() {
	expect_status 0 "$RSWEEP" run --spawn -P 1,16 -r 1000 -n 4000 --repeat 1 -o "$T/g.csv" \
		-- GETBIT k:__rand_int__ 3
	grep -q "the server counted 4000 reads that found nothing (keyspace_misses)" "$T/err" ||
		fail "no note: $(cat "$T/err")"
	[ "$(grep -c "reads that found nothing" "$T/err")" = 1 ] || fail "noted more than once"
	[ "$(rows "$T/g.csv")" = 2 ] || fail "g.csv has $(rows "$T/g.csv") rows"
	col "$T/g.csv" | while read -r req miss hits smiss; do
		[ "$req" = 4000 ] && [ "$miss" = 0 ] && [ "$hits" = 0 ] && [ "$smiss" = 4000 ] ||
			fail "GETBIT: requests $req, misses $miss, hits $hits, server misses $smiss"
	done
}
tcase 'GETBIT on missing keys: no nil, the server counts every miss' t_getbit_missing

t_get_hits() {
	expect_status 0 "$RSWEEP" run --spawn -t get -P 4 -r 1000 -n 3000 --repeat 1 -q \
		-o "$T/h.csv"
	col "$T/h.csv" | while read -r req miss hits smiss; do
		[ "$req" = 3000 ] && [ "$hits" = 3000 ] && [ "$smiss" = 0 ] && [ "$miss" = 0 ] ||
			fail "GET over prepared keys: $req $miss $hits $smiss"
	done
	! grep -q "found nothing" "$T/err" || fail "noted: $(cat "$T/err")"
}
tcase 'GET over prepared keys: every request a hit, no note' t_get_hits

tcase_done
