#!/bin/sh
# run_resume_way.sh: --resume reuses a row only when it was measured the
# way this run measures (row_way.c's one table): a file measured without a
# TTL is refused to --resume --expire 10, and one of a flush-mode run to
# --resume --key-prefix, with one line naming the setting; the file is not
# touched (issue 40, D8).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

t_expire() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t set -P 1,2 -n 500 --repeat 1 -q -o "$T/e.csv"
	cp "$T/e.csv" "$T/e0.csv"
	expect_status 2 "$RSWEEP" run -s "$SOCK" -t set -P 1,2 -n 500 --repeat 1 --expire 10 \
		--resume -q -o "$T/e.csv"
	grep -q "was measured with --expire 0, this run with --expire 10" "$T/err" ||
		fail "--expire: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "not one line: $(cat "$T/err")"
	cmp -s "$T/e.csv" "$T/e0.csv" || fail "the file changed"
	# The same settings resume as before.
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t set -P 1,2 -n 500 --repeat 1 --resume -q \
		-o "$T/e.csv"
	grep -q "every point is already in" "$T/err" || fail "resume: $(cat "$T/err")"
}
tcase '--resume --expire 10 on rows measured without a TTL is refused' t_expire

t_prefix() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1 -n 500 --repeat 1 -q -o "$T/f.csv"
	expect_status 2 "$RSWEEP" run -s "$SOCK" --key-prefix rw: -t get -P 1 -n 500 --repeat 1 \
		--resume -q -o "$T/f.csv"
	grep -q "was measured with --key-prefix none (flushed), this run with --key-prefix rw:" \
		"$T/err" || fail "--key-prefix: $(cat "$T/err")"
	[ "$(rows "$T/f.csv")" = 1 ] || fail "f.csv has $(rows "$T/f.csv") rows"
}
tcase '--resume --key-prefix on rows of a flush-mode run is refused' t_prefix

tcase_done
