#!/bin/sh
# The flush guard over a cluster counts the test's keys once, not once per
# master.  Seen before: each master was allowed n times the keys rsweep can
# write, so another client's 1,500 keys on one master (or 400 on each)
# were flushed with rsweep's.  Now a master may hold the test's keys plus
# one tagged key per master, and all the masters together no more than
# that: either way the sweep stops without flushing, and the keys stay.
# And --resume keeps one node's rows and the cluster's apart.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster

# tag_on PORT: a hash tag whose slot PORT serves.
tag_on() {
	for i in $(seq 1 500); do
		[ "$(ccli "$1" exists "{t$i}probe" 2>&1 | tr -d '\r')" = 0 ] && { echo "t$i"; return; }
	done
	fail "no tag found for $1"
}
# foreign PORT TAG N: N keys another client writes on that master.
foreign() {
	i=0
	while [ $i -lt "$3" ]; do
		echo "SET {$2}foreign:$i x"
		i=$((i + 1))
	done | ccli "$1" >/dev/null
}

# A sweep of SET with at most 1,000 keys of its own, paused between
# points; $1: what lands while it pauses.
sweep_with() {
	rm -f "$T/g.csv" "$T/g.csv.hist"
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -r 1000 -n 2000 -P 1,2,3 \
		--repeat 1 --order sequential --pause 3 -q -o "$T/g.csv" \
		>"$T/out" 2>"$T/err" &
	pid=$!
	wait_rows "$T/g.csv" 1
	$1
	wait $pid
	echo $?
}

t1=$(tag_on "$P1"); t2=$(tag_on "$P2"); t3=$(tag_on "$P3")
# The masters are emptied as a foreign-keys case ends, passed or failed,
# so that the next one counts its own keys only.
flush_masters() {
	for p in $P1 $P2 $P3; do ccli "$p" flushall >/dev/null; done
}

t_one_master() {
	TCASE_LEAVE="$TCASE_LEAVE flush_masters"
	one_master() { foreign "$P1" "$t1" 1500; }
	st=$(sweep_with one_master)
	[ "$st" = 2 ] || fail "1,500 foreign keys on one master: exit $st: $(cat "$T/err")"
	grep -q "keys rsweep did not write appeared" "$T/err" || fail "no guard line: $(cat "$T/err")"
	n=$(ccli "$P1" eval "return #redis.call('keys', '{$t1}foreign:*')" 0 | tr -d '\r')
	[ "$n" = 1500 ] || fail "the foreign keys on one master were flushed ($n left)"
}
tcase '1,500 foreign keys on one master stop the sweep, and stay' t_one_master

t_each_master() {
	TCASE_LEAVE="$TCASE_LEAVE flush_masters"
	each_master() { foreign "$P1" "$t1" 400; foreign "$P2" "$t2" 400; foreign "$P3" "$t3" 400; }
	st=$(sweep_with each_master)
	[ "$st" = 2 ] || fail "400 foreign keys on each master: exit $st: $(cat "$T/err")"
	grep -q "on the 3 masters together" "$T/err" || fail "no cluster-wide guard line: $(cat "$T/err")"
	left=0
	for p in $P1 $P2 $P3; do
		left=$((left + $(ccli "$p" eval "return #redis.call('keys', '*foreign:*')" 0 | tr -d '\r')))
	done
	[ "$left" = 1200 ] || fail "the foreign keys spread over the masters were flushed ($left left)"
}
tcase '400 foreign keys on each master stop the sweep, and stay' t_each_master

# --resume does not mix one node's rows and the cluster's into one series.
t_resume() {
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" -t ping -P 1 -n 500 --repeat 1 --label one -q -o "$T/m.csv"
	expect_status 2 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t ping -P 1,2 -n 500 --repeat 1 --label one -q \
		-o "$T/m.csv" --resume
	grep -q "label 'one' was measured on one server, this run with --cluster" "$T/err" ||
		fail "a cluster resume of one node's rows: $(cat "$T/err")"
}
tcase "--resume keeps one node's rows and the cluster's apart" t_resume

# A cluster's row has its connections' setup time, as one server's has.
t_connect_ms() {
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t ping -P 1 -n 500 --repeat 1 -q \
		-o "$T/c.csv"
	ms=$(csv_col "$T/c.csv" connect_ms)
	[ -n "$ms" ] || fail "no connect_ms in a cluster's row: $(cat "$T/c.csv")"
}
tcase "a cluster's row has its connections' setup time" t_connect_ms

tcase_done
