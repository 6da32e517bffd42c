#!/bin/sh
# --resume into a CSV an older rsweep wrote (its header lacks columns this
# version has): the rows added go in the file's own columns, so it stays
# one table that reads back whole; a note names the columns left out.  A
# header with a column this version does not write is refused, the file
# untouched.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
f=$T/old.csv
args="-s $SOCK -t get -P 1,2,3,4 --repeat 1 -n 2000 -c 2 -q -o $f"

t_older() {
	# shellcheck disable=SC2086
	expect_status 0 "$RSWEEP" run $args -P 1,2
	# An older version's file: the same rows without other_cpus and svc_p99_ms.
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "other_cpus" || $i == "svc_p99_ms") drop[i] = 1 }
		{ s = ""; for (i = 1; i <= NF; i++) if (!(i in drop)) s = s (s == "" ? "" : OFS) $i; print s }' \
		"$f" >"$T/cut" && mv "$T/cut" "$f"
	head -1 "$f" | grep -q other_cpus && fail "the test did not drop a column"
	ncol=$(head -1 "$f" | awk -F, '{ print NF }')
	# shellcheck disable=SC2086
	expect_status 0 "$RSWEEP" run $args --resume
	grep -q "note: $f was written by an older rsweep: the rows added to it leave out other_cpus, svc_p99_ms" "$T/err" ||
		fail "no note of the columns left out: $(cat "$T/err")"
	check_csv "$f"
	[ "$(rows "$f")" = 4 ] || fail "$(rows "$f") rows after --resume, wanted 4"
	bad=$(awk -F, -v n="$ncol" 'NF != n' "$f" | wc -l)
	[ "$bad" = 0 ] || fail "$bad lines do not have the header's $ncol fields"
	expect_status 0 "$RSWEEP" report "$f"
}
tcase '--resume into an older file adds rows in its own columns, with a note' t_older

# Rows a column the file lacks would tell apart: a window or open-loop run
# into a file without mode, rate_offered and arrivals is refused, the file
# untouched (its rows would read as lock-step, closed loop).
t_no_mode() {
	tcase_needs '--resume into an older file adds rows in its own columns, with a note'
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mode" || $i == "rate_offered" || $i == "arrivals") drop[i] = 1 }
		{ s = ""; for (i = 1; i <= NF; i++) if (!(i in drop)) s = s (s == "" ? "" : OFS) $i; print s }' \
		"$f" >"$T/nomode.csv"
	sum=$(cksum <"$T/nomode.csv")
	for how in "--mode window" "--rate 5000"; do
		# shellcheck disable=SC2086 # $how is two words
		expect_status 2 "$RSWEEP" run -s "$SOCK" -t get -P 1,2 --repeat 2 -n 2000 -c 2 -q \
			-o "$T/nomode.csv" --resume $how
		grep -q "nomode.csv was written by an older rsweep and has no mode column, which" "$T/err" ||
			fail "$how into a file without mode: $(cat "$T/err")"
		[ "$(cksum <"$T/nomode.csv")" = "$sum" ] || fail "$how changed the file"
	done
}
tcase 'a window or open-loop run into a file without mode is refused, the file untouched' t_no_mode

# A column this version does not write: refused, nothing changed.
t_odd() {
	tcase_needs '--resume into an older file adds rows in its own columns, with a note'
	sed '1s/^label,/label,/; 1s/,first_error$/,mystery,first_error/; 2,$s/,\([^,]*\)$/,,\1/' "$f" >"$T/odd.csv"
	sum=$(cksum <"$T/odd.csv")
	expect_status 2 "$RSWEEP" run -s "$SOCK" -t get -P 1..6 --repeat 1 -n 2000 -c 2 -q -o "$T/odd.csv" --resume
	grep -q "odd.csv: not written by this version of rsweep (its column mystery is not one this version writes); resume into it refused, nothing changed" "$T/err" ||
		fail "wrong refusal: $(cat "$T/err")"
	[ "$(cksum <"$T/odd.csv")" = "$sum" ] || fail "the refused resume changed the file"
}
tcase 'a column this version does not write is refused, nothing changed' t_odd

tcase_done
