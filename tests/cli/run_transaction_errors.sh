#!/bin/sh
# run_transaction_errors.sh: a request of several commands counts its
# errors once (issue 40, D7).  A transaction's from its last reply, EXEC's:
# EXECABORT when a command could not be queued (SET k without a value), an
# error in its array when a command failed as it ran, never a command
# refused inside it that EXEC does not mind (MULTI); a
# sequence's when any of its replies is an error.  The exit status follows
# the count alike for one command and for a sequence: 1 when a point had
# nothing but errors, or any with --fail-on-error.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
start_redis

# errs FILE: the errors column of its one row.
errs() {
	csv_col "$1" errors
}

t_execabort() {
	expect_status 1 "$RSWEEP" run -s "$SOCK" -P 1 -n 1000 --repeat 1 -q -o "$T/a.csv" \
		--transaction -- SET k ';' GET k
	[ "$(errs "$T/a.csv")" = 1000 ] || fail "errors $(errs "$T/a.csv") for 1000 requests"
	grep -q EXECABORT "$T/a.csv" || fail "first_error: $(csv_col "$T/a.csv" first_error)"
	# The same as one command that fails every time.
	expect_status 1 "$RSWEEP" run -s "$SOCK" -P 1 -n 1000 --repeat 1 -q -o "$T/b.csv" -- SET k
	[ "$(errs "$T/b.csv")" = 1000 ] || fail "one command: errors $(errs "$T/b.csv")"
	# Lock-step at P=16 and a window of two threads: one error a request.
	expect_status 1 "$RSWEEP" run -s "$SOCK" -P 16 --mode window -c 3 --threads 2 -n 999 \
		--repeat 1 -q -o "$T/c.csv" --transaction -- SET k ';' 2 GET k
	[ "$(errs "$T/c.csv")" = 999 ] || fail "window: errors $(errs "$T/c.csv")"
}
tcase 'a transaction EXECABORT refuses: one error a request, exit 1 as for one command' \
	t_execabort

t_nested() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1,8 -n 1000 --repeat 1 -q -o "$T/n.csv" \
		--transaction -- MULTI ';' GET k
	[ "$(errs "$T/n.csv" | sort -u)" = 0 ] || fail "errors $(errs "$T/n.csv")"
	# --fail-on-error: no error, no failure.
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 --repeat 1 -q -o "$T/f.csv" \
		--fail-on-error --transaction -- MULTI ';' GET k
}
tcase 'MULTI inside a transaction whose EXEC runs: no error, exit 0' t_nested

# A command that fails when EXEC runs it (INCR of abc): its error is in
# EXEC's array, the request's, once however many fail.
t_exec_element() {
	expect_status 1 "$RSWEEP" run -s "$SOCK" -P 1,8 -n 1000 --repeat 1 -q -o "$T/x.csv" \
		--transaction -- SET k abc ';' 2 INCR k
	[ "$(errs "$T/x.csv" | sort -u)" = 1000 ] || fail "errors $(errs "$T/x.csv")"
	grep -q "not an integer" "$T/x.csv" || fail "first_error: $(csv_col "$T/x.csv" first_error)"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1,8 -n 1000 --repeat 1 -q -o "$T/y.csv" \
		--transaction -- SET k 1 ';' 2 INCR k
	[ "$(errs "$T/y.csv" | sort -u)" = 0 ] || fail "errors $(errs "$T/y.csv")"
}
tcase 'a command that fails inside EXEC: one error a request' t_exec_element

t_sequence() {
	K0=k:000000000000 K1=k:000000000001
	# Without MULTI: SET k fails, GET k answers: one error a request.
	expect_status 1 "$RSWEEP" run -s "$SOCK" -P 4 -n 1000 --repeat 1 -q -o "$T/s.csv" \
		-- SET k ';' 3 GET k
	[ "$(errs "$T/s.csv")" = 1000 ] || fail "errors $(errs "$T/s.csv")"
	# Some requests fail, not all (INCR of the key just SET to abc, or of
	# the other, then DEL both): exit 0, but 1 with --fail-on-error.
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 -r 2 --repeat 1 -q -o "$T/p.csv" \
		-- SET 'k:__rand_int__' abc ';' INCR 'k:__rand_int__' ';' DEL "$K0" "$K1"
	[ "$(errs "$T/p.csv")" -gt 0 ] && [ "$(errs "$T/p.csv")" -lt 100 ] ||
		fail "errors $(errs "$T/p.csv")"
	expect_status 1 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 -r 2 --repeat 1 -q -o "$T/q.csv" \
		--fail-on-error -- SET 'k:__rand_int__' abc ';' INCR 'k:__rand_int__' ';' \
		DEL "$K0" "$K1"
}
tcase 'a sequence: one error a request whichever of its replies failed' t_sequence

# One engine from a plain test to a sequence and back (--expire makes INCR
# a request of INCR and EXPIRE), in shuffled order: each run's replies
# reach its own counting.
t_switch() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get,incr -P 1,4 -n 500 -r 100 --expire 60 \
		--order shuffled --repeat 3 -q -o "$T/sw.csv"
	[ "$(rows "$T/sw.csv")" = 12 ] || fail "rows $(rows "$T/sw.csv")"
	[ "$(errs "$T/sw.csv" | sort -u)" = 0 ] || fail "errors $(errs "$T/sw.csv")"
}
tcase 'a plain test and a sequence in turn on one engine' t_switch

tcase_done
