# lib.sh: helpers for rsweep's end-to-end tests (sourced, not run).
# Every server here is one the test starts itself, on a UNIX socket in a
# private directory, and stops again.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
REDIS_SERVER=${REDIS_SERVER:-redis-server}
command -v "$REDIS_SERVER" >/dev/null 2>&1 || { echo "SKIP: no redis-server"; exit 77; }
command -v redis-cli >/dev/null 2>&1 || { echo "SKIP: no redis-cli"; exit 77; }
# fail, and the named cases (tcase.sh).
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-test.XXXXXX")
SOCK=$T/redis.sock
REDIS_PID=

cleanup() {
	stop_redis
	rm -rf "$T"
}
# What runs on exit: a helper library that starts more (agents_lib.sh,
# cluster_lib.sh) puts its own function here, which calls cleanup.
LIB_CLEANUP=cleanup
trap 'lib_st=$?; $LIB_CLEANUP; tcase_atexit "$lib_st"' EXIT

# A server a case starts is in that case's subshell only: stopped when the
# case ends, failed or not.  (A case that stops the script's server leaves
# the script without one.)
lib_case_enter() {
	lib_case_redis=$REDIS_PID
}
lib_case_leave() {
	[ "$REDIS_PID" = "$lib_case_redis" ] || stop_redis
}
TCASE_ENTER="$TCASE_ENTER lib_case_enter"
TCASE_LEAVE="$TCASE_LEAVE lib_case_leave"

# start_redis [extra redis-server arguments...]
start_redis() {
	"$REDIS_SERVER" --port 0 --unixsocket "$SOCK" --unixsocketperm 700 --save '' \
		--appendonly no --daemonize no --dir "$T" --logfile "$T/redis.log" "$@" &
	REDIS_PID=$!
	for _ in $(seq 1 500); do
		[ -S "$SOCK" ] && redis-cli -s "$SOCK" ping 2>/dev/null | grep -q "PONG\|NOAUTH" && return 0
		sleep 0.01
	done
	fail "redis-server did not start: $(tail -3 "$T/redis.log" 2>/dev/null)"
}

stop_redis() {
	if [ -n "$REDIS_PID" ]; then
		kill -CONT "$REDIS_PID" 2>/dev/null
		kill -KILL "$REDIS_PID" 2>/dev/null
		wait "$REDIS_PID" 2>/dev/null
		REDIS_PID=
	fi
	rm -f "$SOCK"
}

rcli() {
	redis-cli -s "$SOCK" "$@"
}

# expect_status WANT CMD...: run CMD, check its exit status, keep stderr in $T/err.
expect_status() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, wanted $want; stderr: $(cat "$T/err")"
}

# run_refused MSG ARGS...: `rsweep run -o $T/out.csv ARGS` exits 2 with
# one line that says MSG (fixed text), and writes no output file.
run_refused() {
	msg=$1
	shift
	expect_status 2 "$RSWEEP" run -o "$T/out.csv" "$@"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': message is not one line: $(cat "$T/err")"
	grep -qF -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
	[ ! -e "$T/out.csv" ] || fail "'$*' created the output file"
}

# rows FILE: data rows in a CSV written by rsweep (no field holds a newline here).
rows() {
	tail -n +2 "$1" | grep -c .
}

# wait_for SECONDS WHAT CMD...: run CMD every 10 ms until it succeeds; after
# SECONDS, fail saying WHAT never happened.  For waiting on an event, in
# place of a fixed sleep that is too short on a loaded machine.
wait_for() {
	wf_secs=$1
	wf_left=$((wf_secs * 100))
	wf_what=$2
	shift 2
	while [ "$wf_left" -gt 0 ]; do
		"$@" && return 0
		sleep 0.01
		wf_left=$((wf_left - 1))
	done
	fail "$wf_what: not within $wf_secs s"
}

# get_calls: how many GETs the server has run (0 before the first).
get_calls() {
	rcli info commandstats | tr -d '\r' | sed -n 's/^cmdstat_get:calls=\([0-9]*\).*/\1/p' | grep . || echo 0
}

