#!/bin/sh
# The run's environment (issue 45): a spawned run's sidecar FILE.csv.env
# holds the machine and the server's configuration (its --spawn-args'
# io-threads and appendfsync read back from CONFIG GET), a server that
# refuses CONFIG still gives INFO's fields, no password reaches it; the
# report names a planted difference between two labels' environments
# before anything else, says which could explain the verdicts, and the
# html page escapes every string (a label of <script>).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# field FILE KEY: KEY's value in FILE's first line ("" when absent).
field() {
	head -1 "$1" | grep -o "\"$2\":\"[^\"]*\"" | sed 's/^"[^"]*":"//; s/"$//'
}

t_spawned() {
	expect_status 0 "$RSWEEP" run --spawn --spawn-args '--io-threads 2 --appendfsync always' \
		-l a -t get -P 1,2 -n 200 -q -o "$T/a.csv"
	e=$T/a.csv.env
	[ -f "$e" ] || fail "no $e"
	[ "$(grep -c . "$e")" = 2 ] || fail "wanted the run's line and its end's: $(cat "$e")"
	[ "$(field "$e" io_threads)" = 2 ] || fail "io_threads: $(cat "$e")"
	[ "$(field "$e" appendfsync)" = always ] || fail "appendfsync: $(cat "$e")"
	[ "$(field "$e" server_args)" = "--io-threads 2 --appendfsync always" ] ||
		fail "server_args: $(cat "$e")"
	for k in cores kernel server cpu_model load_start command started_at; do
		[ -n "$(field "$e" $k)" ] || fail "no $k: $(cat "$e")"
	done
	grep -q '"load_end":' "$e" || fail "no load_end: $(cat "$e")"
	# A second run with --overwrite: the sidecar's old lines go with the rows.
	expect_status 0 "$RSWEEP" run --spawn -l a -t get -P 1 -n 200 -q --overwrite -o "$T/a.csv"
	[ "$(grep -c . "$e")" = 2 ] || fail "--overwrite kept old lines: $(cat "$e")"
	[ "$(field "$e" io_threads)" = 1 ] || fail "io_threads after --overwrite: $(cat "$e")"
}
tcase 'a spawned run records the machine and its server configuration' t_spawned

t_password() {
	start_redis --requirepass sekrit-pw
	expect_status 0 "$RSWEEP" run -s "$SOCK" -a sekrit-pw -t get -P 1 -n 200 -q -o "$T/p.csv"
	! grep -q sekrit "$T/p.csv.env" || fail "the password is in the sidecar: $(cat "$T/p.csv.env")"
	grep -q '"command":"rsweep run ' "$T/p.csv.env" || fail "no command: $(cat "$T/p.csv.env")"
	# A local server's process: its CPUs are known.
	[ -n "$(field "$T/p.csv.env" server_cpus)" ] || fail "no server_cpus: $(cat "$T/p.csv.env")"
	stop_redis
	start_redis --rename-command CONFIG ''
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t get -P 1 -n 200 -q -o "$T/c.csv"
	[ "$(field "$T/c.csv.env" config)" = refused ] || fail "config: $(cat "$T/c.csv.env")"
	[ "$(field "$T/c.csv.env" appendonly)" = no ] || fail "INFO's appendonly: $(cat "$T/c.csv.env")"
	[ -z "$(field "$T/c.csv.env" io_threads)" ] || fail "io_threads: $(cat "$T/c.csv.env")"
}
tcase 'no password in the sidecar; a server refusing CONFIG gives INFO fields' t_password

# Two files of one target, their environments planted: b on 4 cores with
# the powersave governor in a VM, a on 8 with performance on bare metal.
plant() {
	sed -e 's/"cores":"[0-9]*"/"cores":"'"$2"'"/' -e 's/,"virt":"[^"]*"//' \
		-e 's/^{"label"/{"virt":"'"$4"'","governor":"'"$3"'","label"/' "$1" >"$1.new" &&
		mv "$1.new" "$1"
}

