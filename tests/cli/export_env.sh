#!/bin/sh
# The runs' environment (issue 45) in export and plot: benchstat's
# configuration lines carry each label's machine and server before its
# rows, never a password (one is planted in intel's target); the JSON
# formats stay as they were; a chart's footer names the labels' machines
# where they differ, and says nothing of equal ones or of files without
# a sidecar.  tests/data/env: two short spawned runs, intel's sidecar
# planted with another CPU, cores, governor and a VM.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

D=${RS_SRCDIR:-.}/tests/data/env

# line_of FILE REGEX: the number of FILE's first line matching REGEX (0: none).
line_of() {
	n=$(grep -n -m1 -e "$2" "$1" | cut -d: -f1)
	echo "${n:-0}"
}

t_benchstat() {
	expect_status 0 "$RSWEEP" export --format benchstat "$D/m1.csv" "$D/intel.csv"
	cp "$T/out" "$T/b.txt"
	[ "$(head -1 "$T/b.txt")" = "Unit rps better=higher" ] || fail "first line: $(head -1 "$T/b.txt")"
	for l in 'cpu: Apple M1 Max' 'cores: 8' 'governor: performance' 'virt: none' \
		 'cpu: Intel(R) Xeon(R) CPU E5-2680 v4' 'cores: 4' 'governor: powersave' \
		 'virt: kvm' 'server: redis 7.0.15' 'io-threads: 1' 'appendfsync: everysec'; do
		grep -qxF "$l" "$T/b.txt" || fail "no line '$l': $(cat "$T/b.txt")"
	done
	# Each label's lines before its block: m1's before its first row,
	# intel's after m1's last row and before intel's first.
	m1cpu=$(line_of "$T/b.txt" '^cpu: Apple')
	m1first=$(line_of "$T/b.txt" '/label=m1/')
	m1last=$(grep -n '/label=m1/' "$T/b.txt" | tail -1 | cut -d: -f1)
	icpu=$(line_of "$T/b.txt" '^cpu: Intel')
	igov=$(line_of "$T/b.txt" '^governor: powersave')
	ifirst=$(line_of "$T/b.txt" '/label=intel/')
	[ "$m1cpu" -gt 0 ] && [ "$m1cpu" -lt "$m1first" ] || fail "m1's cpu line is not before its rows"
	[ "$icpu" -gt "$m1last" ] && [ "$icpu" -lt "$ifirst" ] && [ "$igov" -gt "$m1last" ] &&
		[ "$igov" -lt "$ifirst" ] || fail "intel's lines are not before its block: $(cat "$T/b.txt")"
	# Only settings: nothing that differs from run to run, no target.
	! grep -qE '^(load|load-start|load-end|started|command|target|label|client-cpus):' "$T/b.txt" ||
		fail "a run's own figure became configuration: $(grep -E '^[a-z-]+:' "$T/b.txt")"
	# The planted password reaches no output, nor the messages.
	! grep -q sekrit "$T/b.txt" "$T/err" || fail "the password is in the export"
	# The rows are the ones written without a sidecar, in the same order.
	mkdir -p "$T/bare"
	cp "$D/m1.csv" "$D/intel.csv" "$T/bare/"
	expect_status 0 "$RSWEEP" export --format benchstat "$T/bare/m1.csv" "$T/bare/intel.csv"
	! grep -q ':' "$T/out" || fail "config lines without a sidecar: $(grep : "$T/out")"
	grep -v '^[a-z-]*:' "$T/b.txt" | cmp -s - "$T/out" || fail "the sidecar changed the rows"
	# The other order: intel's configuration first; --relabel keeps each
	# file's environment with its rows.
	expect_status 0 "$RSWEEP" export --format benchstat --relabel m1=apple "$D/intel.csv" "$D/m1.csv"
	[ "$(sed -n 2p "$T/out")" = 'cpu: Intel(R) Xeon(R) CPU E5-2680 v4' ] ||
		fail "intel first: $(head -3 "$T/out")"
	[ "$(line_of "$T/out" '^cpu: Apple')" -lt "$(line_of "$T/out" '/label=apple/')" ] ||
		fail "relabelled: $(cat "$T/out")"
}
tcase "benchstat: each label's machine and server before its rows, no password" t_benchstat

