#!/bin/sh
# run_probes.sh: a server that will not run what rsweep would rather use
# (issue 28).  Without DUMP or RESTORE (renamed away, as a managed service
# or an ACL may have them) the data of the one-key tests is prepared with
# commands before every point: said once, and every point still reads real
# data (no misses).  No timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# without COMMAND: a sweep of the pop tests on a server without it.
without() {
	start_redis --rename-command "$1" ""
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t lpop,spop -P 1,2 -n 2000 -c 1 --repeat 2 -q \
		-o "$T/$1.csv"
	[ "$(rows "$T/$1.csv")" = 8 ] || fail "$1: $(rows "$T/$1.csv") rows"
	n=$(grep -c "prepared with commands before every point" "$T/err")
	[ "$n" = 1 ] || fail "$1: said $n times: $(cat "$T/err")"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["misses"] != 0 || $c["errors"] != 0 { print; bad = 1 } END { exit bad }' \
		"$T/$1.csv" >"$T/bad" || fail "$1: rows with misses or errors: $(head -2 "$T/bad")"
	stop_redis
}

t_dump() {
	without DUMP
}
tcase 'without DUMP the one-key tests are prepared with commands, said once' t_dump

t_restore() {
	without RESTORE
}
tcase 'without RESTORE the same, said once' t_restore

tcase_done
