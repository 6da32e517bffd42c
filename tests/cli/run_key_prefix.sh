#!/bin/sh
# run_key_prefix.sh: --key-prefix, the keyspace of its own for a server that
# holds other data.  Under an ACL user that may not FLUSHALL, FLUSHDB, KEYS,
# EVAL, CONFIG or DEBUG, on a server whose FLUSHALL and FLUSHDB are renamed
# away and that holds 100,000 keys in two databases: the sweep succeeds with
# exact counts, every foreign key is as it was (DEBUG DIGEST), MONITOR sees
# no flush, no KEYS and no delete of a key outside the prefix; a prefix that
# holds keys is refused; a run killed with SIGKILL leaves keys that
# `rsweep clean` removes, and nothing else.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

P=rsw:
start_redis --enable-debug-command local --rename-command FLUSHALL "" \
	--rename-command FLUSHDB ""
rcli ACL SETUSER bench on '>benchpw' '~*' '&*' +@read +@write +@keyspace +@connection +info \
	-flushall -flushdb -keys -eval -config -debug >/dev/null || fail "ACL SETUSER"
# 100,000 keys of somebody else's: 90,000 in db0, 10,000 in db3.
rcli EVAL "for i = 1, 90000 do redis.call('SET', 'user:' .. i, i) end" 0 >/dev/null
rcli -n 3 EVAL "for i = 1, 10000 do redis.call('HSET', 'order:' .. i, 'n', i) end" 0 >/dev/null
[ "$(rcli DBSIZE)" = 90000 ] || fail "db0 holds $(rcli DBSIZE) keys"
digest0=$(rcli DEBUG DIGEST)
# The bench user's password, for rsweep alone (rcli stays the default user).
RS="env REDISCLI_AUTH=benchpw $RSWEEP"

t_acl_sweep() {
	rcli MONITOR >"$T/monitor" 2>/dev/null &
	mon=$!
	sleep 0.2
	expect_status 0 $RS run -s "$SOCK" --user bench --key-prefix "$P" \
		-t get,set,incr,lpush,lpop,sadd,spop,zadd,zpopmin,lrange_100,mset \
		-P 1,8 -n 2000 -r 5000 -c 4 --repeat 1 -q -o "$T/acl.csv"
	kill "$mon" 2>/dev/null
	wait "$mon" 2>/dev/null
	[ "$(rows "$T/acl.csv")" = 22 ] || fail "acl.csv has $(rows "$T/acl.csv") rows"
	# Every row: the prefix recorded, every request answered, no error.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["key_prefix"] != "rsw:" || $c["requests"] != 2000 || $c["errors"] != 0 {
			print "row " NR ": " $0; bad = 1 }
		END { exit bad }' "$T/acl.csv" >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
	[ -z "$(rcli --scan --pattern "$P*" | head -1)" ] || fail "keys left under $P"
	[ "$(rcli DEBUG DIGEST)" = "$digest0" ] || fail "the foreign keys changed"
	grep -q '"UNLINK"' "$T/monitor" || fail "MONITOR saw no UNLINK: $(wc -l <"$T/monitor") lines"
	grep -iq '"\(flushall\|flushdb\|keys\)"' "$T/monitor" &&
		fail "MONITOR saw: $(grep -i '"\(flushall\|flushdb\|keys\)"' "$T/monitor" | head -1)"
	# Every key a DEL or UNLINK names is under the prefix.
	awk '{ i = index($0, "] \""); if (!i) next
		n = split(substr($0, i + 3), a, "\" \""); sub(/"$/, "", a[n])
		if (toupper(a[1]) != "UNLINK" && toupper(a[1]) != "DEL") next
		for (j = 2; j <= n; j++) if (a[j] !~ /^rsw:/) { print; exit 1 } }' \
		"$T/monitor" >"$T/outside" || fail "a delete outside $P: $(cat "$T/outside")"
}
tcase 'an ACL user without FLUSH*, KEYS or EVAL sweeps a server that holds data' t_acl_sweep

t_taken() {
	rcli SET "${P}mine" x >/dev/null
	expect_status 2 $RS run -s "$SOCK" --user bench --key-prefix "$P" -t get -P 1 -n 100 -q
	grep -q "holds keys under the prefix 'rsw:' ('rsw:mine' for one)" "$T/err" ||
		fail "a prefix in use: $(cat "$T/err")"
	[ "$(rcli GET "${P}mine")" = x ] || fail "rsw:mine was touched"
	rcli DEL "${P}mine" >/dev/null
}
tcase 'a prefix that already holds a key is refused, the key untouched' t_taken