t_planted() {
	expect_status 0 "$RSWEEP" run --spawn -l a -t get,set -P 1,2 -n 300 -q -o "$T/x.csv"
	expect_status 0 "$RSWEEP" run --spawn -l b -t get,set -P 1,2 -n 300 -q -o "$T/y.csv"
	plant "$T/x.csv.env" 8 performance none
	plant "$T/y.csv.env" 4 powersave kvm
	expect_status 0 "$RSWEEP" report "$T/x.csv" "$T/y.csv"
	head -1 "$T/out" | grep -q '^Environment: a: 8 cores, performance governor, bare metal; b: 4 cores, powersave governor, a VM (kvm)\.' ||
		fail "the difference is not first: $(head -3 "$T/out")"
	head -1 "$T/out" | grep -q 'Not asked about, and could explain the verdicts: cores online (a 8, b 4); governor (a performance, b powersave); virtualisation (a none, b kvm)\.' ||
		fail "not asked: $(head -1 "$T/out")"
	expect_status 0 "$RSWEEP" report --format json "$T/x.csv" "$T/y.csv"
	grep -q '"environment":{' "$T/out" || fail "json: no environment"
	# --relabel keeps each file's environment with its rows.
	expect_status 0 "$RSWEEP" report --relabel a=m1 --relabel b=intel "$T/x.csv" "$T/y.csv"
	head -1 "$T/out" | grep -q '^Environment: m1: 8 cores.*; intel: 4 cores' ||
		fail "relabelled: $(head -1 "$T/out")"
	# A damaged sidecar is said and left out; the report stands.
	echo '[1]' >>"$T/y.csv.env"
	expect_status 0 "$RSWEEP" report "$T/x.csv" "$T/y.csv"
	grep -q 'y.csv.env:3: not an rsweep environment line' "$T/err" || fail "$(cat "$T/err")"
}
tcase 'report names a planted difference first, and what was not asked' t_planted

t_html() {
	expect_status 0 "$RSWEEP" run --spawn -l a -t get -P 1,2 -n 300 -q -o "$T/h1.csv"
	expect_status 0 "$RSWEEP" run --spawn -l b -t get -P 1,2 -n 300 -q -o "$T/h2.csv"
	expect_status 0 "$RSWEEP" report --format html --relabel "a=<script>alert(1)</script>" \
		--relabel "b=x\"'&" -o "$T/r.html" "$T/h1.csv" "$T/h2.csv"
	! grep -q '<script' "$T/r.html" || fail "a label's <script> is in the page unescaped"
	grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/r.html" || fail "the label is not in the page"
	grep -q 'x&quot;&#39;&amp;' "$T/r.html" || fail "quotes and & not escaped"
	for s in '<h2>The answer' '<h2>The environment' '<th>io-threads</th>' \
		 '<th>appendfsync</th>' '<svg ' '<h2>The tables' \
		 '<h2>The commands' '</html>'; do
		grep -q "$s" "$T/r.html" || fail "the page has no '$s'"
	done
	# Three charts: rps against depth, the speed-up summary, p99 against rps.
	[ "$(grep -c '<svg ' "$T/r.html")" = 3 ] || fail "charts: $(grep -c '<svg ' "$T/r.html")"
	# Nothing is fetched: no URL but the SVG namespace's name, no src or href.
	urls=$(grep -o 'https\?://[^"<> ]*' "$T/r.html" | grep -v '^http://www.w3.org/2000/svg$' || true)
	[ -z "$urls" ] || fail "URLs in the page: $urls"
	! grep -qi ' src=\| href=\|@import\|url(' "$T/r.html" || fail "the page refers to another file"
	expect_status 2 "$RSWEEP" report --format html --goal max-rps "$T/h1.csv"
}
tcase 'the html page: every section, every string escaped, nothing fetched' t_html

# Three labels: the speed-up chart compares two, and the page once failed
# whole for it (exit 1, no file) where the text report worked.  The page
# keeps its other charts and the report's tables of all three.
t_html_three() {
	awk 'BEGIN { print "label,test,pipeline,clients,requests,repeat,seconds,rps"
		split("a b c", l, " "); split("1 2 4", d, " ")
		for (k = 1; k <= 3; k++) for (i = 1; i <= 3; i++) for (r = 1; r <= 3; r++) {
			rps = (1 + k / 10) * 100000 * d[i] / (d[i] + 1) * (0.99 + r / 100)
			printf "%s,GET,%d,4,3000,%d,%.6f,%.2f\n", l[k], d[i], r, 3000 / rps, rps } }' \
		>"$T/three.csv"
	expect_status 0 "$RSWEEP" report --format html "$T/three.csv" -o "$T/three.html"
	grep -q "<svg" "$T/three.html" || fail "no chart in the page"
	grep -q "speed-up summary" "$T/three.html" && fail "a speed-up chart of three labels"
	for l in a b c; do
		grep -q "GET.*$l\|$l.*GET" "$T/three.html" || fail "label $l missing"
	done
}
tcase 'the html page of three labels: no speed-up chart, the rest whole' t_html_three

tcase_done
