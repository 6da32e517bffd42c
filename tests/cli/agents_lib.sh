# agents_lib.sh: a control redis-server and rsweep agents for the agents
# tests (sourced after lib.sh, whose start_redis starts the target).  The
# control server is the test's own, on a UNIX socket of its private
# directory; every agent is a background `rsweep agent` killed on exit.
CTL_SOCK=$T/ctl.sock
CTL=unix://$CTL_SOCK
CTL_PID=
AGENT_PIDS=

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
trap agents_cleanup EXIT

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
	"$RSWEEP" agent --control "$CTL" --id "$1" --allow-target "unix://$T/*" -v \
		>"$T/agent-$1.log" 2>&1 &
	eval "PID_$1=$!"
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 10 "agent $1 heartbeating" agent_beats "$1"
}

agent_beats() {
	[ "$(ccli exists "rsweep:agent:$1" 2>/dev/null)" = 1 ]
}

# col FILE NAME: the values of column NAME, one a line.
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
			      { print $c }' "$1"
}