t_killed() {
	$RS run -s "$SOCK" --user bench --key-prefix "$P" -t get,lpop -P 1..4 -n 20000 \
		-r 3000 -c 2 --pause 0.5 -q -o "$T/kill.csv" >/dev/null 2>&1 &
	pid=$!
	wait_rows "$T/kill.csv" 1
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ -n "$(rcli --scan --pattern "$P*" | head -1)" ] || fail "the killed run left no key"
	expect_status 0 $RS clean -s "$SOCK" --user bench --key-prefix "$P"
	grep -q "key.* under 'rsw:' removed" "$T/out" || fail "clean said: $(cat "$T/out")"
	[ -z "$(rcli --scan --pattern "$P*" | head -1)" ] || fail "clean left keys under $P"
	[ "$(rcli DEBUG DIGEST)" = "$digest0" ] || fail "clean changed the foreign keys"
}
tcase 'a run killed with SIGKILL leaves keys that rsweep clean removes, only those' t_killed

t_auto() {
	expect_status 0 $RS run -s "$SOCK" --user bench --key-prefix auto -t set -P 1,2 -n 500 \
		-o "$T/auto.csv"
	grep -q "keys under 'rsweep:[0-9a-f]\{8\}:'" "$T/err" || fail "auto: $(cat "$T/err")"
	grep -q ',rsweep:[0-9a-f]\{8\}:,' "$T/auto.csv" || fail "auto.csv: $(tail -1 "$T/auto.csv")"
	"$RSWEEP" report "$T/auto.csv" >"$T/report" 2>&1 || fail "report: $(cat "$T/report")"
	grep -q "include other clients' work" "$T/report" || fail "report: $(cat "$T/report")"
	[ "$(rcli DEBUG DIGEST)" = "$digest0" ] || fail "the foreign keys changed"
}
tcase 'auto makes a prefix of the run, said at the start, in every row and the report' t_auto

t_bad() {
	expect_status 2 "$RSWEEP" run -s "$SOCK" --key-prefix '{x}' -t get -P 1 -n 10 -q
	grep -q -- "--key-prefix: key prefix '{x}' holds '{'" "$T/err" || fail "{x}: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run -s "$SOCK" --key-prefix "$P" --flush db -t get -P 1 -n 10 -q
	grep -q "drop --flush" "$T/err" || fail "--flush: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run -s "$SOCK" --key-prefix "$P" -P 1 -n 10 -q -- SET k v
	grep -q "a command after -- names its own keys" "$T/err" || fail "--: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" clean -s "$SOCK"
	grep -q "needs the --key-prefix" "$T/err" || fail "clean: $(cat "$T/err")"
}
tcase 'a bad prefix, --flush and a custom command are refused with one line' t_bad

# On a cluster: each master deletes the names on its slots (and the
# single-key tests' tagged names), the other keys stay, and clean --cluster
# empties the prefix on every master.
t_cluster() {
	start_cluster
	set -- $CL_PORTS
	for i in $(seq 1 300); do echo "SET user:$i $i"; done | ccli "$1" -c >/dev/null
	others() { for p in $CL_PORTS; do ccli "$p" DBSIZE; done | awk '{ s += $1 } END { print s }'; }
	mine() { for p in $CL_PORTS; do ccli "$p" --scan --pattern "$P*"; done | grep -c .; }
	[ "$(others)" = 300 ] || fail "the cluster holds $(others) keys"
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$1" --cluster --key-prefix "$P" \
		-t get,set,incr,lpush,lpop -P 1,4 -n 3000 -r 2000 -c 2 --repeat 1 -q -o "$T/cl.csv"
	[ "$(rows "$T/cl.csv")" = 10 ] || fail "cl.csv has $(rows "$T/cl.csv") rows"
	[ "$(mine)" = 0 ] || fail "$(mine) keys left under $P"
	[ "$(others)" = 300 ] || fail "the other keys: $(others)"
	"$RSWEEP" run -h 127.0.0.1 -p "$1" --cluster --key-prefix "$P" -t get -P 1..4 -n 20000 \
		-r 3000 -c 2 --pause 0.5 -q -o "$T/clk.csv" >/dev/null 2>&1 &
	pid=$!
	wait_rows "$T/clk.csv" 1
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ "$(mine)" -gt 0 ] || fail "the killed run left no key"
	expect_status 0 "$RSWEEP" clean -h 127.0.0.1 -p "$1" --cluster --key-prefix "$P"
	[ "$(mine)" = 0 ] || fail "clean --cluster left $(mine) keys"
	[ "$(others)" = 300 ] || fail "clean --cluster: the other keys: $(others)"
}
tcase 'on a cluster each master deletes its own names and clean empties them all' t_cluster

tcase_done
