#!/bin/sh
# agents_claims.sh: a leader interrupted while it waits for agents lets go
# of every claim it made, also that of an agent an earlier look claimed and
# a later one no longer saw (its heartbeat stopped): that one was left to
# expire (issue 40, O2).  The claims are read at once, inside their lease.
. "$RS_SRCDIR/tests/cli/lib.sh"
. "$RS_SRCDIR/tests/cli/agents_lib.sh"

start_redis
start_control
start_agent c1
start_agent c2

t_claims() {
	timeout -s KILL 60 "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" --agents 3 \
		--agents-wait 30 --target t=unix://"$SOCK" -t ping_mbulk -P 1 -n 1000 --repeat 1 \
		-q >/dev/null 2>"$T/c.err" &
	run=$!
	claimed() { [ "$(ccli exists rsweep:claim:c1 rsweep:claim:c2)" = 2 ]; }
	wait_for 20 "the leader to claim both agents" claimed
	# c2 falls silent: once its heartbeat key is gone, the leader's next
	# look (every 100 ms) no longer holds it, but its claim lives on.
	kill -STOP "$PID_c2"
	silent() { [ "$(ccli exists rsweep:agent:c2)" = 0 ]; }
	wait_for 10 "c2's heartbeat to lapse" silent
	sleep 0.3
	kill -INT "$run"
	wait "$run"
	st=$?
	left=$(ccli --scan --pattern 'rsweep:claim:*')
	kill -CONT "$PID_c2"
	[ "$st" = 130 ] || fail "the interrupted leader exited $st, wanted 130: $(cat "$T/c.err")"
	[ -z "$left" ] || fail "the interrupted leader left claims: $left"
}
tcase 'an interrupted leader releases the claim of an agent that fell silent' t_claims

tcase_done
