#!/bin/sh
# run_publish.sh: -t publish with real subscribers (issue 47).  On a
# private server: every message reaches every subscriber of its channel,
# exactly (delivered = subscribers / channels x requests = the sum of
# PUBLISH's replies), none lost or twice, with delivery percentiles, at
# every depth; channels and patterns; a subscriber the server drops is
# loss, not hidden; the subscribers are gone after the run; options that
# cannot go together are refused with one line, exit 2, no file.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# check_pubsub FILE PER: every row of FILE delivered PER x requests, lost
# 0, dup 0, receivers = delivered, server_calls = requests, percentiles.
check_pubsub() {
	awk -F, -v per="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			why = ""
			if ($c["test"] != "PUBLISH") why = why " test " $c["test"]
			if ($c["delivered"] != per * $c["requests"]) why = why " delivered " $c["delivered"]
			if ($c["receivers"] != $c["delivered"]) why = why " receivers " $c["receivers"]
			if ($c["lost"] != 0 || $c["dup"] != 0) why = why " lost/dup " $c["lost"] "/" $c["dup"]
			if ($c["server_calls"] != $c["requests"]) why = why " calls " $c["server_calls"]
			if ($c["deliver_p50_ms"] == "" || $c["deliver_p99_ms"] == "" ||
			    $c["deliver_p999_ms"] == "" || $c["delivered_rps"] <= 0) why = why " no percentiles"
			if ($c["p50_ms"] == "") why = why " no PUBLISH latency"
			if ($c["sub_cpu_s"] == "") why = why " no sub_cpu_s"
			if (why != "") { print "row " NR ":" why; bad = 1 }
		}
		END { exit bad }' "$1" >"$T/bad" || fail "$1: $(head -3 "$T/bad")"
}

t_exact() {
	start_redis
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t publish --subscribers 3 -P 1,8 -n 3000 \
		--repeat 1 -q -o "$T/p.csv"
	check_csv "$T/p.csv"
	[ "$(rows "$T/p.csv")" = 2 ] || fail "p.csv has $(rows "$T/p.csv") rows"
	check_pubsub "$T/p.csv" 3
	! grep -q "never arrived" "$T/err" || fail "a loss noted: $(cat "$T/err")"
	[ "$(csv_col "$T/p.csv" subscribers | sort -u)" = 3 ] || fail "subscribers column"
	[ "$(csv_col "$T/p.csv" sub_mode | sort -u)" = subscribe ] || fail "sub_mode column"
	# The subscribers left with the run.
	[ "$(rcli pubsub numsub rsweep:ch:000000000000 | tail -1)" = 0 ] ||
		fail "subscribers left behind"
}
tcase '3 subscribers at P=1 and 8: delivered = 3 x published, exactly' t_exact

t_channels_patterns() {
	expect_status 0 "$RSWEEP" run --spawn -t publish,get --subscribers 6 --channels 3 \
		--psubscribe -P 1,32 -c 5 --threads 2 --mode window -n 4001 --repeat 1 -q \
		-o "$T/c.csv"
	grep '^[^,]*,PUBLISH,' "$T/c.csv" >"$T/crows"
	{ head -1 "$T/c.csv"; cat "$T/crows"; } >"$T/c1.csv"
	[ "$(rows "$T/c1.csv")" = 2 ] || fail "c.csv: $(cat "$T/c.csv")"
	check_pubsub "$T/c1.csv" 2
	[ "$(csv_col "$T/c1.csv" sub_mode | sort -u)" = psubscribe ] || fail "sub_mode column"
	# A test that does not publish leaves the columns empty.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["test"] == "GET" && ($c["delivered"] != "" || $c["subscribers"] != "" ||
		$c["deliver_p50_ms"] != "") { exit 1 }' "$T/c.csv" ||
		fail "GET rows with pub/sub columns: $(cat "$T/c.csv")"
}
tcase '6 subscribers on 3 channels by pattern, window, 2 threads: 2 x published' \
	t_channels_patterns

# The issue's counts: 1, 10 and 50 subscribers at P=1 and 32, exact.
t_fanout() {
	start_redis
	for subs in 1 10 50; do
		expect_status 0 "$RSWEEP" run -s "$SOCK" -t publish --subscribers "$subs" -P 1,32 \
			-n 2000 -c 8 --repeat 1 -q -o "$T/f$subs.csv"
		[ "$(rows "$T/f$subs.csv")" = 2 ] || fail "f$subs.csv: $(cat "$T/f$subs.csv")"
		check_pubsub "$T/f$subs.csv" "$subs"
	done
}
tcase '1, 10 and 50 subscribers at P=1 and 32: subscribers x published, exactly' t_fanout

# A server that drops subscribers whose output falls behind (1 kB):
# batches of 32 messages of 2 kB each overflow it at once.  The rows say
# so: lost > 0, delivered + lost = what every message owed, and a note
# says it as it happens.
t_loss() {
	start_redis --client-output-buffer-limit 'pubsub 1kb 1kb 0'
	expect_status 0 "$RSWEEP" run -s "$SOCK" -t publish --subscribers 2 -P 32 -d 2000 \
		-n 3200 -c 1 --repeat 1 --timeout 2 -q -o "$T/l.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["lost"] <= 0 || $c["delivered"] + $c["lost"] != 2 * $c["requests"] { exit 1 }' \
		"$T/l.csv" || fail "loss not reported: $(cat "$T/l.csv")"
	grep -q "PUBLISH P=32: of 6400 messages owed to the subscribers, [0-9]* never arrived" \
		"$T/err" || fail "no note of the loss: $(cat "$T/err")"
}
tcase 'subscribers the server drops: their messages are lost, not hidden' t_loss

t_refused() {
	run_refused "--subscribers goes with -t publish" --spawn -t get --subscribers 2
	run_refused "option --subscribers: 0 is out of range" --spawn -t publish --subscribers 0
	run_refused "--channels 2 does not divide --subscribers 3" --spawn -t publish \
		--subscribers 3 --channels 2
	run_refused "--channels spreads -t publish's subscribers" --spawn -t publish --channels 2
	run_refused "--psubscribe says how" --spawn -t publish --psubscribe
	run_refused "--cluster runs sharded pub/sub: -t spublish" --cluster -h 127.0.0.1 -p 1 \
		-t publish
	run_refused "mix member 'publish'" --spawn -t mix:publish=1,get=1
	run_refused "--data-size-range does not size -t publish" --spawn -t publish \
		--data-size-range 10..100
	run_refused "--resume does not continue a pub/sub file yet" --spawn -t publish --resume
	run_refused "--subscribers 10000 x -c 201: each subscriber follows" --spawn -t publish \
		--subscribers 10000 -c 1,201
}
tcase 'refusals: one line, exit 2, no file' t_refused
tcase_done
