#!/bin/sh
# A sweep file names options, never a program to run: "spawn = PATH" is
# refused with the file and line (exit 2) and runs nothing; "spawn = yes"
# (the redis-server on PATH) and --spawn=PATH on the command line stay.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

t_path() {
	printf '#!/bin/sh\ntouch "%s/ran"\nexit 1\n' "$T" >"$T/evil.sh"
	chmod +x "$T/evil.sh"
	printf 'tests = ping\nspawn = %s\n' "$T/evil.sh" >"$T/s.sweep"
	expect_status 2 "$RSWEEP" run --sweep "$T/s.sweep" -n 10
	[ "$(wc -l <"$T/err")" = 1 ] || fail "not one line: $(cat "$T/err")"
	grep -q "s.sweep:2: spawn" "$T/err" || fail "$(cat "$T/err")"
	[ ! -e "$T/ran" ] || fail "the sweep file's program ran"
}
tcase 'spawn = PATH in a sweep file is refused with its line, and runs nothing' t_path

t_sh() {
	printf 'spawn = /bin/sh\n' >"$T/sh.sweep"
	expect_status 2 "$RSWEEP" run --sweep "$T/sh.sweep" --dry-run
	grep -q "sh.sweep:1: spawn" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'spawn = /bin/sh is refused too' t_sh

t_yes() {
	printf 'tests = ping\nspawn = yes\n' >"$T/y.sweep"
	expect_status 0 "$RSWEEP" run --sweep "$T/y.sweep" --dry-run
	expect_status 0 "$RSWEEP" run --sweep "$T/y.sweep" -n 100 -q --spawn="$REDIS_SERVER"
}
tcase 'spawn = yes, and --spawn=PATH on the command line, stay' t_yes

tcase_done
