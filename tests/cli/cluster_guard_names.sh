#!/bin/sh
# The guard over a cluster decides by names too: one key another client
# writes on any master during a sweep stops it before the next flush and
# survives, for every test (seen before: one foreign key per flush went
# with rsweep's, under the count of "the test's keys plus one tagged key per
# master").  Every case runs; the failures are listed at the end.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
failed=
n=0
for t in get set lpush lpop incr; do
	for p in $P1 $P2 $P3; do
		n=$((n + 1))
		rm -f "$T/g.csv" "$T/g.csv.hist"
		"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t "$t" -P 1..6 -n 600 -c 1 \
			--repeat 1 --pause 0.2 -q -o "$T/g.csv" >/dev/null 2>"$T/err" &
		pid=$!
		wait_rows "$T/g.csv" 1
		# A key of this master's own slots: a plain name rsweep never writes.
		for i in $(seq 1 300); do
			[ "$(ccli "$p" exists "fk$i" 2>&1 | tr -d '\r')" = 0 ] && break
		done
		ccli "$p" set "fk$i" v >/dev/null
		wait "$pid"
		st=$?
		got=$(ccli "$p" get "fk$i" | tr -d '\r')
		if [ "$st:$got" != 2:v ] || ! grep -q "another client is writing" "$T/err"; then
			failed="$failed
$t on $p: exit $st, fk$i '$got': $(tail -1 "$T/err")"
		fi
		for q in $P1 $P2 $P3; do ccli "$q" flushall >/dev/null; done
	done
done
# A script with no keys runs as sent (seen before: the master's hash tag was
# appended to its body, so every reply was an error); one with keys is
# refused, since they could be on any master.
"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -P 1,2 -n 300 --repeat 1 -q -o "$T/e.csv" \
	-- EVAL "return 1" 0 >/dev/null 2>"$T/err"
st=$?
errs=$(csv_col "$T/e.csv" errors | sort -u | tr '\n' ' ')
[ "$st:$errs" = "0:0 " ] || failed="$failed
EVAL with no keys: exit $st, errors '$errs': $(tail -1 "$T/err")"
"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -P 1 -n 300 --repeat 1 -q \
	-- EVAL "return redis.call('get', KEYS[1])" 1 k >/dev/null 2>"$T/err"
st=$?
[ "$st" = 2 ] && grep -q "numkeys 0" "$T/err" || failed="$failed
EVAL with a key: exit $st: $(cat "$T/err")"
[ -z "$failed" ] || fail "$failed"
echo "ok ($n cases)"
