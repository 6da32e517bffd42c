#!/bin/sh
# cluster_mix.sh: mixes on a 3-master cluster.  Every row of a mix:
# requests = server_calls = the sum of mix_sent, mix_sent equal to
# mix_calls member by member (the masters' commandstats summed), each
# member's share within sampling error (a chi-square at its 1e-9
# quantile, 37.33 for one degree of freedom: a correct draw fails it once
# in a billion runs), no error; the rows' sums of a command the
# preparation does not send are what the masters' commandstats grew by.  A member with a fixed key (LPUSH mylist) gets a
# key per master; through a reshard the redirected requests (not run) are
# not counted as sent; MSET in a mix is refused.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster
N=6000

# check_whole FILE: check_csv with the mix column unquoted.
check_whole() {
	unquote_mix "$1" >"$1.u"
	check_csv "$1.u"
}


# sent_sum FILE MEMBER: MEMBER's mix_sent summed over FILE's rows.
sent_sum() {
	unquote_mix "$1" | awk -F, -v m="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n = split($c["mix_sent"], x, ";")
		  for (i = 1; i <= n; i++) { split(x[i], kv, "="); if (kv[1] == m) s += kv[2] } }
		END { print s + 0 }'
}

# masters_ran CMD WANT: the masters' commandstats of CMD sum to WANT, each
# master a fair share (a third, give or take).
masters_ran() {
	sum=0
	for p in $P1 $P2 $P3; do
		c=$(cl_calls "$p" "$1")
		sum=$((sum + c))
		[ $((c * 100)) -ge $(($2 * 20)) ] && [ $((c * 100)) -le $(($2 * 50)) ] ||
			fail "$1: master $p ran $c of $2"
	done
	[ "$sum" = "$2" ] || fail "$1: the masters ran $sum, the rows sent $2"
}

t_get_set() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P2" --cluster -t 'mix:get=80,set=20' \
		-P 1,16 -n $N -r 10000 -c 2 --repeat 1 -o "$T/gs.csv" -q
	check_whole "$T/gs.csv"
	check_mix "$T/gs.csv" "get=80+set=20" GET 80 SET 20 2
	# GET's calls are the load's alone (its preparation writes, with SET
	# on a cluster: SET's are in mix_calls, read around the timed window).
	masters_ran get "$(sent_sum "$T/gs.csv" GET)"
	# GET found every key the preparation wrote on its master.
	[ "$(csv_col "$T/gs.csv" misses | sort -u)" = 0 ] || fail "misses $(csv_col "$T/gs.csv" misses)"
	[ "$(csv_col "$T/gs.csv" masters | sort -u)" = 3 ] || fail "masters column"
	for p in $P1 $P2 $P3; do
		[ "$(ccli "$p" dbsize | tr -d '\r')" = 0 ] || fail "master $p not left empty"
	done
}
tcase 'GET and SET mixed at P=1 and 16: exact per member over the masters, the weights met' \
	t_get_set

# LPUSH's key has no random part: each master its own, "mylist{N}".
t_fixed_key() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t 'mix:get=50,lpush=50' \
		-P 1,16 -n $N -r 10000 -c 2 --threads 2 --mode window --repeat 1 -o "$T/gl.csv" -q
	check_whole "$T/gl.csv"
	check_mix "$T/gl.csv" "get=50+lpush=50" GET 50 LPUSH 50 2
	masters_ran get "$(sent_sum "$T/gl.csv" GET)"
	masters_ran lpush "$(sent_sum "$T/gl.csv" LPUSH)"
	for p in $P1 $P2 $P3; do
		[ "$(ccli "$p" dbsize | tr -d '\r')" = 0 ] || fail "master $p not left empty"
	done
}
tcase 'a member with a fixed key (LPUSH mylist): a key per master, exact counts' t_fixed_key

# The slot of a fixed-key member's key moves: the first master's LPUSH
# key is mylist{3} (slot 1584, the smallest tag of its slots), moved here
# by hand, key and all, to the second master.  The point meets MOVED on
# it, fails, and is measured again on a tag the first master still
# serves: every row still exact.
t_key_moves() {
	[ "$(ccli "$P1" cluster keyslot 3 | tr -d '\r')" = 1584 ] || fail "keyslot 3"
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t 'mix:get=50,lpush=50' --no-prepare \
		-r 10000 -P 1,2,4,8 -n 20000 -c 2 --repeat 3 --order sequential --timeout 3 \
		--retries 3 -o "$T/k.csv" -q >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/k.csv" 1
	move_mylist3
	wait "$pid"
	st=$?
	[ "$st" = 0 ] || fail "a mix whose fixed key moved: exit $st: $(cat "$T/err")"
	check_whole "$T/k.csv"
	check_mix "$T/k.csv" "get=50+lpush=50" GET 50 LPUSH 50 12
	grep -q "MOVED 1584 127.0.0.1:$P2: the key this master's connections use moved with its slot; reconnecting" \
		"$T/err" || fail "the key's move was not met: $(cat "$T/err")"
}
tcase "a fixed-key member's key moves with its slot: the point is measured again" t_key_moves

