#!/bin/sh
# An agent loads no target nobody measures: when its leader is interrupted
# (^C) mid-point, the leader lets its agents go and each agent's heartbeat
# sees its claim gone and stops the load within about a second.  Seen
# before: the agent ran its whole --duration share after the leader had
# exited, 200,000 more calls on the target in 3 s.  And the leader leaves
# no claim and no heartbeat of its own on the control Redis, with two
# agents as with one (issue 25 O2: one of two claims was left to expire).
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

# calls of PING on the target so far.
pcalls() {
	rcli info commandstats | tr -d '\r' | sed -n 's/^cmdstat_ping:calls=\([0-9]*\).*/\1/p' | grep . || echo 0
}

start_redis
start_control
start_agent s1
start_agent s2

t_stop() {
	timeout 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 2 --agents-wait 10 --target t=unix://"$SOCK" \
		-t ping_mbulk -P 1 --duration 20 --repeat 1 -c 2 -q -o "$T/s.csv" >/dev/null 2>"$T/s.err" &
	run=$!
	# Until the point's load is on the target.
	busy() { [ "$(pcalls)" -gt 1000 ]; }
	wait_for 20 "the agent's load on the target" busy
	kill -INT "$run"
	wait "$run"
	st=$?
	[ "$st" = 130 ] || fail "the interrupted leader exited $st, wanted 130: $(cat "$T/s.err")"
	# Read at once, well inside the claims' 5 s: released, not expired.
	left=$(ccli --scan --pattern 'rsweep:claim:*'; ccli --scan --pattern 'rsweep:run:*:leader')
	[ -z "$left" ] || fail "the interrupted leader left on the control Redis: $left"
	# Within 3 s the calls stop growing: two readings 1 s apart agree.
	still() {
		a=$(pcalls)
		sleep 1
		[ "$(pcalls)" = "$a" ]
	}
	wait_for 4 "the agent to stop loading the target" still
	for a in s1 s2; do
		grep -q "no longer holds this agent: its load stops" "$T/agent-$a.log" ||
			fail "agent $a did not say it stopped: $(cat "$T/agent-$a.log")"
	done
}
tcase 'an interrupted leader lets its agents go: claims released, the load stopped' t_stop

tcase_done
