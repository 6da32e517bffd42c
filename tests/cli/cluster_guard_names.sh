#!/bin/sh
# The guard over a cluster decides by names too: one key another client
# writes on any master during a sweep stops it before the next flush and
# survives, for every test (seen before: one foreign key per flush went
# with rsweep's, under the count of "the test's keys plus one tagged key per
# master").  Every case runs; the failures are listed at the end (tcase.sh).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
# The masters are emptied as a foreign-key case ends, passed or failed, so
# that the next one starts from an empty cluster.
flush_masters() {
	for q in $P1 $P2 $P3; do ccli "$q" flushall >/dev/null; done
}

# t_name TEST PORT: a sweep of TEST while one foreign key lands on PORT.
t_name() {
	t=$1
	p=$2
	TCASE_LEAVE="$TCASE_LEAVE flush_masters"
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
		fail "$t on $p: exit $st, fk$i '$got': $(tail -1 "$T/err")"
	fi
}
for t in get set lpush lpop incr; do
	m=0
	for p in $P1 $P2 $P3; do
		m=$((m + 1))
		tcase "$t: one foreign key on master $m stops the sweep and survives" t_name "$t" "$p"
	done
done

# A script with no keys runs as sent (seen before: the master's hash tag was
# appended to its body, so every reply was an error); one with keys is
# refused, since they could be on any master.
t_eval_no_keys() {
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -P 1,2 -n 300 --repeat 1 -q -o "$T/e.csv" \
		-- EVAL "return 1" 0 >/dev/null 2>"$T/err"
	st=$?
	errs=$(csv_col "$T/e.csv" errors | sort -u | tr '\n' ' ')
	[ "$st:$errs" = "0:0 " ] || fail "EVAL with no keys: exit $st, errors '$errs': $(tail -1 "$T/err")"
}
tcase 'a script with no keys runs as sent' t_eval_no_keys

t_eval_keys() {
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -P 1 -n 300 --repeat 1 -q \
		-- EVAL "return redis.call('get', KEYS[1])" 1 k >/dev/null 2>"$T/err"
	st=$?
	[ "$st" = 2 ] && grep -q "numkeys 0" "$T/err" || fail "EVAL with a key: exit $st: $(cat "$T/err")"
}
tcase 'a script with keys is refused' t_eval_keys

tcase_done
