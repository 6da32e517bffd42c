#!/bin/sh
# agents_scale_bench.sh: the leader and the control Redis against the
# number of agents (issue 47), on one machine: a control Redis and a target
# on private UNIX sockets, N agents as background processes, each -c 1
# with a light share (the point is the control path, not the load).
#
#   tests/bench/agents_scale_bench.sh [RSWEEP] [N...]     (default N: 1 10 50 100)
#
# For each N, fresh agents, then one sweep of 16 points (GET, P=1,2,4,8,
# four times, -n 200 per agent), and side by side:
#   wall/pt   the sweep's wall time over its points, ms (flushes and
#             guard included)
#   pt ms     the leader's time per point from its start (agents_load) to
#             the merged result, median (its -v line)
#   send ms   of which planning and sending the point messages, median
#   merge ms  from the last agent's end to the merge, median
#   timed ms  the timed window, median (the CSV's seconds)
#   cmds/pt   control Redis commands per point (INFO commandstats over the
#             sweep, over the points), and net of the agents' idle traffic
#             (heartbeats, blocked reads) measured for 3 s before the sweep
#   KB/pt     control Redis bytes in and out per point (INFO stats)
#   cpu ms/pt the leader's CPU (user + system) per point
#   worst     the worst agent's start skew of each point (skew_ms), median
#             over the points, ms
#   skew      the start skews of every agent start (median, p99, worst, ms)
# It prints figures; it does not pass or fail.  Agents on one machine
# share its cores: the skews and times grow with N for that reason too.
set -eu
RSWEEP=${1:-${RSWEEP:-src/rsweep}}
[ $# -gt 0 ] && shift
NS=${*:-1 10 50 100}
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-bench.XXXXXX")
PIDS=
APIDS=
trap 'for p in $APIDS $PIDS; do kill -KILL $p 2>/dev/null; done; rm -rf "$T"' EXIT
KEYF=$T/agents.key
head -c 32 /dev/urandom | base64 >"$KEYF" && chmod 600 "$KEYF"
CTL="unix://$T/ctl.sock"

server() {
	redis-server --port 0 --unixsocket "$T/$1.sock" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$T" --logfile "$T/$1.log" &
	PIDS="$PIDS $!"
	until redis-cli -s "$T/$1.sock" ping 2>/dev/null | grep -q PONG; do sleep 0.05; done
}
ccli() { redis-cli -s "$T/ctl.sock" "$@"; }
# calls: every command the control Redis ran; bytes: in and out.
calls() {
	ccli info commandstats | tr -d '\r' | sed -n 's/^cmdstat_[^:]*:calls=\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}
bytes() {
	ccli info stats | tr -d '\r' | awk -F: '$1 == "total_net_input_bytes" || $1 == "total_net_output_bytes" { s += $2 } END { print s + 0 }'
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
			      { print $c }' "$1"
}
now() { date +%s.%N; }
# fmt DIGITS X: X with DIGITS decimals, or "-" (an rsweep without the -v line).
fmt() {
	case $2 in
	'' | -) echo - ;;
	*) printf "%.$1f" "$2" ;;
	esac
}

server ctl
server tgt
printf '%5s %7s %7s %7s %8s %8s %8s %8s %7s %9s %6s  %s\n' agents "wall/pt" "pt ms" "send ms" "merge ms" \
	"timed ms" "cmds/pt" "net/pt" "KB/pt" "cpu ms/pt" "worst" "skew median/p99/worst ms"
for n in $NS; do
	# Fresh agents: the last N's go (SIGTERM: they unregister).
	for p in $APIDS; do kill -TERM "$p" 2>/dev/null; done
	for p in $APIDS; do wait "$p" 2>/dev/null || true; done
	APIDS=
	ccli del rsweep:agents >/dev/null
	i=1
	while [ "$i" -le "$n" ]; do
		"$RSWEEP" agent --control "$CTL" --agents-key "$KEYF" --id "b$n-$i" \
			--allow-target "unix://$T/*" 2>"$T/agent-$n-$i.log" &
		APIDS="$APIDS $!"
		i=$((i + 1))
	done
	until [ "$(ccli scard rsweep:agents)" -ge "$n" ]; do sleep 0.1; done
	sleep 1
	# The agents' idle traffic, per second.
	c0=$(calls)
	sleep 3
	idle=$(echo "($(calls) - $c0) / 3" | bc -l)
	c0=$(calls)
	b0=$(bytes)
	t0=$(now)
	/usr/bin/time -f '%U %S' -o "$T/cpu" "$RSWEEP" run --control "$CTL" --agents-key "$KEYF" \
		--agents "$n" --agents-wait 60 --target "t=unix://$T/tgt.sock" -t get -P 1,2,4,8 \
		--repeat 4 -n $((200 * n)) -c 1 -v -o "$T/n$n.csv" >/dev/null 2>"$T/n$n.err" ||
		{ echo "N=$n: the run failed: $(tail -3 "$T/n$n.err")"; continue; }
	t1=$(now)
	c1=$(calls)
	b1=$(bytes)
	pts=$(tail -n +2 "$T/n$n.csv" | grep -c .)
	wall=$(echo "$t1 - $t0" | bc -l)
	lines=$(grep "ms in all" "$T/n$n.err" || true)
	pt=$(echo "$lines" | sed -n 's/.*, \([0-9.]*\) ms in all.*/\1/p' | median)
	send=$(echo "$lines" | sed -n 's/.*leader: \([0-9.]*\) ms to send.*/\1/p' | median)
	merge=$(echo "$lines" | sed -n 's/.*send, \(-\{0,1\}[0-9.]*\) ms from the last end.*/\1/p' | median)
	timed=$(col "$T/n$n.csv" seconds | awk '{ print $1 * 1000 }' | median)
	skew=$(sed -n 's/.*start skew over .*: median \([0-9.-]*\) ms, p90 [0-9.-]* ms, p99 \([0-9.-]*\) ms, from [0-9.-]* to \([0-9.-]*\) ms.*/\1\/\2\/\3/p' "$T/n$n.err")
	printf '%5d %7.1f %7s %7s %8s %8s %8.0f %8.0f %7.1f %9.1f %6s  %s\n' "$n" \
		"$(echo "$wall * 1000 / $pts" | bc -l)" "$(fmt 1 "$pt")" "$(fmt 2 "$send")" \
		"$(fmt 2 "$merge")" "$(fmt 1 "$timed")" "$(echo "($c1 - $c0) / $pts" | bc -l)" \
		"$(echo "($c1 - $c0 - $idle * $wall) / $pts" | bc -l)" \
		"$(echo "($b1 - $b0) / $pts / 1024" | bc -l)" \
		"$(awk -v p="$pts" '{ print ($1 + $2) * 1000 / p }' "$T/cpu")" \
		"$(fmt 2 "$(col "$T/n$n.csv" skew_ms | median)")" "${skew:--}"
done
