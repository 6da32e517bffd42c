#!/bin/sh
# What a leader refuses at once and what it passes on whole: a control
# Redis that is the target's server under another address is refused
# before any wait for agents (O8); an agent's error longer than 128 bytes
# (an AUTH refusal on a long socket path) reaches the user as it is, at
# once, not as "no result by the point's deadline" (A3); a point message
# that would take more memory than the agent's cap is refused before it
# allocates, and the agent lives on (A2); a point that names a target the
# agent was not allowed is refused (A1); and a point without the agents'
# key, unsigned or signed with another, is refused before anything
# connects, while the same point signed with the key goes through (A1, W1).
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

# ---- O8: the target on its UNIX socket, the control on its TCP port
t_same() {
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	start_redis --port "$PORT" --bind 127.0.0.1
	timeout 20 "$RSWEEP" run --control "redis://127.0.0.1:$PORT" --agents-key "$KEYF" --agents 1 --agents-wait 600 \
		--target "t=unix://$SOCK" -t get -P 1 -n 100 -q -o "$T/same.csv" >/dev/null 2>"$T/same.err"
	st=$?
	[ "$st" = 2 ] || fail "a control Redis that is the target exited $st, wanted 2 at once: $(cat "$T/same.err")"
	grep -q "reaches the target's server" "$T/same.err" || fail "no line says why: $(cat "$T/same.err")"
	stop_redis
}
tcase 'O8: a control Redis that is the target under another address is refused before any wait' t_same

# ---- A3: a long error from an agent reaches the user whole
SOCK=$T/a-socket-directory-with-a-rather-long-name-0123456789/redis.sock
mkdir -p "$(dirname "$SOCK")"
start_redis --requirepass right
start_control
t_long() {
	REDISCLI_AUTH=wrong-password "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id e1 --allow-target "unix://$SOCK" -v >"$T/agent-e1.log" 2>&1 &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 10 "agent e1 heartbeating" agent_beats e1
	# The point's deadline would be 40 s (4000 requests at 100 a second).
	REDISCLI_AUTH=right timeout 30 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 1 --agents-wait 10 \
		--target "t=unix://$SOCK" -t get -P 1 -n 4000 -c 1 -q -o "$T/e.csv" >/dev/null 2>"$T/e.err"
	st=$?
	[ "$st" = 1 ] || fail "a failing agent's run exited $st, wanted 1 at once: $(cat "$T/e.err")"
	grep -q "agent e1: .*WRONGPASS" "$T/e.err" || fail "the agent's error does not reach the user: $(cat "$T/e.err")"
	line=$(grep "agent e1: " "$T/e.err" | head -1)
	[ "${#line}" -gt 140 ] || fail "the error is not a long one ($line): the test proves nothing"
	if grep -q "deadline" "$T/e.err"; then fail "blamed on the deadline: $(cat "$T/e.err")"; fi
}
tcase 'A3: a long error from an agent reaches the user whole, at once' t_long

# ---- A2: a hostile point message, for a run made up on the control Redis,
# signed with the agents' key: the caps hold even for one who has the key
start_agent h1
# The made-up run and its leader heartbeat: A1 below sends to it too.
v=$("$RSWEEP" --version | cut -d' ' -f2)
run=fedcba9876543210
ccli set "rsweep:run:$run:leader" "$v 1 x" ex 60 >/dev/null
# The jobs of the points below, as agentmsg_job_encode writes them: a SET
# of 512 MB, a GET of a random key, and a mix of a SET of 16 MB and a GET
# (issue 40, D1), each value a run of a few bytes of text.
J_SET='mix=0 r=1 x=0 e=1 vmin=0 vmax=0 mr=1073741824 kd=- arr=uniform m=0,0,0,0,-,-,%2A3%0D%0A$3%0D%0ASET%0D%0A$1%0D%0Ak%0D%0A$536870912%0D%0A*536870912.78%0D%0A'
J_MIX='mix=1 r=1 x=0 e=15 vmin=0 vmax=0 mr=1677721600 kd=- arr=uniform m=1,0,0,0,-,-,%2A3%0D%0A$3%0D%0ASET%0D%0A$1%0D%0Ak%0D%0A$16777216%0D%0A*16777216.78%0D%0A m=1,0,0,0,-,-,%2A2%0D%0A$3%0D%0AGET%0D%0A$1%0D%0Ak%0D%0A'
t_hostile() {
	ccli set rsweep:claim:h1 "$run" ex 60 >/dev/null
	now=$(ccli time | head -1)
	base="v $v run $run kind point target unix://$SOCK mode lockstep threads 1 seed 1 requests 10
duration 0 rate 0 timeout 5 start $((now + 5))000000000"
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:h1 $base point 1 test SET job "$J_SET" depth 1000000 clients 1 \
		keyspace 0
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:h1 $base point 2 test GET job "$JOB_GET" depth 1000000 clients 1000 \
		keyspace 1
	# The mix that took an agent to 23 GB when its cap saw only a test name.
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:h1 $base point 3 test mix:set=1,get=1 job "$J_MIX" depth 100 \
		clients 64 keyspace 0
	wait_for 20 "three refusals in the results" sh -c \
		"[ \"\$(redis-cli -s '$CTL_SOCK' xlen rsweep:run:$run:results)\" = 3 ]"
	[ "$(ccli xrange "rsweep:run:$run:results" - + | grep -c "MB of client memory, more than the")" = 3 ] ||
		fail "the hostile points were not refused by the cap: $(ccli xrange "rsweep:run:$run:results" - +)"
	ccli xrange "rsweep:run:$run:results" - + |
		grep -q "test mix:set=1,get=1: the job at depth 100 with 64 connections needs about 107" ||
		fail "the mix was not refused by its job: $(ccli xrange "rsweep:run:$run:results" - +)"
	agent_beats h1 || fail "the agent died of a hostile point: $(tail -3 "$T/agent-h1.log")"
	# Refused before anything was allocated: the agent's largest resident set
	# stayed far below the smallest of the jobs (16 MB a request).
	hwm=$(sed -n 's/^VmHWM: *\([0-9]*\) kB/\1/p' "/proc/$PID_h1/status" 2>/dev/null)
	[ -z "$hwm" ] || [ "$hwm" -lt 200000 ] || fail "the agent grew to $hwm kB"
}
tcase 'A2: hostile point messages over the agent cap are refused before they allocate, and the agent lives on' t_hostile