# wait_rows FILE N: until FILE has at least N rows (10 s at most).
wait_rows() {
	for _ in $(seq 1 1000); do
		[ -f "$1" ] && [ "$(rows "$1")" -ge "$2" ] && return 0
		sleep 0.01
	done
	fail "$1 never reached $2 rows"
}

# monitor_run OUT ARGS...: rsweep run ARGS on our server (start_redis)
# with MONITOR on: every command the server ran, a line each, into OUT.
monitor_run() {
	mr_out=$1
	shift
	redis-cli -s "$SOCK" monitor >"$mr_out" &
	mr_pid=$!
	wait_for 5 "MONITOR to start" sh -c "redis-cli -s '$SOCK' client list | grep -q cmd=monitor"
	expect_status 0 "$RSWEEP" run -s "$SOCK" "$@"
	# MONITOR writes what the server runs in order: the run's commands are
	# out once a PING sent after them is.
	rcli ping >/dev/null
	wait_for 5 "MONITOR to see the PING" grep -q '"ping"' "$mr_out"
	kill "$mr_pid" 2>/dev/null
	wait "$mr_pid" 2>/dev/null
}

# The mix column is quoted ("get=80,set=20"): a plain awk -F, splits it,
# so its commas become '+' first (no other field holds a comma here).
unquote_mix() {
	sed 's/"\([a-z0-9_=]*\),\([a-z0-9_=]*\)"/\1+\2/' "$1"
}

# check_mix FILE MIX A AW B BW ROWS: ROWS rows, every one a mix of MIX (as
# the mix column spells it, commas as '+') of members A and B (as mix_sent
# names them), counted exactly (mix_sent is mix_calls member by member and
# adds up to requests and server_calls), no error, A at AW of AW+BW within
# sampling error: a chi-square at its 1e-9 quantile, 37.33 for one degree
# of freedom (a correct draw fails it once in a billion runs).
check_mix() {
	[ "$(rows "$1")" = "$7" ] || fail "$1 has $(rows "$1") rows, wanted $7"
	unquote_mix "$1" | awk -F, -v mix="$2" -v a="$3" -v aw="$4" -v b="$5" -v bw="$6" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		function counts(s, out,    n, x, i, kv) {
			n = split(s, x, ";")
			for (i = 1; i <= n; i++) { split(x[i], kv, "="); out[kv[1]] = kv[2] }
			return n
		}
		{
			delete sent; delete calls
			why = ""
			if ($c["mix"] != mix) why = why " mix " $c["mix"]
			if (counts($c["mix_sent"], sent) != 2) why = why " mix_sent " $c["mix_sent"]
			if (counts($c["mix_calls"], calls) != 2) why = why " mix_calls " $c["mix_calls"]
			if (sent[a] != calls[a] || sent[b] != calls[b])
				why = why " sent " $c["mix_sent"] " but calls " $c["mix_calls"]
			n = $c["requests"]
			if (n != $c["server_calls"]) why = why " server_calls " $c["server_calls"]
			if (sent[a] + sent[b] != n) why = why " sent adds up to " sent[a] + sent[b]
			if ($c["errors"] != 0) why = why " errors " $c["errors"]
			ea = n * aw / (aw + bw); eb = n * bw / (aw + bw)
			x2 = (sent[a] - ea) ^ 2 / ea + (sent[b] - eb) ^ 2 / eb
			if (x2 > 37.33) why = why " chi-square " x2
			if (why != "") { print "row " NR ":" why; bad = 1 }
		}
		END { exit bad }' >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
}

# csv_col FILE NAME: the values of column NAME, one a line.
csv_col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		{ print $c }' "$1"
}

# check_csv FILE: every line has the header's number of fields; no duplicate point.
check_csv() {
	awk -F, 'NR == 1 { n = NF; next }
		 NF != n { print "line " NR ": " NF " fields, header has " n; bad = 1 }
		 { k = $1 "," $2 "," $3 "," $6; if (seen[k]++) { print "duplicate " k; bad = 1 } }
		 END { exit bad }' "$1" || fail "$1 is not whole"
}
