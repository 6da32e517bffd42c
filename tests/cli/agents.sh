#!/bin/sh
# Three agents drive one target: every row's requests are the target's
# commandstats growth over the point, agents_ok and agents_expected are 3,
# the histogram merged from the agents holds one value per request, and the
# agents' shares add up to -n exactly.
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

start_redis
start_control
for a in a1 a2 a3; do start_agent $a; done

t_three() {
	expect_status 0 timeout 120 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 --agents-wait 10 \
		--target t=unix://"$SOCK" -t get,set -P 1,8 -n 3001 --repeat 1 -c 4 -q -o "$T/a.csv"
	check_csv "$T/a.csv"
	[ "$(rows "$T/a.csv")" = 4 ] || fail "expected 4 rows: $(cat "$T/a.csv")"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 { if ($c["requests"] != 3001) { print "requests " $c["requests"]; bad = 1 }
		   if ($c["server_calls"] != $c["requests"]) { print "server_calls " $c["server_calls"]; bad = 1 }
		   if ($c["agents_ok"] != 3 || $c["agents_expected"] != 3) { print "agents " $c["agents_ok"]; bad = 1 }
		   if ($c["clients"] != 4) { print "clients " $c["clients"]; bad = 1 }
		   if ($c["skew_ms"] == "") { print "no skew"; bad = 1 }
		   if (split($c["agent_rps"], parts, ";") != 3) { print "agent_rps " $c["agent_rps"]; bad = 1 } }
		 END { exit bad }' "$T/a.csv" || fail "rows do not add up: $(cat "$T/a.csv")"
	# GET and SET ran 2 points each of 3001 requests: the server saw exactly
	# that (the preparation of GET writes with SET... so GET's count alone).
	[ "$(get_calls)" = 6002 ] || fail "the target ran $(get_calls) GETs, not 6002"
	# The merged histograms: one value per request, in the sidecar the sweep writes.
	[ -f "$T/a.csv.hist" ] || fail "no histogram sidecar"
	# The environment names the agents as the load, and no field of the
	# leader's machine, which generated none of it (issue 45).
	grep -q '"load_generator":"3 agents"' "$T/a.csv.env" || fail "env: $(cat "$T/a.csv.env")"
	! grep -q '"cores":\|"client_cpus":\|"load_start":' "$T/a.csv.env" ||
		fail "the leader's machine in the environment: $(cat "$T/a.csv.env")"
	awk '{ for (i = 1; i <= NF; i++) if ($i == "v1") { print $(i + 1); break } }' "$T/a.csv.hist" |
		sort | uniq -c | awk '$2 != 3001 { bad = 1 } END { exit bad }' ||
		fail "merged histograms do not hold 3001 values each: $(head -c 300 "$T/a.csv.hist")"
	# Each agent said where its load went.
	for a in a1 a2 a3; do
		grep -q "load goes to unix://$SOCK" "$T/agent-$a.log" || fail "agent $a did not log its target"
	done
	# The control Redis holds only the run's capped streams and the agents' keys.
	ccli keys 'rsweep:run:*:results' | grep -q results || fail "no results stream on the control Redis"
	[ "$(ccli ttl "$(ccli keys 'rsweep:run:*:results' | head -1)")" -gt 0 ] || fail "results stream does not expire"
}
tcase 'three agents drive one target: the rows, the GET count and the merged histograms add up' t_three

# A mix over three agents: each agent draws its share's members; the
# leader adds their counts up, and each member's count is the server's.
t_mix() {
	expect_status 0 timeout 120 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 \
		--agents-wait 10 --target t=unix://"$SOCK" -t 'mix:get=80,set=20' -r 100 -P 1,8 \
		-n 3001 --repeat 1 -c 4 -q -o "$T/m.csv"
	[ "$(rows "$T/m.csv")" = 2 ] || fail "expected 2 rows: $(cat "$T/m.csv")"
	sed 's/"[^"]*"/MIX/' "$T/m.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ split($c["mix_sent"], s, "[;=]"); split($c["mix_calls"], k, "[;=]")
		  if ($c["requests"] != 3001 || $c["server_calls"] != 3001 || s[1] != "GET" ||
		      s[2] != k[2] || s[4] != k[4] || s[2] + s[4] != 3001 || s[4] == 0 ||
		      $c["agents_ok"] != 3) { print; bad = 1 } }
		END { exit bad }' >"$T/bad" || fail "mix rows: $(cat "$T/bad")"
}
tcase 'a mix over three agents: every member counted, as the server counts it' t_mix

# A second leader does not take agents a live leader holds: it names them.
t_second() {
	timeout 120 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 --target t=unix://"$SOCK" -t get -P 1 \
		--repeat 30 -n 20000 -c 2 -q -o "$T/first.csv" >/dev/null 2>"$T/first.err" &
	first=$!
	wait_rows "$T/first.csv" 1
	# Its own target: the first one's keys would stop it at the guard.
	"$REDIS_SERVER" --port 0 --unixsocket "$T/t2.sock" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$T" --logfile "$T/t2.log" &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 5 "the second target started" sh -c "redis-cli -s '$T/t2.sock' ping 2>/dev/null | grep -q PONG"
	expect_status 1 timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 1 --agents-wait 1 \
		--target t2=unix://"$T/t2.sock" -t get -P 1 -n 100 -q
	grep -q "claimed by another leader: a1 (run [0-9a-f]*), a2" "$T/err" ||
		fail "the second leader did not name the claimed agents: $(cat "$T/err")"
	wait "$first" || fail "the first leader failed: $(cat "$T/first.err")"
	[ "$(rows "$T/first.csv")" = 30 ] || fail "the first leader wrote $(rows "$T/first.csv") rows"
}
tcase 'a second leader does not take agents a live leader holds, and names them' t_second

