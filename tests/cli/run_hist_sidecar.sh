#!/bin/sh
# Every row of rsweep run has its latency histogram in FILE.csv.hist, with
# the row's key and as many values as the row has requests; --resume adds
# the new points' lines, --overwrite starts both files anew; a sidecar that
# is a link is refused before anything runs; import does not write beside
# one.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_rows() {
	expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,4 -n 3001 --repeat 2 -q -o "$T/r.csv"
	[ -f "$T/r.csv.hist" ] || fail "no sidecar"
	[ "$(head -1 "$T/r.csv.hist")" = "label,test,pipeline,mode,rate_offered,arrivals,repeat,started_at,hist" ] ||
		fail "sidecar header: $(head -1 "$T/r.csv.hist")"
	[ "$(rows "$T/r.csv.hist")" = 8 ] || fail "$(rows "$T/r.csv.hist") histograms for 8 rows"
	# Each row's key, requests; each histogram's key, count: the same lists.
	awk -F, 'NR > 1 { print $1, $2, $3, $6, $5 }' "$T/r.csv" | sort >"$T/a"
	awk -F, 'NR > 1 { split($9, h, " "); print $1, $2, $3, $7, h[2] }' "$T/r.csv.hist" | sort >"$T/b"
	cmp -s "$T/a" "$T/b" || fail "rows and histograms differ: $(diff "$T/a" "$T/b")"
}
tcase 'every row has its histogram in FILE.csv.hist, with its key and count' t_rows

t_resume() {
	tcase_needs 'every row has its histogram in FILE.csv.hist, with its key and count'
	expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,4,8 -n 3001 --repeat 2 -q -o "$T/r.csv" --resume
	[ "$(rows "$T/r.csv.hist")" = 12 ] || fail "$(rows "$T/r.csv.hist") histograms for 12 rows"
}
tcase "--resume adds the new points' histograms" t_resume

t_overwrite() {
	expect_status 0 "$RSWEEP" run --spawn -t get -P 2 -n 3001 --repeat 1 -q -o "$T/r.csv" --overwrite
	[ "$(rows "$T/r.csv")" = 1 ] || fail "--overwrite: $(rows "$T/r.csv") rows"
	[ "$(rows "$T/r.csv.hist")" = 1 ] || fail "--overwrite kept $(rows "$T/r.csv.hist") histograms"
}
tcase '--overwrite starts both files anew' t_overwrite

# Imported rows have no histograms: import refuses to write beside a
# sidecar (even with --overwrite), and changes neither file.
t_import() {
	tcase_needs '--overwrite starts both files anew'
	cp "$T/r.csv" "$T/r.before"
	cp "$T/r.csv.hist" "$T/h.before"
	expect_status 2 "$RSWEEP" import --overwrite -P 1 -o "$T/r.csv" "${RS_SRCDIR:-.}/tests/data/import/redis-6.2-loop-q.txt"
	grep -q "r.csv.hist holds the latency histograms of another run's rows" "$T/err" ||
		fail "import: $(cat "$T/err")"
	cmp -s "$T/r.csv" "$T/r.before" && cmp -s "$T/r.csv.hist" "$T/h.before" || fail "import changed the files"
}
tcase 'import refuses to write beside a sidecar, changing neither file' t_import

t_link() {
	echo precious >"$T/victim"
	ln -s "$T/victim" "$T/l.csv.hist"
	expect_status 2 "$RSWEEP" run --spawn -t get -P 2 -n 3001 -q -o "$T/l.csv"
	grep -q "l.csv.hist is a symbolic link" "$T/err" || fail "link: $(cat "$T/err")"
	[ ! -e "$T/l.csv" ] || fail "link: the CSV was made"
	[ "$(cat "$T/victim")" = precious ] || fail "written through the link"
}
tcase 'a sidecar that is a link is refused before anything runs' t_link

tcase_done
