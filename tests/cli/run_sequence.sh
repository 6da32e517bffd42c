#!/bin/sh
# run_sequence.sh: the command after -- as a sequence (issue 29): ';'
# between commands, a repeat count, --transaction's MULTI/EXEC around
# them.  Every row: server_calls is requests times the commands of a
# request, and each command's calls (mix_calls) what was sent of it
# (mix_sent); __key__ is one key a request, so a read after a write of
# it hits; a GETBIT on keys that were never set misses without a nil
# reply, and the server's counts (server_misses) say so.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# check_seq FILE ROWS COMMANDS: every row exact, COMMANDS a request.
check_seq() {
	[ "$(rows "$1")" = "$2" ] || fail "$1 has $(rows "$1") rows, wanted $2"
	# The test and mix columns hold no comma here: a plain split serves.
	awk -F, -v per="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			why = ""
			n = $c["requests"]
			if ($c["server_calls"] != n * per) why = why " server_calls " $c["server_calls"]
			# What was sent of each command (its first word) against the
			# server calls of it: commands that share one are one entry.
			delete sent; delete calls
			n1 = split($c["mix_sent"], a, ";")
			for (i = 1; i <= n1; i++) {
				split(a[i], w, " "); v = a[i]; sub(/.*=/, "", v)
				sent[w[1]] += v
			}
			n2 = split($c["mix_calls"], a, ";")
			for (i = 1; i <= n2; i++) { split(a[i], w, " "); calls[w[1]] = a[i] }
			for (k in calls) {
				v = calls[k]; sub(/.*=/, "", v)
				if (v != sent[k]) why = why " " k " sent " sent[k] " but called " v
			}
			if (n1 == 0 || n2 == 0) why = why " no mix_sent or mix_calls"
			if ($c["errors"] != 0) why = why " errors " $c["errors"]
			if ($c["mix"] != "") why = why " mix " $c["mix"]
			if (why != "") { print "row " NR ":" why; bad = 1 }
		}
		END { exit bad }' "$1" >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
}

# MULTI, SET, GET twice, EXEC: six commands a request, at P=1 and P=16,
# in lock-step and in a window of two threads.
t_transaction() {
	expect_status 0 "$RSWEEP" run --spawn -P 1,16 -n 3000 -r 100000 --repeat 1 -q \
		-o "$T/t.csv" --transaction -- SET 'k:__key__' __data__ ';' 2 GET 'k:__key__' ';' INCR n
	check_seq "$T/t.csv" 2 6
	[ "$(csv_col "$T/t.csv" test | sort -u)" = \
		"MULTI ; SET k:__key__ __data__ ; 2 GET k:__key__ ; INCR n ; EXEC" ] ||
		fail "test name: $(csv_col "$T/t.csv" test | sort -u)"
	grep -q 'MULTI=3000;SET k:__key__ __data__=3000;GET k:__key__=6000;INCR n=3000;EXEC=3000' \
		"$T/t.csv" || fail "mix_sent: $(csv_col "$T/t.csv" mix_sent)"
	# Each GET reads the key its request has just set: all hit.
	[ "$(csv_col "$T/t.csv" server_misses | sort -u)" = 0 ] ||
		fail "a read of the request's own key missed: $(csv_col "$T/t.csv" server_misses)"
	[ "$(csv_col "$T/t.csv" server_hits | sort -u)" = 6000 ] ||
		fail "server_hits $(csv_col "$T/t.csv" server_hits)"
	expect_status 0 "$RSWEEP" run --spawn -P 5 --mode window -c 4 --threads 2 -n 3001 -r 1000 \
		--repeat 1 -q -o "$T/w.csv" -- 3 INCR 'c:__rand_int__' ';' GET 'c:__rand_int__'
	check_seq "$T/w.csv" 1 4
	[ "$(csv_col "$T/w.csv" requests)" = 3001 ] || fail "window: $(csv_col "$T/w.csv" requests)"
}
tcase 'a transaction and a sequence: every command counted exactly' t_transaction

# Half the reads miss: GETBIT on the key the request has just set, and on
# a key nobody sets.  GETBIT answers 0 either way, no nil: only the
# server's counts tell, and the report says so.
t_getbit() {
	expect_status 0 "$RSWEEP" run --spawn -P 1,16 -n 4000 -r 1000 --repeat 1 -q -o "$T/g.csv" \
		-- SETBIT 'a:__key__' 7 1 ';' GETBIT 'a:__key__' 7 ';' GETBIT 'b:__key__' 7
	check_seq "$T/g.csv" 2 3
	[ "$(csv_col "$T/g.csv" server_misses | sort -u)" = 4000 ] ||
		fail "server_misses $(csv_col "$T/g.csv" server_misses)"
	[ "$(csv_col "$T/g.csv" server_hits | sort -u)" = 4000 ] ||
		fail "server_hits $(csv_col "$T/g.csv" server_hits)"
	[ "$(csv_col "$T/g.csv" misses | sort -u)" = 0 ] || fail "nil replies from GETBIT"
	grep -q "the server counted 4000 reads that found nothing" "$T/err" ||
		fail "no note of the misses: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" report "$T/g.csv"
	grep -q "50% of its reads found nothing" "$T/out" ||
		fail "the report does not say half the reads missed: $(cat "$T/out")"
}
tcase 'GETBIT on half-missing keys: reported with its misses' t_getbit

t_refused() {
	run_refused "an empty command in the sequence after --" --spawn -- GET a ';'
	run_refused "an empty command in the sequence after --" --spawn -- GET a ';' ';' GET b
	run_refused "an empty command in the sequence after --" --spawn -- ';' GET b
	run_refused "repeat count 0 is out of range (1 to 1000)" --spawn -- 0 GET a
	run_refused "repeat count 1001 is out of range (1 to 1000)" --spawn -- 1001 GET a
	run_refused "more than 16 commands in the sequence" --spawn -- A ';' B ';' C ';' D ';' E \
		';' F ';' G ';' H ';' I ';' J ';' K ';' L ';' M ';' N ';' O ';' P ';' Q
	run_refused "more than 14 commands in the sequence" --spawn --transaction -- A ';' B ';' C \
		';' D ';' E ';' F ';' G ';' H ';' I ';' J ';' K ';' L ';' M ';' N ';' O
	run_refused "sends more than 10000 commands a request" --spawn -- 1000 GET a ';' 1000 GET b \
		';' 1000 GET c ';' 1000 GET d ';' 1000 GET e ';' 1000 GET f ';' 1000 GET g ';' \
		1000 GET h ';' 1000 GET i ';' 1000 GET j ';' 1 GET k
	run_refused "--transaction wraps the command after -- in MULTI and EXEC" --spawn \
		--transaction -t get
	run_refused "--cluster does not run a sequence of commands" -h 127.0.0.1 -p 1 --cluster \
		-- GET a ';' GET b
	run_refused "--cluster does not run a sequence of commands" -h 127.0.0.1 -p 1 --cluster \
		--transaction -- GET a
}
tcase 'bad sequences: one line, exit 2, no file' t_refused

tcase_done