# ---- A1: a point naming a target the agent was not allowed (signed with
# the key): refused, and nothing reaches that server (a listener that logs
# every byte it gets)
"$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id x1 --allow-target "unix://$SOCK" -v \
	>"$T/agent-x1.log" 2>&1 &
AGENT_PIDS="$AGENT_PIDS $!"
wait_for 10 "agent x1 heartbeating" agent_beats x1
# The listener: W1 below reads what it logs too, so it lives to the end.
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); s.settimeout(0.2)
end = time.time() + 90
while time.time() < end:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    c.settimeout(1)
    try:
        open(sys.argv[2], "ab").write(b"connected " + c.recv(4096) + b"\n")
    except socket.timeout:
        open(sys.argv[2], "ab").write(b"connected\n")
' "$T/attacker.sock" "$T/attacker.log" &
AGENT_PIDS="$AGENT_PIDS $!"
wait_for 5 "the listener started" test -S "$T/attacker.sock"
t_target() {
	ccli set rsweep:claim:x1 "$run" ex 60 >/dev/null
	now=$(ccli time | head -1)
	base="v $v run $run kind point mode lockstep threads 1 seed 1 requests 10 duration 0 rate 0 timeout 5
start $((now + 5))000000000 test GET depth 1 clients 1 keyspace 0"
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:x1 $base point 3 target "unix://$T/attacker.sock" job "$JOB_GET"
	wait_for 20 "the refusal in the results" sh -c \
		"redis-cli -s '$CTL_SOCK' xrange rsweep:run:$run:results - + | grep -q 'unix://$T/attacker.sock'"
	ccli xrange "rsweep:run:$run:results" - + | grep -q "is not allowed to this agent" ||
		fail "a target not allowed was not refused: $(ccli xrange "rsweep:run:$run:results" - +)"
	sleep 0.5
	[ ! -s "$T/attacker.log" ] || fail "the agent reached the server it was not allowed: $(cat "$T/attacker.log")"
}
tcase 'A1: a point naming a target the agent was not allowed is refused, and nothing reaches that server' t_target

# ---- A1, W1: a writer to the control Redis without the key.  The agent
# allows every socket of the test's directory and holds a password; the
# four commands of the attack (a leader and a claim for a made-up run, the
# control's TIME, a point naming the listener) are refused, unsigned or
# signed with another key, and the password never reaches the listener.
t_unsigned() {
	tcase_needs 'A1: a point naming a target the agent was not allowed is refused, and nothing reaches that server'
	REDISCLI_AUTH=the-agents-password "$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id y1 \
		--allow-target "unix://$T/*" -v >"$T/agent-y1.log" 2>&1 &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 10 "agent y1 heartbeating" agent_beats y1
	run2=0011223344556677
	ccli set "rsweep:run:$run2:leader" "$v 1 x" ex 60 >/dev/null
	ccli set rsweep:claim:y1 "$run2" ex 60 >/dev/null
	now=$(ccli time | head -1)
	base="v $v run $run2 kind point mode lockstep threads 1 seed 1 requests 10 duration 0 rate 0 timeout 5
start $((now + 5))000000000 test GET depth 1 clients 1 keyspace 0
target unix://$T/attacker.sock"
	head -c 32 /dev/urandom | base64 >"$T/other.key" && chmod 600 "$T/other.key"
	# shellcheck disable=SC2086
	ccli xadd rsweep:work:y1 '*' $base point 4 job "$JOB_GET" >/dev/null
	# shellcheck disable=SC2086
	sxadd "$T/other.key" rsweep:work:y1 $base point 5 job "$JOB_GET"
	wait_for 20 "two refusals in the results" sh -c \
		"[ \"\$(redis-cli -s '$CTL_SOCK' xlen rsweep:run:$run2:results)\" = 2 ]"
	ccli xrange "rsweep:run:$run2:results" - + >"$T/y1.results"
	grep -q "refused the message: unsigned" "$T/y1.results" ||
		fail "an unsigned point was not refused as unsigned: $(cat "$T/y1.results")"
	grep -q "refused the message: its signature does not verify" "$T/y1.results" ||
		fail "a point under another key was not refused: $(cat "$T/y1.results")"
	sleep 0.5
	[ ! -s "$T/attacker.log" ] || fail "a point without the key reached a server: $(cat "$T/attacker.log")"
	grep -q "the-agents-password" "$T/attacker.log" 2>/dev/null && fail "the password was sent"
	agent_beats y1 || fail "agent y1 died of a forged point: $(tail -3 "$T/agent-y1.log")"

	# The same key signs the same attack through: the refusals above are the
	# signature's, not some other check's.
	now=$(ccli time | head -1)
	base2=$(echo "$base" | sed "s/start [0-9]*/start $((now + 5))000000000/")
	# shellcheck disable=SC2086
	sxadd "$KEYF" rsweep:work:y1 $base2 point 6 job "$JOB_GET"
	wait_for 20 "the listener reached by a signed point" test -s "$T/attacker.log"
}
tcase 'A1, W1: a point unsigned or signed with another key is refused before anything connects, signed with the key it goes through' t_unsigned

tcase_done
