#!/bin/sh
# cluster_publish.sh: sharded pub/sub on a 3-master cluster (issue 47).
# -t spublish: each master publishes to channels of its own slots (a
# hash tag a master, as a fixed key gets) and its own subscribers
# SSUBSCRIBE there; every row delivered = subscribers / channels x
# published, exactly, none lost or twice, each master's SPUBLISH calls a
# third; -t publish and --psubscribe are refused with one line.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
. "${RS_SRCDIR:-.}/tests/cli/cluster_lib.sh"

start_cluster

t_sharded() {
	expect_status 0 "$RSWEEP" run -h 127.0.0.1 -p "$P1" --cluster -t spublish --subscribers 4 \
		--channels 2 -P 1,16 -c 4 -n 6000 --repeat 1 -q -o "$T/s.csv"
	[ "$(rows "$T/s.csv")" = 2 ] || fail "s.csv: $(cat "$T/s.csv")"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			why = ""
			if ($c["delivered"] != 2 * $c["requests"]) why = why " delivered " $c["delivered"]
			if ($c["receivers"] != $c["delivered"]) why = why " receivers " $c["receivers"]
			if ($c["lost"] != 0 || $c["dup"] != 0) why = why " lost/dup " $c["lost"] "/" $c["dup"]
			if ($c["server_calls"] != $c["requests"]) why = why " calls " $c["server_calls"]
			if ($c["masters"] != 3 || $c["sub_mode"] != "ssubscribe") why = why " masters/mode"
			if ($c["deliver_p50_ms"] == "" || $c["errors"] != 0) why = why " p50/errors"
			if (why != "") { print "row " NR ":" why; bad = 1 }
		}
		END { exit bad }' "$T/s.csv" >"$T/bad" || fail "$(head -3 "$T/bad")"
	for p in $P1 $P2 $P3; do
		[ "$(cl_calls "$p" spublish)" = 4000 ] || fail "master $p ran $(cl_calls "$p" spublish)"
	done
}
tcase 'spublish on 3 masters: 2 x published, exactly, a third each' t_sharded

t_refused() {
	run_refused "--cluster runs sharded pub/sub: -t spublish" -h 127.0.0.1 -p "$P1" --cluster \
		-t publish --subscribers 2
	run_refused "--psubscribe: sharded pub/sub (-t spublish) has no patterns" -h 127.0.0.1 \
		-p "$P1" --cluster -t spublish --subscribers 2 --psubscribe
}
tcase '-t publish and --psubscribe on a cluster: refused' t_refused
tcase_done
