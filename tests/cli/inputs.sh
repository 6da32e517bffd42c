#!/bin/sh
# The input pipeline of report, plot and export (issues 40 and 43): no
# output of any command carries a target's password, whatever its input
# (rows with one, an imported memtier file with one); an output that is
# one of the inputs (or a sidecar), by name, link or another spelling, is
# refused with status 2 and leaves the input whole; an output through a
# dangling link makes the file the link names; export picks points with
# -t, --depths and --relabel as report does; --relabel's FILE may hold '='.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

D="$RS_SRCDIR/tests/data/memtier"
expect_status 0 "$RSWEEP" run --spawn -t get,set -P 1,4 -n 2001 --repeat 2 -q -l m1 -o "$T/r.csv"

# The target column (24) given a password, as an imported file's may be;
# the sidecar pairs rows by their key and start, so it still serves.
col=$(head -1 "$T/r.csv" | tr , '\n' | grep -n '^target$' | cut -d: -f1)
awk -F, -v OFS=, -v c="$col" 'NR > 1 { $c = "redis://admin:Sekrit99@10.0.0.1:6379/0" } 1' \
	"$T/r.csv" >"$T/pw.csv"
cp "$T/r.csv.hist" "$T/pw.csv.hist"
awk -F, -v OFS=, -v c="$col" 'NR > 1 { $c = "redis://Sekrit99@h:6379" } 1' "$T/r.csv" >"$T/pw2.csv"
cp "$T/r.csv.hist" "$T/pw2.csv.hist"

# no_secret FILE WHAT: FILE holds no trace of the password.
no_secret() {
	if grep -q Sekrit "$1"; then
		fail "$2 carries the password: $(grep -o '.\{30\}Sekrit.\{10\}' "$1" | head -2)"
	fi
}

t_exports() {
	for f in pw pw2; do
		for fmt in benchstat hgrm hlog memtier-json valkey-metrics; do
			expect_status 0 "$RSWEEP" export --format "$fmt" -o "$T/x.$fmt" "$T/$f.csv"
			no_secret "$T/x.$fmt" "export --format $fmt of $f.csv"
		done
		for fmt in text markdown csv json; do
			expect_status 0 "$RSWEEP" report --format "$fmt" -o "$T/x.$fmt" "$T/$f.csv"
			no_secret "$T/x.$fmt" "report --format $fmt of $f.csv"
		done
	done
	# The memtier server is the host alone; the target keeps its user.
	expect_status 0 "$RSWEEP" export --format memtier-json "$T/pw.csv"
	grep -q '"target":"redis://admin@10.0.0.1:6379/0"' "$T/out" || fail "target: $(head -c 400 "$T/out")"
	grep -q '"server":"10.0.0.1","port":6379' "$T/out" || fail "server: $(head -c 400 "$T/out")"
	expect_status 0 "$RSWEEP" export --format memtier-json "$T/pw2.csv"
	grep -q '"server":"h","port":6379' "$T/out" || fail "server: $(head -c 400 "$T/out")"
}
tcase "no export or report carries a target's password" t_exports

t_import() {
	sed -e 's#"server": null#"server": "redis://:Sekrit99@10.0.0.1"#' -e 's#"port": 0#"port": 6379#' \
		-e 's#"unix socket": "[^"]*"#"unix socket": ""#' "$D/ratio11-p8.json" >"$T/mpw.json"
	grep -q Sekrit "$T/mpw.json" || fail "the test's input has no password"
	expect_status 0 "$RSWEEP" import -q --from memtier -o "$T/m.csv" "$T/mpw.json"
	no_secret "$T/m.csv" "import --from memtier"
	[ "$(csv_col "$T/m.csv" target | sort -u)" = "redis://10.0.0.1:6379" ] ||
		fail "imported target: $(csv_col "$T/m.csv" target)"
	expect_status 0 "$RSWEEP" import -q --from memtier "$T/mpw.json"
	no_secret "$T/out" "import --from memtier to stdout"
	# A redis-benchmark capture whose -h holds one.
	sed 's/redis-benchmark -q/redis-benchmark -h admin:Sekrit99@10.0.0.1 -p 6380 -q/' \
		"$RS_SRCDIR/tests/data/import/redis-6.2-paste.txt" >"$T/cap.txt"
	grep -q Sekrit "$T/cap.txt" || fail "the capture has no password"
	expect_status 0 "$RSWEEP" import -q -l c "$T/cap.txt"
	no_secret "$T/out" "import of a capture"
}
tcase "import writes no password (memtier JSON, a capture)" t_import

