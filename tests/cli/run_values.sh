#!/bin/sh
# run_values.sh: --data-size-range MIN..MAX (issue 29): each request's
# value of its own size, drawn uniformly, of random bytes.  The server sees
# values of many sizes (MONITOR's lines), of the range's mean size on
# average (its input bytes), every request counted; GET reads prepared
# values of the range and finds every one; bad ranges and tests whose
# values cannot be sized are refused with one line.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# monitor_sets ARGS...: run rsweep run ARGS on our server with MONITOR on;
# SETS is then how many SETs it saw, LENGTHS of how many line lengths.
monitor_sets() {
	monitor_run "$T/mon" "$@"
	SETS=$(grep -c '"SET"' "$T/mon")
	LENGTHS=$(grep '"SET"' "$T/mon" | awk '{ print length($0) }' | sort -u | wc -l)
}

# in_bytes: the server's total_net_input_bytes.
in_bytes() {
	rcli info stats | tr -d '\r' | sed -n 's/^total_net_input_bytes://p'
}

t_sizes() {
	start_redis
	monitor_sets -t set --data-size-range 1..1000 -P 4 -n 2000 -r 50 --repeat 1 -q -o "$T/r.csv"
	[ "$SETS" = 2000 ] || fail "MONITOR saw $SETS SETs, wanted 2000"
	# Uniform over 1000 sizes: 2000 draws give well over 500 distinct ones.
	[ "$LENGTHS" -gt 500 ] || fail "the SETs had $LENGTHS lengths: not sized per request"
	monitor_sets -t set -d 500 -P 4 -n 2000 -r 50 --repeat 1 -q -o "$T/d.csv"
	[ "$LENGTHS" = 1 ] || fail "fixed -d 500 gave SETs of $LENGTHS lengths: the measure is broken"
	check_csv "$T/r.csv"
	[ "$(csv_col "$T/r.csv" data_size_range)" = "1..1000" ] ||
		fail "data_size_range: $(csv_col "$T/r.csv" data_size_range)"
	[ "$(csv_col "$T/r.csv" data_size)" = 500 ] || fail "data_size: $(csv_col "$T/r.csv" data_size)"
	[ "$(csv_col "$T/d.csv" data_size_range)" = "" ] || fail "a fixed -d row has a range"
	[ "$(csv_col "$T/r.csv" server_calls)" = 2000 ] || fail "server_calls"
}
tcase 'values of every size of the range, and a fixed -d of one' t_sizes

# The range's mean: the bytes the server reads for 1..1000 are within 5%
# of a fixed -d 500's (the mean is 500.5; a value's length header is one
# to four digits against 500's three).
t_mean() {
	start_redis
	a=$(in_bytes)
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t set --data-size-range 1..1000 -P 16 -n 20000 \
		-r 1000 --repeat 1 -q -o "$T/m1.csv" --no-prepare
	b=$(in_bytes)
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t set -d 500 -P 16 -n 20000 -r 1000 --repeat 1 \
		-q -o "$T/m2.csv" --no-prepare
	c=$(in_bytes)
	awk -v r=$((b - a)) -v d=$((c - b)) 'BEGIN { x = r / d; exit !(x > 0.95 && x < 1.05) }' ||
		fail "the range's requests brought $((b - a)) bytes against $((c - b)) at -d 500"
}
tcase 'the values average the middle of the range' t_mean

# GET reads values its preparation wrote with sizes of the range: every
# read hits.  A mix sizes its SET's values; a custom command's value may
# have more after it (SET ... EX).
t_get_mix_custom() {
	expect_status 0 "$RSWEEP" run --spawn -t get,mix:get=50,set=50 --data-size-range 100..200 \
		-P 1,16 -n 4000 -r 500 --repeat 1 -q -o "$T/g.csv"
	[ "$(rows "$T/g.csv")" = 4 ] || fail "rows: $(rows "$T/g.csv")"
	[ "$(csv_col "$T/g.csv" server_misses | sort -u)" = 0 ] ||
		fail "reads missed: $(csv_col "$T/g.csv" server_misses)"
	[ "$(csv_col "$T/g.csv" errors | sort -u)" = 0 ] || fail "errors"
	# A chart's footer says the range, not the mean's one size.
	expect_status 0 "$RSWEEP" plot "$T/g.csv" -o "$T/g.pdf"
	pdftotext "$T/g.pdf" - | grep -q "values of 100..200 bytes" ||
		fail "the footer: $(pdftotext "$T/g.pdf" - | tail -3)"
	expect_status 0 "$RSWEEP" run --spawn --data-size-range 10..20 -P 8 -n 3000 -r 100 --repeat 1 \
		-q -o "$T/c.csv" -- SET 'k:__key__' __data__ EX 100
	[ "$(csv_col "$T/c.csv" errors)" = 0 ] || fail "custom: errors $(cat "$T/c.csv")"
	[ "$(csv_col "$T/c.csv" server_calls)" = 3000 ] || fail "custom: calls"
}
tcase 'GET, a mix and a custom command with sized values' t_get_mix_custom

t_refused() {
	run_refused "--data-size-range and -d exclude each other" --spawn -d 5 --data-size-range 1..2
	run_refused "--data-size-range '5..1': MIN is more than MAX" --spawn --data-size-range 5..1
	run_refused "--data-size-range 'x' is not MIN..MAX" --spawn --data-size-range x
	run_refused "--data-size-range '0..5'" --spawn --data-size-range 0..5
	run_refused "--data-size-range: MSET sends 10 values a request" --spawn -t mset \
		--data-size-range 1..2
	run_refused "has a key after its value (__data__): put the value last" --spawn \
		--data-size-range 1..2 -- HSET h __data__ 'f:__rand_int__'
	run_refused "--data-size-range: a sequence's values keep -d's size (the command after -- is one)" \
		--spawn --data-size-range 1..2 -- SET a __data__ ';' GET a
	run_refused "--data-size-range: a sequence's values keep -d's size (LPUSH is one)" --spawn \
		--data-size-range 1..2 -t lpush --expire 5
}
tcase 'bad ranges, and values that cannot be sized: one line, exit 2, no file' t_refused

tcase_done