# The control Redis must not be the target: by address, and by process.
t_control() {
	expect_status 2 "$RSWEEP" run --control "unix://$SOCK" --agents-key "$KEYF" --agents 1 --target t=unix://"$SOCK" -t get -P 1 -n 10 -q
	grep -q "control Redis must be another server" "$T/err" || fail "no refusal: $(cat "$T/err")"
}
tcase 'the control Redis must not be the target' t_control

# The agents load the database the sweep guards, or nothing runs: a unix://
# target has none in its URI, so --dbnum 5 would send them to database 0.
t_dbnum() {
	expect_status 2 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 1 --target t=unix://"$SOCK" --dbnum 5 \
		--flush db -t set -P 1 -n 10 -q
	grep -q "the agents would load database 0 of unix://$SOCK, and this sweep guards database 5" \
		"$T/err" || fail "--dbnum with agents: $(cat "$T/err")"
}
tcase 'with agents, --dbnum on a unix:// target is refused' t_dbnum

# Bad combinations are usage errors.
t_usage() {
	expect_status 2 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --target t=unix://"$SOCK" -t get -n 10 -q
	expect_status 2 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 --target t=unix://"$SOCK" -t get -n 2 -q
	expect_status 2 "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF"
	expect_status 2 "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id 'bad id'
}
tcase 'bad combinations are usage errors' t_usage

# No --allow-target: refused, saying what is needed.
t_allow() {
	expect_status 2 "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id z9
	grep -q "allow-target URI is needed" "$T/err" || fail "no --allow-target: $(cat "$T/err")"
}
tcase 'an agent without --allow-target is refused, saying what is needed' t_allow

# An id already heartbeating is refused.
t_taken() {
	expect_status 2 timeout 20 "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id a1 --allow-target "unix://$SOCK"
	grep -q "taken by a live agent" "$T/err" || fail "a second a1 was not refused: $(cat "$T/err")"
}
tcase 'an id already heartbeating is refused' t_taken

# Too few agents: the wait ends, naming who is there and who is missing.
# An agent of another version is not taken, and named as such.
t_few() {
	ccli sadd rsweep:agents ghost old >/dev/null
	ccli set rsweep:agent:old "0.0.9 1 elsewhere" ex 60 >/dev/null
	expect_status 1 timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 4 --agents-wait 1 \
		--target t=unix://"$SOCK" -t get -P 1 -n 100 -q
	grep -q "3 heartbeating (a1, a2, a3); missing 1, registered but silent: ghost, of another rsweep version: old (rsweep 0.0.9)" "$T/err" ||
		fail "the wait did not name the missing: $(cat "$T/err")"
}
tcase 'too few agents: the wait names who is there, who is silent and who is of another version' t_few

# The key: needed, private, long enough, the same on both sides.
t_key_needed() {
	expect_status 2 "$RSWEEP" run --control "$CTL" --agents 1 --target t=unix://"$SOCK" -t get -n 10 -q
	grep -q "agents-key FILE is needed" "$T/err" || fail "no key: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" agent --control "$CTL" --id k1 --allow-target "unix://$SOCK"
	grep -q "agents-key FILE is needed" "$T/err" || fail "agent without a key: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --agents-key "$KEYF" --target t=unix://"$SOCK" -t get -n 10 -q
}
tcase 'the agents key is needed, by a leader and by an agent' t_key_needed

t_key_open() {
	cp "$KEYF" "$T/open.key" && chmod 644 "$T/open.key"
	expect_status 2 "$RSWEEP" run --control "$CTL" --agents-key "$T/open.key" --agents 1 \
		--target t=unix://"$SOCK" -t get -n 10 -q -o "$T/k.csv"
	grep -q "mode 644 lets others read" "$T/err" || fail "a key others can read: $(cat "$T/err")"
	[ ! -e "$T/k.csv" ] || fail "a refused key file still opened the output"
}
tcase 'a key others can read is refused before the output is opened' t_key_open

t_key_short() {
	printf 'short\n' >"$T/short.key" && chmod 600 "$T/short.key"
	expect_status 2 "$RSWEEP" agent --control "$CTL" --agents-key "$T/short.key" --id k1 \
		--allow-target "unix://$SOCK"
	grep -q "too few bytes" "$T/err" || fail "a short key: $(cat "$T/err")"
}
tcase 'a short key is refused' t_key_short

# A leader with another key than its agents': the first point fails at
# once, naming the agent and the signature, and writes no row.
t_key_other() {
	head -c 32 /dev/urandom | base64 >"$T/other.key" && chmod 600 "$T/other.key"
	ccli srem rsweep:agents ghost old >/dev/null
	ccli del rsweep:agent:old >/dev/null
	expect_status 1 timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$T/other.key" --agents 3 \
		--agents-wait 10 --target t=unix://"$SOCK" -t get -P 1 -n 300000 -q -o "$T/other.csv"
	grep -q "agent a[123]: its result is refused: .*signature does not verify" "$T/err" ||
		fail "another key was not named: $(cat "$T/err")"
	[ ! -s "$T/other.csv" ] || [ "$(rows "$T/other.csv")" = 0 ] ||
		fail "a row from agents under another key: $(cat "$T/other.csv")"
}
tcase 'a leader with another key than its agents fails at the first point, and writes no row' t_key_other

tcase_done
