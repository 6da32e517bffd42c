#!/bin/sh
# One server reached over its UNIX socket and over TCP on 127.0.0.1, as
# two --target of one sweep (tcp first: the report's default baseline).
# The two targets share the server: each empties it after its points, so
# neither guard finds the other's keys (a refusal would fail the run).
# The report must never find the socket slower at P=1 for GET or SET.  And a
# password in the URI authenticates without being written down.
#
# Why this is not flaky.  On a quiet machine the socket's ratio at P=1 is
# about 1.3-2x here, and the verdict is "faster".  But on a shared 2-core
# machine under make -j2 check the points of 2000 requests have a CV of
# 20-60%, and the ratio's interval can straddle 1 ("same (cannot tell)")
# while the ratio itself is well above 1; and under distcheck's load both
# sides have been seen at the same rate (0.93x..1.02x in three pairs), the
# client the bottleneck.  So what is asserted is that the socket is never
# found slower: its ratio's interval at P=1 not wholly below 1 (the verdict
# never "slower"), which targets swapped on a quiet machine fail; a pair that fails is run again, from a
# fresh file, up to three times, since a burst of load rarely hits the
# same side three times over, while a real fault (the targets swapped,
# one target's rows taken for the other's, TCP measured twice) fails all.
# No timing is asserted; every run is bounded by -n and --timeout.
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
		 $col["label"] == "unix" { n++; r = $col["ratio_at_1"]; hi = $col["ratio_at_1_hi"]
			   v = $col["verdict_at_1"]
			   printf "%s: ratio at P=1 %s (%s..%s) %s\n", $col["test"], r,
				  $col["ratio_at_1_lo"], hi, v
			   if (v == "slower" || (hi != "" && !(hi + 0 > 1))) bad = 1 }
		 END { if (n != 2) { print n + 0 " rows for unix, wanted 2"; exit 2 }
		       exit bad }' "$T/rep-$1.csv" >"$T/ratios-$1"
}

# A password in a redis:// URI: AUTH with it, never write it down; a
# wrong one is one line naming the target, exit 2.
rcli config set requirepass Pw0rd-x >/dev/null
expect_status 0 "$RSWEEP" run --target t=redis://:Pw0rd-x@127.0.0.1:"$PORT" --target s=spawn: \
	-t get -n 200 -c 2 --repeat 1 -q -o "$T/pw.csv"
[ "$(rows "$T/pw.csv")" = 2 ] || fail "$(rows "$T/pw.csv") rows with a password"
grep -q "Pw0rd" "$T/pw.csv" "$T/out" && fail "the password was written down"
grep "Pw0rd" "$T/err" | grep -qv "warning" && fail "the password was printed: $(cat "$T/err")"
expect_status 2 "$RSWEEP" run --target t=redis://:nope@127.0.0.1:"$PORT" --target s=spawn: \
	-t get -n 200 -q
grep -q "target 't'.*WRONGPASS" "$T/err" && ! grep -q nope "$T/err" || fail "$(cat "$T/err")"
redis-cli -s "$SOCK" -a Pw0rd-x --no-auth-warning config set requirepass "" >/dev/null

for n in 1 2 3; do
	if run_pair "$n"; then
		cat "$T/ratios-$n"
		rcli dbsize | grep -qx 0 || fail "the sweep left keys behind"
		exit 0
	fi
	echo "note: pair $n: $(tr '\n' ';' <"$T/ratios-$n")" >&2
done
fail "the socket was slower than TCP at P=1 in three sweeps: $(cat "$T"/ratios-*)"