# refused WHAT CMD...: CMD exits 2 naming the input, and r.csv and its
# sidecar are as they were.
refused() {
	what=$1
	shift
	expect_status 2 "$@"
	grep -q "is the \(input\|histogram sidecar of the input\)" "$T/err" || fail "$what: $(cat "$T/err")"
	cmp -s "$T/r.csv" "$T/keep.csv" || fail "$what: the input changed"
	cmp -s "$T/r.csv.hist" "$T/keep.csv.hist" || fail "$what: the sidecar changed"
}

t_over_input() {
	cp "$T/r.csv" "$T/keep.csv"
	cp "$T/r.csv.hist" "$T/keep.csv.hist"
	ln -s r.csv "$T/link.csv"
	refused "report -o input" "$RSWEEP" report -o "$T/r.csv" "$T/r.csv"
	refused "report -o ./input" "$RSWEEP" report -o "$T/./r.csv" "$T/r.csv"
	refused "report -o link" "$RSWEEP" report -o "$T/link.csv" "$T/r.csv"
	refused "report --baseline FILE" "$RSWEEP" report --baseline "$T/r.csv" -o "$T/r.csv" "$T/pw.csv"
	refused "export -o sidecar" "$RSWEEP" export --format hlog -o "$T/r.csv.hist" "$T/r.csv"
	refused "export -o input" "$RSWEEP" export -o "$T/link.csv" "$T/r.csv"
	refused "import --overwrite -o input" "$RSWEEP" import --overwrite -o "$T/r.csv" "$T/r.csv"
	# plot's outputs are .png or .pdf: an input so named.
	cp "$T/r.csv" "$T/r.png"
	expect_status 2 "$RSWEEP" plot -o "$T/r.png" "$T/r.png"
	grep -q "is the input" "$T/err" || fail "plot: $(cat "$T/err")"
	cmp -s "$T/r.csv" "$T/r.png" || fail "plot wrote over its input"
	# --split: two panels (m1-article's regular keys and lists), two files.
	awk -F, -v OFS=, 'NR > 1 && $2 == "GET" { $2 = "LPUSH" } NR == 1 || $2 == "LPUSH"' "$T/r.csv" >"$T/lp.png"
	expect_status 0 "$RSWEEP" plot --split --plot m1-article -o "$T/split.png" "$T/r.csv" "$T/lp.png"
	[ -s "$T/split-1.png" ] && [ -s "$T/split-2.png" ] || fail "--split: $(ls "$T")"
	cp "$T/lp.png" "$T/keep.png"
	mv "$T/lp.png" "$T/lp-2.png"
	expect_status 2 "$RSWEEP" plot --split --plot m1-article -o "$T/lp.png" "$T/r.csv" "$T/lp-2.png"
	grep -q "lp-2.png is the input" "$T/err" || fail "plot --split: $(cat "$T/err")"
	cmp -s "$T/lp-2.png" "$T/keep.png" || fail "plot --split wrote over its input"
}
tcase "an output that is an input is refused, the input left whole" t_over_input

t_dangling() {
	mkdir "$T/d"
	ln -s ../made.txt "$T/d/dangling"
	expect_status 0 "$RSWEEP" export -o "$T/d/dangling" "$T/r.csv"
	[ -L "$T/d/dangling" ] || fail "the link was replaced by a file"
	[ -s "$T/made.txt" ] || fail "the file the link names was not made"
	grep -q '^Unit rps better=higher$' "$T/made.txt" || fail "made: $(head -2 "$T/made.txt")"
}
tcase "an output through a dangling link makes the file it names" t_dangling

t_pick() {
	cp "$T/r.csv" "$T/run=2.csv"
	cp "$T/r.csv.hist" "$T/run=2.csv.hist"
	expect_status 0 "$RSWEEP" export -t get --depths 4 --relabel 'run=2.csv:m1=m2' "$T/run=2.csv"
	[ "$(grep -c '^BenchmarkGET/label=m2/P=4 ' "$T/out")" = 2 ] || fail "picked: $(cat "$T/out")"
	[ "$(grep -c '^Benchmark' "$T/out")" = 2 ] || fail "more than picked: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" export --format hgrm -t set --relabel m1=x "$T/r.csv"
	grep -q '^#\[label=x test=SET P=1 repeats=2\]$' "$T/out" || fail "hgrm relabelled: $(grep '^#\[' "$T/out")"
	grep -q 'test=GET' "$T/out" && fail "hgrm -t set kept GET"
	expect_status 2 "$RSWEEP" export -t gett "$T/r.csv"
	grep -q -- "--tests: unknown test 'gett'" "$T/err" || fail "-t gett: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" report --relabel 'run=2.csv:m1=m2' "$T/run=2.csv"
	grep -q 'm2' "$T/out" || fail "report relabel: $(head -5 "$T/out")"
}
tcase "export picks points with -t, --depths, --relabel; FILE may hold '='" t_pick

tcase_done
