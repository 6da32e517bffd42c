#!/bin/sh
# Passwords in URIs leave argv: while rsweep run and rsweep agent are
# running (held by a listener that accepts and never answers), their
# /proc/PID/cmdline shows no password of a rediss:// or redis:// target
# (":pw@", "user:pw@", "--target=..."), nor of --control; and a --control
# of a scheme rsweep refuses is quoted by its scheme only.
. "$RS_SRCDIR/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -r /proc/self/cmdline ] || { echo "SKIP: no /proc"; exit 77; }

# A listener on 127.0.0.1 that accepts and holds every connection, silent.
cat >"$T/hold.py" <<'PY'
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
end = time.time() + 60
s.settimeout(0.2)
while time.time() < end:
    try:
        c, _ = s.accept(); held.append(c)
    except socket.timeout:
        pass
PY
python3 "$T/hold.py" >"$T/port" &
HOLD=$!
hold_cleanup() {
	kill $HOLD 2>/dev/null
	cleanup
}
LIB_CLEANUP=hold_cleanup
wait_for 5 "the listener started" test -s "$T/port"
P=$(cat "$T/port")
KEYF=$T/agents.key
head -c 32 /dev/urandom | base64 >"$KEYF" && chmod 600 "$KEYF" || fail "no agents key"

# check WHAT ARGS...: start rsweep ARGS, wait until it has a connection
# open, and look for SECRET in its cmdline.
check() {
	what=$1
	shift
	"$RSWEEP" "$@" >/dev/null 2>"$T/err" &
	pid=$!
	sleep 0.3
	[ -r "/proc/$pid/cmdline" ] || fail "$what: rsweep had exited: $(cat "$T/err")"
	tr '\0' ' ' <"/proc/$pid/cmdline" >"$T/cmdline"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	if grep -q SECRET "$T/cmdline"; then
		fail "$what: the password shows in /proc/PID/cmdline: $(cat "$T/cmdline")"
	fi
	grep -q '\*\*\*\*\*\*' "$T/cmdline" || fail "$what: nothing blanked? $(cat "$T/cmdline")"
}

ct="--connect-timeout 10 -t get -P 1 -n 10 -o $T/o.csv"

t_target() {
	check "rediss :pw@" run --target "t=rediss://:SECRET@127.0.0.1:$P" --insecure $ct
	check "rediss user:pw@" run --target "t=rediss://bob:SECRET@127.0.0.1:$P" --insecure $ct
	check "rediss --target=" run "--target=t=rediss://:SECRET@127.0.0.1:$P" --insecure $ct
	check "redis --target=" run "--target=t=redis://bob:SECRET@127.0.0.1:$P" $ct
}
tcase "a target's password leaves run's argv, as :pw@, user:pw@ or --target=" t_target

t_run_control() {
	check "run --control" run --control "redis://:SECRET@127.0.0.1:$P" --agents-key "$KEYF" --agents 1 \
		--target "t=redis://127.0.0.1:$P" $ct
	check "run --control=" run "--control=redis://bob:SECRET@127.0.0.1:$P" --agents-key "$KEYF" --agents 1 \
		--target "t=redis://127.0.0.1:$P" $ct
}
tcase "--control's password leaves run's argv" t_run_control

t_agent_control() {
	check "agent --control" agent --control "redis://bob:SECRET@127.0.0.1:$P" --agents-key "$KEYF" --id a1 \
		--allow-target unix:///x \
		--connect-timeout 10
}
tcase "--control's password leaves agent's argv" t_agent_control

# P3: a refused scheme is quoted by its scheme only.
t_agent_scheme() {
	"$RSWEEP" agent --control "ftp://:SECRET@x" --agents-key "$KEYF" --id a1 --allow-target unix:///x \
		>/dev/null 2>"$T/ftp.err"
	st=$?
	[ "$st" = 2 ] || fail "--control ftp:// exited $st, wanted 2: $(cat "$T/ftp.err")"
	grep -q "not redis://" "$T/ftp.err" || fail "no line says why: $(cat "$T/ftp.err")"
	if grep -q SECRET "$T/ftp.err"; then fail "the password is printed: $(cat "$T/ftp.err")"; fi
}
tcase 'agent: a refused --control scheme is quoted by its scheme only' t_agent_scheme

t_run_scheme() {
	"$RSWEEP" run --control "ftp://:SECRET@x" --agents-key "$KEYF" --agents 1 --target t=redis://127.0.0.1:1 \
		-t get -P 1 -o "$T/f.csv" >/dev/null 2>"$T/ftp2.err"
	if grep -q SECRET "$T/ftp2.err"; then fail "run prints the password: $(cat "$T/ftp2.err")"; fi
}
tcase 'run: a refused --control scheme is quoted by its scheme only' t_run_scheme

tcase_done
