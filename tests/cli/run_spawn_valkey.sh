#!/bin/sh
# Redis against a real Valkey, both spawned (issue 28), when
# RSWEEP_VALKEY_SERVER names a valkey-server binary
# (RSWEEP_VALKEY_SERVER=/path/to/valkey-server make check): the rows name
# each server as it names itself, Valkey's are not taken for Redis 7.2.4,
# report's header says which is which, and --resume of a label measured on
# Valkey is refused on Redis.  Skipped without it.  No timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

vs=${RSWEEP_VALKEY_SERVER:-}
if [ -z "$vs" ]; then
	echo "SKIP: RSWEEP_VALKEY_SERVER does not name a valkey-server"
	exit 77
fi
[ -x "$vs" ] || { echo "SKIP: RSWEEP_VALKEY_SERVER=$vs is not an executable file"; exit 77; }
real=$(command -v "$REDIS_SERVER")
# "Valkey server v=8.0.1 sha=...", or Valkey 7.2's "Server v=7.2.5 ...".
vv=$("$vs" --version | sed -n 's/^[A-Za-z]* *[Ss]erver v=\([^ ]*\) .*/\1/p')
rv=$("$real" --version | sed -n 's/^Redis server v=\([^ ]*\) .*/\1/p')
[ -n "$vv" ] || fail "$vs --version: $("$vs" --version)"

t_ab() {
	f=$T/ab.csv
	expect_status 0 "$RSWEEP" run --target redis=spawn:"$real" --target valkey=spawn:"$vs" \
		-t get,set -P 1,4 --repeat 1 -n 2000 -c 2 -q -o "$f"
	check_csv "$f"
	[ "$(rows "$f")" = 8 ] || fail "$(rows "$f") rows, wanted 8"
	# label server_name server_version server_calls requests, one line a row.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["label"], $c["server_name"], $c["server_version"], $c["server_calls"],
		  $c["requests"] }' "$f" >"$T/cols"
	bad=$(awk -v rv="$rv" -v vv="$vv" '$1 == "redis" && ($2 != "redis" || $3 != rv) ||
		$1 == "valkey" && ($2 != "valkey" || $3 != vv) || $4 != $5' "$T/cols")
	[ -z "$bad" ] || fail "rows that do not name their server, or miscount: $bad"
	expect_status 0 "$RSWEEP" report "$f"
	[ "$(head -1 "$T/out")" = "Servers: redis = redis $rv, valkey = valkey $vv" ] ||
		fail "report's header: $(head -1 "$T/out")"
}
tcase 'redis and valkey spawned side by side: each row and the report name their server' t_ab

t_resume() {
	# --spawn names both alike in the target column: the server columns tell.
	g=$T/one.csv
	expect_status 0 "$RSWEEP" run --spawn="$vs" -l x -t get -P 1 --repeat 1 -n 2000 -c 2 -q -o "$g"
	expect_status 2 "$RSWEEP" run --spawn="$real" -l x -t get -P 1,2 --repeat 1 -n 2000 -c 2 -q \
		-o "$g" --resume
	grep -q "label 'x' was measured on valkey $vv, this run is on redis $rv: resume on the same server" \
		"$T/err" || fail "resume on Redis: $(cat "$T/err")"
	[ "$(rows "$g")" = 1 ] || fail "the refused resume wrote rows"
}
tcase '--resume of a label measured on valkey is refused on redis' t_resume

tcase_done
