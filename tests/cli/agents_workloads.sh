#!/bin/sh
# agents_workloads.sh: agents run every workload a local run can (issue
# 43): the leader builds the job once and sends it in the point message.
# Over three agents, with a key distribution, values sized per request,
# TTLs, a key prefix, a command file and a transaction: every row's
# requests are the target's commandstats growth, and each member's count
# (mix_sent) is the server's (mix_calls), exactly.
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

start_redis
start_control
for a in a1 a2 a3; do start_agent $a; done

# lead ARGS...: a leader of the three agents on the target, -n 3001.
lead() {
	expect_status 0 timeout 120 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 \
		--agents-wait 10 --target t=unix://"$SOCK" -n 3001 --repeat 1 -c 2 -q "$@"
}

# calls CMD: the target's calls of CMD (lower case).
calls() {
	rcli info commandstats | tr -d '\r' | sed -n "s/^cmdstat_$1:calls=\([0-9]*\).*/\1/p" | grep . ||
		echo 0
}

# exact FILE: every row 3001 requests, the server's calls the same, three
# agents, no error; with a mix, each member's mix_sent its mix_calls.
exact() {
	# The mix column, quoted, is the only field with a comma.
	sed 's/"[^"]*"/MIX/' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ why = ""
		  if ($c["requests"] != 3001) why = why " requests " $c["requests"]
		  if ($c["server_calls"] != $c["requests"]) why = why " server_calls " $c["server_calls"]
		  if ($c["agents_ok"] != 3) why = why " agents_ok " $c["agents_ok"]
		  if ($c["errors"] != 0) why = why " errors " $c["errors"]
		  delete sent
		  n = split($c["mix_sent"], a, ";")
		  for (i = 1; i <= n; i++) { k = a[i]; v = a[i]; sub(/=[^=]*$/, "", k); sub(/.*=/, "", v)
			split(k, w, " "); sent[w[1]] += v }
		  n2 = split($c["mix_calls"], a, ";")
		  for (i = 1; i <= n2; i++) { k = a[i]; v = a[i]; sub(/=[^=]*$/, "", k); sub(/.*=/, "", v)
			split(k, w, " "); if (sent[w[1]] != v) why = why " " k " sent " sent[w[1]] " called " v }
		  if (why != "") { print "row " NR ":" why; bad = 1 } }
		END { exit bad }' >"$T/bad" || fail "$1: $(head -3 "$T/bad")"
}

t_keys() {
	# A key of someone else's: --key-prefix deletes only its own.
	rcli set other 1 >/dev/null
	rcli config resetstat >/dev/null
	lead -t 'get,set,mix:get=3,set=1' -r 1000 --key-dist zipf:1.1 --key-prefix 'ag:' \
		--expire 60 -P 1,8 -o "$T/k.csv"
	exact "$T/k.csv"
	[ "$(rows "$T/k.csv")" = 6 ] || fail "rows $(rows "$T/k.csv")"
	[ "$(csv_col "$T/k.csv" key_dist | sort -u)" = zipf:1.1 ] ||
		fail "key_dist $(csv_col "$T/k.csv" key_dist | sort -u)"
	# The agents wrote the prefix's keys, with their TTL, and left the other.
	[ "$(rcli dbsize)" = 1 ] && [ "$(rcli get other)" = 1 ] || fail "keys left: $(rcli keys '*')"
	rcli del other >/dev/null
}
tcase 'zipf keys, a key prefix and TTLs over three agents: exact counts' t_keys

# input_bytes: what the target has read from its clients so far.
input_bytes() {
	rcli info stats | tr -d '\r' | sed -n 's/^total_net_input_bytes://p'
}

t_values() {
	lead -t 'set,mix:set=1,get=1' -r 1000 --data-size-range 10..3000 -P 1,8 -o "$T/v.csv"
	exact "$T/v.csv"
	[ "$(rows "$T/v.csv")" = 4 ] || fail "rows $(rows "$T/v.csv")"
	# Each agent drew its values' sizes: 3001 SETs of 1..2000 bytes, 1000
	# on average, not the template's 2000 each.
	b0=$(input_bytes)
	lead -t set -r 1000 --data-size-range 1..2000 -P 8 -o "$T/b.csv"
	b1=$(input_bytes)
	[ $((b1 - b0)) -gt 2000000 ] && [ $((b1 - b0)) -lt 4500000 ] ||
		fail "the target read $((b1 - b0)) bytes for 3001 SETs of 1..2000 bytes"
}
tcase 'values sized per request over three agents: exact counts' t_values

