#!/bin/sh
# run_danger.sh: a command of one's own that destroys data it does not
# name (FLUSHALL in a sequence, SWAPDB in a command file, DEL of a key the
# test never writes) is named in a note when the sweep starts; --key-prefix
# refuses them (issue 40, D12).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

start_redis

t_sequence() {
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 -c 1 --repeat 1 -o "$T/s.csv" \
		-- SET k v ';' FLUSHALL
	grep -q "FLUSHALL empties every database: another client's data on this server can be lost" \
		"$T/err" || fail "no note: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 -c 1 --repeat 1 -o "$T/d.csv" \
		-- SET k v ';' DEL k
	grep -q "can be lost" "$T/err" && fail "a note for DEL of its own key: $(cat "$T/err")"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 -c 1 --repeat 1 -o "$T/u.csv" \
		-- DEL user:1
	grep -q "DEL of 'user:1', a key the test never writes" "$T/err" || fail "DEL: $(cat "$T/err")"
}
tcase 'FLUSHALL in a sequence and DEL of a foreign name get a note; DEL of its own key none' \
	t_sequence

t_file() {
	printf '1 SET k v\n1 SWAPDB 0 9\n' >"$T/cmds"
	expect_status 0 "$RSWEEP" run -s "$SOCK" -P 1 -n 100 -c 1 --repeat 1 -o "$T/f.csv" \
		--commands "$T/cmds"
	grep -q "SWAPDB swaps two whole databases" "$T/err" || fail "no note: $(cat "$T/err")"
	run_refused "a command file names its own keys" -s "$SOCK" --key-prefix dz: -P 1 -n 100 \
		--commands "$T/cmds"
	run_refused "a command after -- names its own keys" -s "$SOCK" --key-prefix dz: -P 1 \
		-n 100 -- SET k v ';' FLUSHALL
}
tcase 'SWAPDB in a command file gets a note; --key-prefix refuses both' t_file

tcase_done
