#!/bin/sh
# One server reached over its UNIX socket and over TCP on 127.0.0.1, as
# two --target of one sweep (tcp first: the report's default baseline).
# The two targets share the server: each empties it after its points, so
# neither guard finds the other's keys (a refusal would fail the run).
# Each target's rows name its own URI, the report compares them with tcp
# as its baseline, and a password in the URI authenticates without being
# written down.
#
# What is not asserted here: which transport is faster.  On a quiet machine
# the socket is about 1.3-2x TCP at P=1; under make -j2 check on a shared
# 2-core machine it has been found at 0.93x..1.02x, and under distcheck's
# load at 0.46x..0.77x in three pairs running, whichever side the other
# tests' bursts fell on: a performance figure, which this project measures
# in tests/bench/aa_bench.sh (its A/B part, this comparison run many times),
# never in make check.  The ratios are printed for the log.  Every run is
# bounded by -n and --timeout.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# A port on 127.0.0.1 nothing listens on; the server's start tells.
for try in 1 2 3 4 5; do
	PORT=$((20000 + $$ % 20000 + try * 97))
	redis-cli -p "$PORT" ping >/dev/null 2>&1 && continue
	start_redis --port "$PORT" --bind 127.0.0.1
	redis-cli -p "$PORT" ping 2>/dev/null | grep -q PONG && break
	stop_redis
	PORT=
done
[ -n "$PORT" ] || fail "no free TCP port for the server"

run_pair() {
	f=$T/ut-$1.csv
	expect_status 0 "$RSWEEP" run --target tcp=redis://127.0.0.1:"$PORT" \
		--target unix=unix://"$SOCK" -t get,set -P 1,2,3 --repeat 3 -n 2000 -c 4 \
		--timeout 10 -q -o "$f"
	[ "$(rows "$f")" = 36 ] || fail "$(rows "$f") rows, wanted 36 (2 targets x 2 tests x 3 depths x 3)"
	check_csv "$f"
	grep -q "^tcp,.*,redis://127.0.0.1:$PORT," "$f" || fail "no tcp row names its URI: $(head -3 "$f")"
	grep -q "^unix,.*,unix://$SOCK," "$f" || fail "no unix row names its socket"
	expect_status 0 "$RSWEEP" report --format csv "$f" -o "$T/rep-$1.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 $col["label"] == "unix" { n++
			   printf "%s: ratio at P=1 %s (%s..%s) %s, baseline %s\n", $col["test"],
				  $col["ratio_at_1"], $col["ratio_at_1_lo"], $col["ratio_at_1_hi"],
				  $col["verdict_at_1"], $col["baseline"]
			   if ($col["baseline"] != "tcp" || $col["verdict_at_1"] == "") bad = 1 }
		 END { if (n != 2) { print n + 0 " rows for unix, wanted 2"; exit 2 }
		       exit bad }' "$T/rep-$1.csv" >"$T/ratios-$1" ||
		fail "the report did not compare unix with tcp: $(cat "$T/ratios-$1")"
}

# The password is taken off again as the case ends, passed or failed, for
# the case after it.
clear_password() {
	redis-cli -s "$SOCK" -a Pw0rd-x --no-auth-warning config set requirepass "" >/dev/null
}

# A password in a redis:// URI: AUTH with it, never write it down; a
# wrong one is one line naming the target, exit 2.
t_password() {
	TCASE_LEAVE="$TCASE_LEAVE clear_password"
	rcli config set requirepass Pw0rd-x >/dev/null
	expect_status 0 "$RSWEEP" run --target t=redis://:Pw0rd-x@127.0.0.1:"$PORT" --target s=spawn: \
		-t get -n 200 -c 2 --repeat 1 -q -o "$T/pw.csv"
	[ "$(rows "$T/pw.csv")" = 2 ] || fail "$(rows "$T/pw.csv") rows with a password"
	grep -q "Pw0rd" "$T/pw.csv" "$T/out" && fail "the password was written down"
	grep "Pw0rd" "$T/err" | grep -qv "warning" && fail "the password was printed: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --target t=redis://:nope@127.0.0.1:"$PORT" --target s=spawn: \
		-t get -n 200 -q
	grep -q "target 't'.*WRONGPASS" "$T/err" && ! grep -q nope "$T/err" || fail "$(cat "$T/err")"
}
tcase 'a password in a URI authenticates and is never written down; a wrong one is refused' t_password

t_pair() {
	run_pair 1
	cat "$T/ratios-1"
	rcli dbsize | grep -qx 0 || fail "the sweep left keys behind"
}
tcase 'one server over its socket and over TCP: rows name their URIs, the report compares them' t_pair

tcase_done
