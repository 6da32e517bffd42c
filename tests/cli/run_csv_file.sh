#!/bin/sh
# The results file itself: one writer at a time, locked before it is read;
# a file deleted or replaced mid-sweep stops the run; a FIFO, a device or a
# directory is refused at once; a write that fails leaves whole rows; SIGTERM
# still gives 130.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
long="-s $SOCK -t get,set -P 1..30 -n 5000 -c 5 --repeat 1 -q"

# Another writer holds the lock: refused before the file is even read (this
# one would otherwise be refused as foreign), naming the holder's pid.
t_lock_held() {
	echo "name,age" >"$T/held.csv"
	flock -n "$T/held.csv" sleep 30 &
	holder=$!
	for _ in $(seq 1 500); do grep -q "FLOCK.* $holder " /proc/locks 2>/dev/null && break; sleep 0.01; done
	expect_status 1 "$RSWEEP" run $long -o "$T/held.csv" --resume
	grep -q "held.csv is being written by another rsweep (pid $holder)" "$T/err" ||
		fail "lock held: $(cat "$T/err")"
	[ "$(cat "$T/held.csv")" = "name,age" ] || fail "held.csv changed"
	kill "$holder"
	wait "$holder" 2>/dev/null
}
tcase 'a file another writer holds is refused before it is read' t_lock_held

# Two --resume runs on one file: the second is refused, the first completes
# with every point once.
t_two_resume() {
	"$RSWEEP" run $long -o "$T/two.csv" --resume >/dev/null 2>"$T/err1" &
	first=$!
	wait_rows "$T/two.csv" 2
	expect_status 1 "$RSWEEP" run $long -o "$T/two.csv" --resume
	grep -q "two.csv is being written by another rsweep (pid $first)" "$T/err" ||
		fail "second --resume: $(cat "$T/err")"
	wait "$first" || fail "the first run failed: $(cat "$T/err1")"
	[ "$(rows "$T/two.csv")" = 60 ] || fail "two.csv: $(rows "$T/two.csv") rows"
	check_csv "$T/two.csv"
}
tcase 'of two --resume runs on one file the second is refused' t_two_resume

# A file report refuses (a row given twice) is refused by --resume too,
# not taken as "every point is already in".
t_dup() {
	tcase_needs 'of two --resume runs on one file the second is refused'
	{ cat "$T/two.csv"; tail -n 1 "$T/two.csv"; } >"$T/dup.csv"
	expect_status 2 "$RSWEEP" run $long -o "$T/dup.csv" --resume
	grep -q "dup.csv:62: duplicate point (.*first at .*dup.csv:61) (report and plot refuse this file too)" "$T/err" ||
		fail "duplicate row: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" report "$T/dup.csv"
	grep -q "dup.csv:62: duplicate point" "$T/err" || fail "report, duplicate row: $(cat "$T/err")"
}
tcase 'a file with a duplicate point is refused by --resume and report' t_dup

# The CSV deleted mid-sweep: exit 1 with a message naming it, not success.
t_deleted() {
	"$RSWEEP" run $long -o "$T/del.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/del.csv" 2
	rm "$T/del.csv"
	wait "$pid"
	st=$?
	[ "$st" = 1 ] || fail "deleted: exit $st, wanted 1: $(cat "$T/err")"
	grep -q "del.csv was deleted during the run.*point [0-9]* (.*) .*in no file" "$T/err" ||
		fail "deleted: $(cat "$T/err")"
	[ ! -e "$T/del.csv" ] || fail "deleted: the file came back"
}
tcase 'the CSV deleted mid-sweep stops the run' t_deleted

# ... or replaced by another file: that one is left alone.
t_replaced() {
	"$RSWEEP" run $long -o "$T/rep.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/rep.csv" 2
	echo "someone else's" >"$T/other"
	mv "$T/other" "$T/rep.csv"
	wait "$pid"
	st=$?
	[ "$st" = 1 ] || fail "replaced: exit $st, wanted 1: $(cat "$T/err")"
	grep -q "rep.csv was replaced by another file during the run" "$T/err" ||
		fail "replaced: $(cat "$T/err")"
	[ "$(cat "$T/rep.csv")" = "someone else's" ] || fail "the new rep.csv was written to"
}
tcase 'the CSV replaced mid-sweep stops the run, the new file untouched' t_replaced

# ... or truncated (": >", logrotate's copytruncate): stopped, exit 1, not
# rows going on without a header into a file that then reads as none.
t_truncated() {
	"$RSWEEP" run $long -o "$T/trunc.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/trunc.csv" 2
	: >"$T/trunc.csv"
	wait "$pid"
	st=$?
	[ "$st" = 1 ] || fail "truncated: exit $st, wanted 1: $(cat "$T/err")"
	grep -q "trunc.csv was truncated during the run (0 of its [0-9]* bytes left): the rows \(before\|up to\) point [0-9]* (.*) were cut from it" "$T/err" ||
		fail "truncated: $(cat "$T/err")"
	[ "$(wc -l <"$T/trunc.csv")" -le 1 ] || fail "truncated: rows went on: $(cat "$T/trunc.csv")"
}
tcase 'the CSV truncated mid-sweep stops the run' t_truncated