# --ratio is a mix too.
t_ratio() {
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P3" --cluster --ratio 1:4 -P 4 -n $N \
		-r 1000 --repeat 1 -o "$T/r.csv" -q
	check_mix "$T/r.csv" "set=1+get=4" SET 1 GET 4 1
}
tcase '--ratio S:G on a cluster' t_ratio

# Slots move under a mix: the requests that met MOVED or ASK were not
# run, and are not counted as sent; those that took their place are.
# reshard_mix NAME FROM TO ARGS...: a mix's sweep while 1,000 slots move.
reshard_mix() {
	name=$1 from=$2 to=$3
	shift 3
	"$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t 'mix:get=80,set=20' --no-prepare \
		-P 1,4,16 -n 5000 -r 10000 -c 2 --repeat 3 --pause 0.1 --timeout 5 --retries 3 \
		-o "$T/$name.csv" -q "$@" >/dev/null 2>"$T/err" &
	pid=$!
	wait_rows "$T/$name.csv" 1
	redis-cli --cluster reshard "127.0.0.1:$P1" --cluster-from "$from" --cluster-to "$to" \
		--cluster-slots 1000 --cluster-yes >"$T/reshard.log" 2>&1 &
	rpid=$!
	wait "$pid"
	st=$?
	wait "$rpid" || fail "reshard failed: $(tail -3 "$T/reshard.log")"
	[ "$st" = 0 ] || fail "a mix through a reshard ($*): exit $st: $(cat "$T/err")"
	check_whole "$T/$name.csv"
	check_mix "$T/$name.csv" "get=80+set=20" GET 80 SET 20 9
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { r += $c["redirects"] }
		END { exit r == 0 }' "$T/$name.csv" ||
		fail "no redirect counted ($*): the reshard missed the run"
	wait_for 10 "cluster_state:ok after the reshard" cluster_all_ok
}

t_reshard() {
	reshard_mix rs "$ID1" "$ID2"
	# And back, in a window of two threads.
	reshard_mix rw "$ID2" "$ID1" --mode window --threads 2
}
tcase 'a mix through a reshard: redirected requests are not counted as sent' t_reshard

# A command file: its members' keys as any command's after --, a key of
# -r (__key__) drawn for each master's slots, a fixed one tagged.
t_commands() {
	printf '3 GET k:__key__\n1 SET k:__key__ __data__\n1 INCR hits\n' >"$T/kv.cmds"
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster --commands "$T/kv.cmds" \
		-r 1000 -P 1,16 -n $N -c 2 --repeat 1 -o "$T/c.csv" -q
	[ "$(rows "$T/c.csv")" = 2 ] || fail "c.csv has $(rows "$T/c.csv") rows"
	sed 's/"[^"]*"/MIX/' "$T/c.csv" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		function counts(s, out,    n, a, i, kv) {
			n = split(s, a, ";")
			for (i = 1; i <= n; i++) { split(a[i], kv, "="); out[kv[1]] = kv[2] }
			return n
		}
		{
			delete sent; delete calls
			why = ""
			if (counts($c["mix_sent"], sent) != 3) why = why " mix_sent " $c["mix_sent"]
			if (counts($c["mix_calls"], calls) != 3) why = why " mix_calls " $c["mix_calls"]
			t = 0
			for (m in sent) {
				if (sent[m] != calls[m] || sent[m] == 0)
					why = why " sent " $c["mix_sent"] " but calls " $c["mix_calls"]
				t += sent[m]
			}
			n = $c["requests"]
			if (n != $c["server_calls"] || t != n) why = why " requests " n " server_calls " \
				$c["server_calls"] " sent " t
			if ($c["errors"] != 0) why = why " errors " $c["errors"]
			if (why != "") { print "row " NR ":" why; bad = 1 }
		}
		END { exit bad }' >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
	# Each master ran INCR on a key of its own slots.
	masters_ran incr "$(sed 's/"[^"]*"/MIX/' "$T/c.csv" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n = split($c["mix_sent"], x, ";")
		  for (i = 1; i <= n; i++) { split(x[i], kv, "="); if (kv[1] == "INCR hits") s += kv[2] } }
		END { print s + 0 }')"
}
tcase 'a command file on a cluster: exact per member, a fixed key per master' t_commands

