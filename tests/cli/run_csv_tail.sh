#!/bin/sh
# How the end of a results CSV is read: only a final line without a newline
# is a crash's leftover; a whole row there is kept (and --resume gives it its
# newline back); a stray quote anywhere is an error that changes nothing.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis
run() {
	"$RSWEEP" run -s "$SOCK" -t get,set -P 1..2 -n 2000 -c 5 --repeat 1 -q -o "$T/f.csv" "$@"
}
expect_status 0 run -l a
expect_status 0 run -l b --resume
[ "$(rows "$T/f.csv")" = 8 ] || fail "setup: $(rows "$T/f.csv") rows"
cp "$T/f.csv" "$T/good.csv"

# A stray opening quote in row 3 (line 4): refused by every reader with
# FILE:LINE, exit 2, and --resume leaves the file byte for byte as it was.
t_quote() {
	awk -F, -v OFS=, 'NR == 4 { $24 = "\"unix:/tmp/x" } { print }' "$T/good.csv" >"$T/f.csv"
	cp "$T/f.csv" "$T/quote.csv"
	for label in a c; do
		expect_status 2 run -l $label --resume
		grep -q "f.csv:4: unterminated quoted field" "$T/err" || fail "resume $label: $(cat "$T/err")"
		[ "$(wc -l <"$T/err")" = 1 ] || fail "resume $label: not one line: $(cat "$T/err")"
		cmp -s "$T/f.csv" "$T/quote.csv" || fail "resume -l $label changed the file"
	done
	expect_status 2 "$RSWEEP" report "$T/f.csv"
	grep -q "f.csv:4: unterminated quoted field" "$T/err" || fail "report: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" plot -o "$T/q.png" "$T/f.csv"
	grep -q "f.csv:4: unterminated quoted field" "$T/err" || fail "plot: $(cat "$T/err")"
	[ ! -e "$T/q.png" ] || fail "plot drew a chart of a broken file"
}
tcase 'a stray quote: refused by every reader with FILE:LINE, --resume leaves the file as it was' t_quote

# A complete last row without its newline is a row: report and plot read
# all 8 rows and say nothing; --resume puts the newline back and goes on.
t_whole_row() {
	cp "$T/good.csv" "$T/f.csv"
	truncate -s -1 "$T/f.csv"
	expect_status 0 "$RSWEEP" report --wide "$T/f.csv"
	[ ! -s "$T/err" ] || fail "report on a whole last row: $(cat "$T/err")"
	grep -q "^  b  *SET  *1,2 " "$T/out" || fail "report lost the last row: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" plot -o "$T/w.png" "$T/f.csv"
	[ ! -s "$T/err" ] || fail "plot on a whole last row: $(cat "$T/err")"
	expect_status 0 run -l c --resume
	[ "$(rows "$T/f.csv")" = 12 ] || fail "resume after a whole last row: $(rows "$T/f.csv") rows"
	check_csv "$T/f.csv"
	head -9 "$T/f.csv" | cmp -s - "$T/good.csv" || fail "the first 8 rows changed"
	[ "$(grep -c '^b,' "$T/f.csv")" = 4 ] || fail "a row of label b was lost"
}
tcase 'a whole last row without its newline is a row, and --resume gives it one' t_whole_row

# Half a row at the end is a crash's leftover: report and plot name it on
# one line each and ignore it; --resume cuts it off and measures it again.
t_half_row() {
	cp "$T/good.csv" "$T/f.csv"
	truncate -s -40 "$T/f.csv"
	expect_status 0 "$RSWEEP" report "$T/f.csv"
	grep -q "f.csv:9: .*no end of line.*ignored" "$T/err" || fail "report: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "report: not one line: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" plot -o "$T/h.png" "$T/f.csv"
	grep -q "f.csv:9: .*no end of line.*ignored" "$T/err" || fail "plot is silent: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "plot: not one line: $(cat "$T/err")"
	expect_status 0 run -l b --resume
	[ "$(rows "$T/f.csv")" = 8 ] || fail "resume after half a row: $(rows "$T/f.csv") rows"
	check_csv "$T/f.csv"
}
tcase 'half a row at the end is named and ignored, and --resume measures it again' t_half_row

tcase_done
