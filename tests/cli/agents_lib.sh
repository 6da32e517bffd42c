# agents_lib.sh: a control redis-server and rsweep agents for the agents
# tests (sourced after lib.sh, whose start_redis starts the target).  The
# control server is the test's own, on a UNIX socket of its private
# directory; every agent is a background `rsweep agent` killed on exit.
CTL_SOCK=$T/ctl.sock
CTL=unix://$CTL_SOCK
CTL_PID=
AGENT_PIDS=
# The key that signs the leader's and the agents' messages: the test's own,
# readable by its owner only, as --agents-key requires.
KEYF=$T/agents.key
head -c 32 /dev/urandom | base64 >"$KEYF" && chmod 600 "$KEYF" || fail "no agents key"

agents_cleanup() {
	for pid in $AGENT_PIDS; do
		kill -CONT "$pid" 2>/dev/null
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	AGENT_PIDS=
	if [ -n "$CTL_PID" ]; then
		kill -KILL "$CTL_PID" 2>/dev/null
		wait "$CTL_PID" 2>/dev/null
	fi
	cleanup
}
LIB_CLEANUP=agents_cleanup
# Agents and a control server a case starts end with the case (see
# lib.sh); those the script started before it are left alone.
agents_case_enter() {
	ag_case_pids=$AGENT_PIDS
	ag_case_ctl=$CTL_PID
}
agents_case_leave() {
	for pid in $AGENT_PIDS; do
		case " $ag_case_pids " in
		*" $pid "*) ;;
		*)
			kill -CONT "$pid" 2>/dev/null
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			;;
		esac
	done
	if [ "$CTL_PID" != "$ag_case_ctl" ] && [ -n "$CTL_PID" ]; then
		kill -KILL "$CTL_PID" 2>/dev/null
		wait "$CTL_PID" 2>/dev/null
	fi
}
# A leader a case ran in the background and never waited for (the case
# failed before its wait) would go on loading the target and holding its
# agents, past the case and the script: it is interrupted as ^C would, so
# that it lets its agents go for the next case (a kill -9 would leave them
# claimed until their lease runs out), and reaped.  By now the case's
# agents and servers are gone (agents_case_leave, lib_case_leave), so what
# jobs -p lists are leaders; it lists the case's own children not yet
# reaped, never a pid that may be someone else's by now.  (Into a file:
# in a command substitution, dash lists no jobs.)
agents_case_leaders() {
	jobs -p >"$T/case-jobs"
	while read -r pid; do
		kill -INT "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done <"$T/case-jobs"
}
TCASE_ENTER="$TCASE_ENTER agents_case_enter"
TCASE_LEAVE="$TCASE_LEAVE agents_case_leave agents_case_leaders"

ccli() {
	redis-cli -s "$CTL_SOCK" "$@"
}

start_control() {
	"$REDIS_SERVER" --port 0 --unixsocket "$CTL_SOCK" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$T" --logfile "$T/ctl.log" &
	CTL_PID=$!
	wait_for 5 "the control redis-server started" sh -c \
		"[ -S '$CTL_SOCK' ] && redis-cli -s '$CTL_SOCK' ping 2>/dev/null | grep -q PONG"
}

# start_agent ID: a background agent; its pid in the variable PID_ID, its
# log in $T/agent-ID.log.  Waits until it heartbeats.
start_agent() {
	"$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id "$1" --allow-target "unix://$T/*" -v \
		>"$T/agent-$1.log" 2>&1 &
	eval "PID_$1=$!"
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 10 "agent $1 heartbeating" agent_beats "$1"
}

# sxadd KEYFILE STREAM FIELD VALUE...: XADD the fields to STREAM on the
# control Redis, signed as rsweep signs them (src/agents/agentkey.h: HMAC-SHA256
# of a domain, the stream, the field count and each name and value, each
# behind its length as 8 bytes, big-endian) with the key in KEYFILE, by
# openssl(1): a second implementation of the format, from its description.
# The fields are ASCII, so that ${#x} counts their bytes.
sx_len() {
	sx_o=
	for sx_i in 0 1 2 3 4 5 6 7; do
		sx_o="$sx_o\\$(printf '%03o' $((($1 >> (56 - 8 * sx_i)) & 255)))"
	done
	# shellcheck disable=SC2059
	printf "$sx_o"
}
sx_put() {
	sx_len "${#1}"
	printf '%s' "$1"
}
sxadd() {
	sx_key=$(cat "$1")
	sx_stream=$2
	shift 2
	{
		sx_put "rsweep agents v1"
		sx_put "$sx_stream"
		sx_len $(($# / 2))
		for sx_a in "$@"; do sx_put "$sx_a"; done
	} >"$T/sx.bin"
	sx_mac=$(openssl dgst -sha256 -mac HMAC -macopt "key:$sx_key" <"$T/sx.bin" | sed 's/.*= *//')
	[ "${#sx_mac}" = 64 ] || fail "sxadd: no signature from openssl: $sx_mac"
	ccli xadd "$sx_stream" '*' "$@" mac "$sx_mac" >/dev/null
}

# JOB_GET: the job of GET key:__rand_int__ as agentmsg_job_encode writes it,
# for point messages made up by hand (one word with blanks: quote it).
JOB_GET='mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform m=0,0,0,0,23,-,%2A2%0D%0A$3%0D%0AGET%0D%0A$16%0D%0Akey:__rand_int__%0D%0A'

agent_beats() {
	[ "$(ccli exists "rsweep:agent:$1" 2>/dev/null)" = 1 ]
}

# col FILE NAME: the values of column NAME, one a line.
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
			      { print $c }' "$1"
}