t_interleaved() {
	# One file of two servers' rows taking turns (an interleaved run's):
	# the rows grouped by environment, each's lines written once.
	head -1 "$D/m1.csv" >"$T/mixed.csv"
	tail -n +2 "$D/m1.csv" >"$T/a"
	tail -n +2 "$D/intel.csv" >"$T/b"
	paste -d '\n' "$T/a" "$T/b" >>"$T/mixed.csv"
	cat "$D/m1.csv.env" "$D/intel.csv.env" >"$T/mixed.csv.env"
	expect_status 0 "$RSWEEP" export --format benchstat "$T/mixed.csv"
	[ "$(grep -c '^cpu:' "$T/out")" = 2 ] || fail "cpu lines: $(grep '^cpu:' "$T/out")"
	[ "$(line_of "$T/out" '^cpu: Intel')" -gt "$(grep -n '/label=m1/' "$T/out" | tail -1 | cut -d: -f1)" ] ||
		fail "m1's rows are not together: $(cat "$T/out")"
	grep '^Benchmark' "$T/out" | sort >"$T/with"
	mkdir -p "$T/bare"
	cp "$T/mixed.csv" "$T/bare/"
	expect_status 0 "$RSWEEP" export --format benchstat "$T/bare/mixed.csv"
	sort "$T/out" | grep '^Benchmark' | cmp -s - "$T/with" || fail "rows lost or changed"
	# Without the sidecar, the file's own order.
	sed -n 3p "$T/out" | grep -q '/label=intel/' || fail "the order without a sidecar: $(head -3 "$T/out")"
}
tcase "benchstat: an interleaved file's rows grouped by environment" t_interleaved

t_json_kept() {
	# memtier-json and valkey-metrics have no place whose keys their
	# readers do not group by: a sidecar changes nothing in them.
	mkdir -p "$T/bare"
	cp "$D/m1.csv" "$D/intel.csv" "$T/bare/"
	for f in memtier-json valkey-metrics; do
		expect_status 0 "$RSWEEP" export --format $f "$D/m1.csv" "$D/intel.csv"
		cp "$T/out" "$T/with"
		expect_status 0 "$RSWEEP" export --format $f "$T/bare/m1.csv" "$T/bare/intel.csv"
		cmp -s "$T/with" "$T/out" || fail "$f changed with the sidecar"
		! grep -q sekrit "$T/with" || fail "$f: the password is in the export"
	done
}
tcase 'the JSON formats are the same with and without the sidecar' t_json_kept

t_damaged() {
	cp "$D/m1.csv" "$D/m1.csv.env" "$T/"
	echo '[1]' >>"$T/m1.csv.env"
	expect_status 0 "$RSWEEP" export --format benchstat "$T/m1.csv"
	grep -q 'm1.csv.env:3: .*(the export leaves that environment out)' "$T/err" ||
		fail "the damaged sidecar is not said: $(cat "$T/err")"
	grep -q '^BenchmarkGET/label=m1/' "$T/out" || fail "no rows: $(cat "$T/out")"
	# Writing over an input's environment sidecar is refused, as over its
	# histograms.
	cp "$D/m1.csv.env" "$T/m1.csv.env"
	expect_status 2 "$RSWEEP" export --format benchstat -o "$T/m1.csv.env" "$T/m1.csv"
	grep -q 'is the environment sidecar of the input' "$T/err" || fail "$(cat "$T/err")"
	cmp -s "$D/m1.csv.env" "$T/m1.csv.env" || fail "the sidecar was written over"
}
tcase 'a damaged sidecar is said and left out; the export stands, never over it' t_damaged

# footer SVG: the chart's footer lines.
footer() {
	grep -o '<text[^>]*>[^<]*</text>' "$1" | sed 's/<[^>]*>//g'
}

t_plot() {
	expect_status 0 "$RSWEEP" plot -o "$T/a.svg" "$D/m1.csv" "$D/intel.csv"
	footer "$T/a.svg" | grep -qxF 'm1: Apple M1 Max, 8 cores, performance governor, bare metal; intel: Intel(R) Xeon(R) CPU E5-2680 v4, 4 cores, powersave governor, a VM (kvm)' ||
		fail "no environment line: $(footer "$T/a.svg" | tail -4)"
	! grep -q sekrit "$T/a.svg" || fail "the password is in the chart"
	# Two labels of one machine: no line.
	sed 's/^m1,/m2,/' "$D/m1.csv" >"$T/m2.csv"
	sed 's/"label":"m1"/"label":"m2"/' "$D/m1.csv.env" >"$T/m2.csv.env"
	expect_status 0 "$RSWEEP" plot -o "$T/b.svg" "$D/m1.csv" "$T/m2.csv"
	! footer "$T/b.svg" | grep -q 'cores\|governor' || fail "a line for equal environments"
	# Without sidecars the chart is the one it was: no line, and the same
	# bytes as the chart of the sidecars' files once they are gone.
	mkdir -p "$T/bare"
	cp "$D/m1.csv" "$D/intel.csv" "$T/bare/"
	expect_status 0 "$RSWEEP" plot -o "$T/c.svg" "$T/bare/m1.csv" "$T/bare/intel.csv"
	! footer "$T/c.svg" | grep -q 'cores\|governor' || fail "a line without sidecars"
	cp "$T/m2.csv" "$T/bare/"
	expect_status 0 "$RSWEEP" plot -o "$T/d.svg" "$T/bare/m1.csv" "$T/bare/m2.csv"
	cmp -s "$T/b.svg" "$T/d.svg" || fail "equal environments changed the chart"
}
tcase 'plot: the footer names the machines where they differ, only then' t_plot

tcase_done