# Not a regular file: refused at once with one line, exit 2 (timeout: a
# regression fails instead of hanging in open()).
t_not_regular() {
	mkfifo "$T/fifo"
	for out in "$T/fifo" /dev/null "$T"; do
		expect_status 2 timeout 5 "$RSWEEP" run -s "$SOCK" -t get -n 100 -o "$out"
		grep -q "$out is not a regular file" "$T/err" || fail "$out: $(cat "$T/err")"
		[ "$(wc -l <"$T/err")" = 1 ] || fail "$out: not one line: $(cat "$T/err")"
	done
}
tcase 'a FIFO, a device or a directory as -o is refused at once' t_not_regular

# A symbolic link as -o, to a file or dangling: refused before measuring,
# exit 2, nothing written on either side of it.
t_symlink() {
	echo "untouched" >"$T/target.csv"
	ln -s "$T/target.csv" "$T/link.csv"
	ln -s "$T/nowhere.csv" "$T/dangling.csv"
	for out in "$T/link.csv" "$T/dangling.csv"; do
		for mode in "" --resume --overwrite; do
			expect_status 2 timeout 5 "$RSWEEP" run -s "$SOCK" -t get -n 100 -o "$out" $mode
			grep -q "$out is a symbolic link: rows go to a regular file, not through a link" "$T/err" ||
				fail "$out $mode: $(cat "$T/err")"
			[ "$(wc -l <"$T/err")" = 1 ] || fail "$out: not one line: $(cat "$T/err")"
			grep -q "points in" "$T/err" && fail "$out: measured"
		done
	done
	[ "$(cat "$T/target.csv")" = untouched ] || fail "the link's target was written to"
	[ ! -e "$T/nowhere.csv" ] && [ ! -e "$T/link.csv.hist" ] && [ ! -e "$T/target.csv.hist" ] ||
		fail "a file was made through or beside a link"
}
tcase 'a symbolic link as -o is refused, nothing written through it' t_symlink

# A write that fails (here: over the file size limit, SIGXFSZ ignored) is
# an error, exit 1, and the file keeps whole rows only.  The histograms'
# sidecar, written before each row and with longer lines, most often
# meets the limit first: it too keeps whole lines, and the CSV whole rows.
t_full() {
	(ulimit -f 1 && trap '' XFSZ && exec "$RSWEEP" run $long -o "$T/full.csv") >/dev/null 2>"$T/err"
	st=$?
	[ "$st" = 1 ] || fail "file size limit: exit $st: $(cat "$T/err")"
	grep -q "full.csv\(.hist\)\{0,1\}: cannot write: File too large (the rows before are intact)" "$T/err" ||
		fail "file size limit: $(cat "$T/err")"
	for f in "$T/full.csv" "$T/full.csv.hist"; do
		[ ! -s "$f" ] || [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || fail "$f ends in half a line"
	done
	[ ! -e "$T/full.csv" ] || check_csv "$T/full.csv"
}
tcase 'a write over the file size limit leaves whole rows' t_full

# SIGTERM mid-sweep into a CSV: exit 130, rows whole, --resume completes.
t_sigterm() {
	"$RSWEEP" run $long -o "$T/term.csv" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/term.csv" 2
	kill -TERM "$pid"
	wait "$pid"
	st=$?
	[ "$st" = 130 ] || fail "SIGTERM: exit $st, wanted 130: $(cat "$T/err")"
	check_csv "$T/term.csv"
	expect_status 0 "$RSWEEP" run $long -o "$T/term.csv" --resume
	[ "$(rows "$T/term.csv")" = 60 ] || fail "term.csv: $(rows "$T/term.csv") rows after --resume"
	check_csv "$T/term.csv"
}
tcase 'SIGTERM mid-sweep exits 130 and --resume completes' t_sigterm

# --resume on another server with the same label: refused, not "every
# point is already in"; a spawned server is named for what it is.
t_other_server() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1,2 -n 2000 -c 2 -q -l z -o "$T/z.csv"
	expect_status 2 "$RSWEEP" run --spawn -t get -P 1,2 -n 2000 -c 2 -q -l z -o "$T/z.csv" --resume
	grep -q "label 'z' was measured on unix:$SOCK, this run is on spawned redis-server (UNIX socket)" \
		"$T/err" || fail "resume on another target: $(cat "$T/err")"
	[ "$(rows "$T/z.csv")" = 6 ] || fail "z.csv changed"
}
tcase '--resume on another server with the same label is refused' t_other_server

# --precision: more rows than the plan, at most --max-repeats a point, no
# duplicate point (check_csv), and a note that says how it ended; a
# --resume with --precision goes on from the rows there.
t_precision() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1..6 -n 2000 -c 2 -q -l p -o "$T/p.csv" \
		--precision 0.5 --max-repeats 3
	grep -q -- "--precision: .* at 3 repeats (--max-repeats" "$T/err" || fail "precision: $(cat "$T/err")"
	[ "$(rows "$T/p.csv")" -gt 6 ] && [ "$(rows "$T/p.csv")" -le 18 ] || fail "precision: $(rows "$T/p.csv") rows"
	check_csv "$T/p.csv"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1..6 -n 2000 -c 2 -q -l p -o "$T/p.csv" \
		--precision 0.5 --max-repeats 4 --resume
	[ "$(rows "$T/p.csv")" -le 24 ] || fail "precision resumed: $(rows "$T/p.csv") rows"
	check_csv "$T/p.csv"
	expect_status 0 "$RSWEEP" report "$T/p.csv"
}
tcase '--precision repeats points up to --max-repeats, and resumes' t_precision

tcase_done