# __key__ twice in a line is one key in both places, also after a fixed
# key that its tag made longer (HSET h{N} D D) and in a random one's
# line (HSET g:D f D): each field or hash name equal to its value.
t_commands_key() {
	printf '1 HSET h __key__ __key__\n1 HSET g:__key__ f __key__\n' >"$T/h.cmds"
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster --commands "$T/h.cmds" \
		-r 100 -P 4 -n 600 -c 2 --repeat 1 --flush none -o "$T/h.csv" -q
	for p in $P1 $P2 $P3; do
		h=$(ccli "$p" keys 'h{*' | tr -d '\r')
		[ -n "$h" ] || fail "master $p has no h{N}"
		ccli "$p" hgetall "$h" | tr -d '\r' | paste - - | awk -F'\t' '$1 != $2 { bad = 1 }
			END { exit bad || NR == 0 }' || fail "$h on $p: $(ccli "$p" hgetall "$h")"
		for g in $(ccli "$p" keys 'g:*' | tr -d '\r'); do
			[ "$(ccli "$p" hget "$g" f | tr -d '\r')" = "${g#g:}" ] || fail "$g on $p"
		done
		ccli "$p" flushall >/dev/null
	done
	# The same command after -- (not a mix).
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -r 100 -P 4 -n 300 -c 2 \
		--repeat 1 --flush none -o "$T/h2.csv" -q -- HSET h2 __key__ __key__
	for p in $P1 $P2 $P3; do
		h=$(ccli "$p" keys 'h2{*' | tr -d '\r')
		ccli "$p" hgetall "$h" | tr -d '\r' | paste - - | awk -F'\t' '$1 != $2 { bad = 1 }
			END { exit bad || NR == 0 }' || fail "$h on $p: $(ccli "$p" hgetall "$h")"
		ccli "$p" flushall >/dev/null
	done
}
tcase 'a command file on a cluster: __key__ twice is one key, after a tagged key too' t_commands_key

t_refused() {
	run_refused "--cluster: MSET's keys fall in different slots, which a cluster refuses (CROSSSLOT): leave mset out of MIX_GET1_MSET1" \
		-h 127.0.0.1 -p "$P1" --cluster -t mix:get=1,mset=1
}
tcase 'MSET in a mix on a cluster: one line, exit 2, no file' t_refused


# A plain test before a mix, one engine for both (issue 40, D2): the mix's
# readers were left set for the plain test's requests.
t_plain_then_mix() {
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t 'set,mix:get=1,set=1' \
		-P 1 -n 1000 --repeat 1 -o "$T/pm.csv" -q
	check_whole "$T/pm.csv"
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t 'mix:get=1,set=1,set' \
		--key-prefix 'pm:' -P 1,4 -n 1000 --repeat 1 -o "$T/mp.csv" -q
	check_whole "$T/mp.csv"
	for p in $P1 $P2 $P3; do
		[ "$(ccli "$p" dbsize | tr -d '\r')" = 0 ] || fail "master $p not left empty"
	done
}
tcase 'a plain test and a mix in one run, either order, with and without --key-prefix' \
	t_plain_then_mix

# --data-size-range on a cluster: each request's value of its own size, on
# every master's route too (the template's value is the range's largest:
# the bytes the masters took say the values were drawn), a mix and a read
# of the values prepared in the range, exact.
cl_input() {
	sum=0
	for p in $P1 $P2 $P3; do
		b=$(ccli "$p" info stats | tr -d '\r' | sed -n 's/^total_net_input_bytes://p')
		sum=$((sum + b))
	done
	echo "$sum"
}
t_sized() {
	b0=$(cl_input)
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t set -r 10000 \
		--data-size-range 1..2000 -P 8 -n 3000 --repeat 1 -o "$T/sz.csv" -q
	b1=$(cl_input)
	# Values of 1..2000 bytes, 1000 on average: far from 3000 of 2000.
	[ $((b1 - b0)) -gt 2000000 ] && [ $((b1 - b0)) -lt 4500000 ] ||
		fail "the masters took $((b1 - b0)) bytes for 3000 SETs of 1..2000 bytes"
	for p in $P1 $P2 $P3; do ccli "$p" config resetstat >/dev/null; done
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P2" --cluster -t 'get,mix:get=1,set=1' \
		-r 10000 --data-size-range 10..3000 -P 1,8 -n 3000 --repeat 1 -o "$T/sm.csv" -q
	check_whole "$T/sm.csv"
	unquote_mix "$T/sm.csv" >"$T/sm.u"
	[ "$(csv_col "$T/sm.u" misses | sort -u)" = 0 ] || fail "misses $(csv_col "$T/sm.u" misses)"
	[ "$(csv_col "$T/sm.u" data_size_range | sort -u)" = 10..3000 ] ||
		fail "data_size_range $(csv_col "$T/sm.u" data_size_range | sort -u)"
}
tcase 'values sized per request on a cluster: drawn on every route, a mix exact' t_sized

tcase_done