t_expire_write() {
	rcli config resetstat >/dev/null
	# INCR with --expire is INCR and EXPIRE, one request: each agent sends both.
	lead -t incr -r 1000 --expire 60 -P 4 -o "$T/e.csv"
	[ "$(csv_col "$T/e.csv" requests)" = 3001 ] || fail "requests $(csv_col "$T/e.csv" requests)"
	[ "$(calls incr)" = 3001 ] || fail "incr calls $(calls incr)"
	[ "$(calls expire)" = 3001 ] || fail "expire calls $(calls expire)"
}
tcase 'a write and its EXPIRE (--expire) over three agents: both counted' t_expire_write

t_commands() {
	printf '# two writes and a read\n3 SET c:__key__ __data__\n1 INCR n:__key__\n2 GET c:__key__\n' \
		>"$T/ag.cmds"
	lead --commands "$T/ag.cmds" -r 500 --key-dist zipf -P 1,4 -o "$T/c.csv"
	exact "$T/c.csv"
	[ "$(rows "$T/c.csv")" = 2 ] || fail "rows $(rows "$T/c.csv")"
}
tcase 'a command file over three agents: each member exact' t_commands

t_transaction() {
	rcli config resetstat >/dev/null
	lead -P 2 -r 100 -o "$T/t.csv" --transaction -- SET 'k:__key__' v ';' GET 'k:__key__'
	[ "$(csv_col "$T/t.csv" requests)" = 3001 ] || fail "requests $(csv_col "$T/t.csv" requests)"
	[ "$(csv_col "$T/t.csv" errors)" = 0 ] || fail "errors $(csv_col "$T/t.csv" errors)"
	[ "$(calls exec)" = 3001 ] || fail "exec calls $(calls exec)"
	[ "$(calls get)" = 3001 ] || fail "get calls $(calls get)"
	# A sequence whose reads miss twice a request: each agent's misses may
	# pass its requests.
	lead -P 2 -r 100 -o "$T/s.csv" -- SET 'k:__key__' v ';' 2 GET 'none:__key__'
	[ "$(csv_col "$T/s.csv" requests)" = 3001 ] || fail "requests $(csv_col "$T/s.csv" requests)"
	[ "$(csv_col "$T/s.csv" misses)" = 6002 ] || fail "misses $(csv_col "$T/s.csv" misses)"
}
tcase 'a transaction and a sequence after -- over three agents: every EXEC and miss counted' \
	t_transaction

# An open loop over three agents: each its share of the rate, the point's
# requests exact, its latency from the due times and its service times
# merged.  3001 requests at 6000 a second take half a second at least
# (a bound a slow machine cannot break): the agents kept to the schedule.
t_rate() {
	lead -t 'get,mix:get=1,set=1' -r 1000 --rate 6000 --arrivals poisson -P 4 -o "$T/r.csv"
	exact "$T/r.csv"
	sed 's/"[^"]*"/MIX/' "$T/r.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ if ($c["rate_offered"] != 6000 || $c["arrivals"] != "poisson" ||
		      $c["mode"] != "window" || $c["svc_p50_ms"] == "" || $c["p50_ms"] == "" ||
		      $c["seconds"] < 0.4) {
			print; bad = 1 } }
		END { exit bad }' >"$T/bad" || fail "rate rows: $(cat "$T/bad")"
}
tcase 'an open loop (--rate, Poisson arrivals) over three agents: exact, its service times merged' \
	t_rate

# run --slo over agents: the search's probes are the agents' open loop; they
# send no slip back, which the run says once (issue 46).
t_slo() {
	lead -t get --slo p99=50ms --slo-probes 1 -P 4 -o "$T/slo.csv"
	[ "$(col "$T/slo.csv" slo_phase | sort | tr '\n' ' ')" = "probe start " ] ||
		fail "slo rows: $(cat "$T/slo.csv")"
	grep -q "does not measure its send slip (agents)" "$T/err" || fail "$(cat "$T/err")"
}
tcase 'run --slo over three agents: a start and a probe, the slip said unknown' t_slo

# A -d list over the agents: each point's job carries its values' size,
# the GETs find what the leader prepared at that size.
t_data_sizes() {
	lead -t set,get -d 10,1000 -r 1000 -P 4 -o "$T/d.csv"
	exact "$T/d.csv"
	[ "$(rows "$T/d.csv")" = 4 ] || fail "rows $(rows "$T/d.csv")"
	[ "$(csv_col "$T/d.csv" data_size | sort -un | tr '\n' ' ')" = "10 1000 " ] ||
		fail "data_size $(csv_col "$T/d.csv" data_size | sort -u)"
	[ "$(csv_col "$T/d.csv" misses | sort -u)" = 0 ] || fail "misses $(csv_col "$T/d.csv" misses)"
	# -c and --threads are each agent's for the run: a list of them is refused.
	run_refused "--agents opens one -c and --threads for the run" --control "$CTL" \
		--agents-key "$KEYF" --agents 3 --target t=unix://"$SOCK" -c 1,2
}
tcase 'a -d list over three agents: each size exact, -c lists refused' t_data_sizes

tcase_done
