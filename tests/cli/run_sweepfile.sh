#!/bin/sh
# Sweep files: bad ones fail with file, line and reason (exit 2); good ones
# behave like the options, and the command line wins.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_unknown_key() {
	printf 'clients = 5\n# comment\nclientz = 3\n' >"$T/a.sweep"
	expect_status 2 "$RSWEEP" run --sweep "$T/a.sweep" --dry-run
	grep -q "a.sweep:3: unknown key 'clientz'" "$T/err" || fail "$(cat "$T/err")"
}
tcase "a sweep file's unknown key is named with its line" t_unknown_key

t_descending() {
	printf 'pipeline = 5..1\n' >"$T/b.sweep"
	expect_status 2 "$RSWEEP" run --sweep "$T/b.sweep" --dry-run
	grep -q "b.sweep:1: pipeline: '5..1': descending range" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a descending range is refused with its line' t_descending

t_no_value() {
	printf 'requests\n' >"$T/c.sweep"
	expect_status 2 "$RSWEEP" run --sweep "$T/c.sweep" --dry-run
	grep -q "c.sweep:1: key 'requests' needs a value" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a key without a value is refused with its line' t_no_value

t_sections() {
	printf '[panel]\ntests = get\n' >"$T/d.sweep"
	expect_status 2 "$RSWEEP" run --sweep "$T/d.sweep" --dry-run
	grep -q "d.sweep:2: sweep files have no \[sections\]" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a [section] is refused with its line' t_sections

t_missing() {
	expect_status 2 "$RSWEEP" run --sweep "$T/none.sweep" --dry-run
	grep -q "none.sweep: No such file or directory" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a missing sweep file is named' t_missing

# Good file; -c on the command line beats the file's clients.
t_good() {
	printf 'tests = get,set\npipeline = 1..3 # inline comment\nrepeat = 2\nclients = 9\n' >"$T/g.sweep"
	expect_status 0 "$RSWEEP" run --sweep "$T/g.sweep" -c 4 --dry-run
	grep -q "plan: 12 points (2 tests x 3 depths x 2 repeats)" "$T/out" || fail "$(cat "$T/out")"
}
tcase 'a good file plans as the options would, -c on the command line winning' t_good

# The shipped sweep files parse.
t_shipped() {
	for f in "${RS_SRCDIR:-.}"/sweeps/*.sweep; do
		expect_status 0 "$RSWEEP" run --sweep "$f" --dry-run
	done
}
tcase 'the shipped sweep files parse' t_shipped

# A shipped sweep file by bare name, from the build tree before make
# install; a name found nowhere says where it was looked for.
t_bare_name() {
	(cd "$T" && expect_status 0 "$RSWEEP" run --sweep m1-article --dry-run) ||
		fail "m1-article from the build tree"
	grep -q "^plan: 1560 points" "$T/out" || fail "m1-article: $(head -2 "$T/out")"
	# A summary and the estimate, not 1,560 lines of plan (issue 44); -v lists them.
	[ "$(wc -l <"$T/out")" -le 12 ] || fail "m1-article's dry run: $(wc -l <"$T/out") lines"
	grep -q "^runs: 3, .*: 4680 points in all$" "$T/out" || fail "runs: $(cat "$T/out")"
	grep -q "^depths: 1..40$" "$T/out" || fail "depths: $(cat "$T/out")"
	grep -q "^estimated duration: [0-9]* s" "$T/out" || fail "estimate: $(cat "$T/out")"
	(cd "$T" && expect_status 0 "$RSWEEP" run --sweep m1-article --dry-run -v) || fail "-v"
	[ "$(grep -c ' repeat [123]$' "$T/out")" = 1560 ] || fail "-v: $(grep -c ' repeat' "$T/out") points"
	(cd "$T" && expect_status 0 "$RSWEEP" run --sweep m1-article --dry-run -q) || fail "-q"
	[ "$(wc -l <"$T/out")" -le 12 ] || fail "-q lists the points"
	expect_status 2 "$RSWEEP" run --sweep no-such-sweep --dry-run
	grep -q "no-such-sweep: no such sweep file (looked for no-such-sweep, .*/sweeps/no-such-sweep.sweep" "$T/err" ||
		fail "not found: $(cat "$T/err")"
	# A likely typo of a shipped sweep's name is named (issue 44).
	(cd "$T" && expect_status 2 "$RSWEEP" run --sweep m1-artcle --dry-run) || fail "m1-artcle"
	grep -q "m1-artcle: no such sweep file; did you mean m1-article? (looked for m1-artcle, " "$T/err" ||
		fail "no suggestion: $(cat "$T/err")"
	(cd "$T" && expect_status 2 "$RSWEEP" run --sweep m1-artcle.sweep --dry-run) || fail "m1-artcle.sweep"
	grep -q "did you mean m1-article?" "$T/err" || fail "no suggestion for .sweep: $(cat "$T/err")"
}
tcase 'a shipped sweep file by bare name, and a name found nowhere' t_bare_name

tcase_done
