#!/bin/sh
# Placement (issue 41): when every target is a server rsweep starts, every
# spawned server runs on the same CPUs, apart from the load generator's;
# the rows' server_cpus and client_cpus say where, the report says it in a
# note, and --cpus overrides it or (none) turns it off.  With one CPU the
# run and the report say that A/B verdicts carry the scheduler's bias.
# Bad --cpus values exit 2 with one line.  The CPUs used are the first two
# this script may use (taskset fixes them), so the figures do not depend on
# the machine; no timing is asserted, every run is bounded by -n.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

command -v taskset >/dev/null 2>&1 || { echo "SKIP: no taskset"; exit 77; }
# The CPUs this shell may use, one a line.
cpus=$(taskset -cp $$ 2>/dev/null | sed 's/.*: *//' | tr ',' '\n' |
	awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }')
A=$(echo "$cpus" | sed -n 1p)
B=$(echo "$cpus" | sed -n 2p)
[ -n "$A" ] || { echo "SKIP: taskset tells no CPU"; exit 77; }
# Both, as a CPU list writes them.
if [ -n "$B" ] && [ "$B" = $((A + 1)) ]; then AB=$A-$B; else AB=$A,$B; fi

# placed FILE: "label server_cpus client_cpus" a line, once each.
placed() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { print $col["label"], $col["server_cpus"], $col["client_cpus"] }' "$1" | sort -u
}

t_bad() {
	for c in x 1 1:0:2 : 3-1:0 0:- 0,:1 1024:0 a-b:0 None; do
		expect_status 2 "$RSWEEP" run --spawn --cpus "$c" -t get -n 100 --dry-run
		[ "$(grep -c . "$T/err")" = 1 ] || fail "--cpus '$c': not one line: $(cat "$T/err")"
		grep -q -- "--cpus" "$T/err" || fail "--cpus '$c': $(cat "$T/err")"
	done
	expect_status 2 taskset -c "$A" "$RSWEEP" run --spawn --cpus "$A:$((A + 1))" -t get --dry-run
	grep -q "^rsweep run: --cpus: CPU $((A + 1)) is not one this process may use (it may use $A)$" \
		"$T/err" || fail "outside the allowed set: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run -s "$SOCK" --cpus "$A:" -t get --dry-run
	grep -q "no target is a server rsweep starts" "$T/err" || fail "no spawned target: $(cat "$T/err")"
}
tcase 'bad --cpus: exit 2, one line naming the problem' t_bad

t_default() {
	[ -n "$B" ] || tcase_skip "one CPU only"
	# The default, as --dry-run says it, within what taskset allows.
	expect_status 0 taskset -c "$A,$B" "$RSWEEP" run --target a=spawn: --target b=spawn: -t get \
		-n 100 --dry-run
	grep -qx "placement: spawned servers on CPU $B, the load generator on CPU $A" "$T/out" ||
		fail "dry run: $(cat "$T/out")"
	# A real run: the servers are on B while they run, the rows say so,
	# and so does the report.
	f=$T/placed.csv
	taskset -c "$A,$B" "$RSWEEP" run --target a=spawn: --target b=spawn: -t get,set -P 1,2 \
		--repeat 1 -n 20000 -c 2 --timeout 10 -q -o "$f" >/dev/null 2>"$T/run.err" &
	pid=$!
	seen=
	for _ in $(seq 1 500); do
		# Only a server past its exec (a child between fork and exec, or
		# the --version probe, has not placed itself yet, by design).
		for s in $(pgrep -P "$pid" 2>/dev/null); do
			tr '\0' ' ' <"/proc/$s/cmdline" 2>/dev/null | grep -q -- '--unixsocket' || continue
			seen="$seen $(taskset -cp "$s" 2>/dev/null | sed 's/.*: *//')"
		done
		[ -n "$seen" ] && break
		sleep 0.01
	done
	wait "$pid" || fail "the run failed: $(cat "$T/run.err")"
	for s in $seen; do
		[ "$s" = "$B" ] || fail "a spawned server ran on CPUs $s, wanted $B"
	done
	[ "$(placed "$f")" = "a $B $A
b $B $A" ] || fail "rows: $(placed "$f")"
	expect_status 0 "$RSWEEP" report "$f"
	grep -q "placement: every spawned server on CPU $B, the load generator on CPU $A" "$T/out" ||
		fail "report: $(cat "$T/out")"
}
tcase 'default: every spawned server on one CPU, the client on the other' t_default

t_given_and_none() {
	[ -n "$B" ] || tcase_skip "one CPU only"
	f=$T/given.csv
	expect_status 0 taskset -c "$A,$B" "$RSWEEP" run --spawn --label x --cpus "$A:$B" -t get \
		--repeat 1 -n 200 -c 2 -q -o "$f"
	[ "$(placed "$f")" = "x $A $B" ] || fail "--cpus $A:$B rows: $(placed "$f")"
	# Off: both sides on every CPU allowed, and the run and report warn
	# about A/B verdicts between spawned servers.
	f=$T/none.csv
	expect_status 0 taskset -c "$A,$B" "$RSWEEP" run --target a=spawn: --target b=spawn: \
		--cpus none -t get --repeat 1 -n 200 -c 2 -q -o "$f"
	grep -q "placement: spawned servers not placed apart from the load generator (--cpus none): \
A/B verdicts between them carry the scheduler's bias" "$T/err" || fail "run: $(cat "$T/err")"
	[ "$(placed "$f")" = "a $AB $AB
b $AB $AB" ] || fail "--cpus none rows: $(placed "$f")"
	expect_status 0 "$RSWEEP" report "$f"
	grep -q "placement: spawned servers shared CPUs with the load generator.*scheduler's bias" \
		"$T/out" || fail "report: $(cat "$T/out")"
	# A server rsweep does not start: the client's CPUs only, no server's.
	start_redis
	f=$T/own.csv
	expect_status 0 "$RSWEEP" run -s "$SOCK" --cpus ":$A" -t get --repeat 1 -n 200 -c 2 -q -o "$f"
	[ "$(placed "$f" | cut -d' ' -f2-)" = " $A" ] || fail "-s rows: $(placed "$f")"
}
tcase '--cpus SERVER:CLIENT overrides, none turns it off' t_given_and_none

t_one_cpu() {
	f=$T/one.csv
	expect_status 0 taskset -c "$A" "$RSWEEP" run --target a=spawn: --target b=spawn: -t get \
		--repeat 1 -n 200 -c 2 -q -o "$f"
	grep -q "placement: one CPU ($A) for servers and load generator alike: A/B verdicts between \
spawned servers carry the scheduler's bias" "$T/err" || fail "run: $(cat "$T/err")"
	[ "$(placed "$f")" = "a $A $A
b $A $A" ] || fail "rows: $(placed "$f")"
	expect_status 0 "$RSWEEP" report "$f"
	grep -q "placement: one CPU ($A) for the spawned servers and the load generator alike: A/B \
verdicts between spawned servers carry the scheduler's bias" "$T/out" || fail "report: $(cat "$T/out")"
}
tcase "one CPU: no placement, and the verdicts' bias said" t_one_cpu

tcase_done
