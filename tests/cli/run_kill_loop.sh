#!/bin/sh
# kill -9 of rsweep itself at random moments, each followed by --resume:
# every results file ends with each planned point exactly once, the header
# once, no torn line.  RS_KILL_LOOPS sets the number of kills (50 here; run
# more by hand), RS_KILL_SEED the delays (printed, to replay a failure).
# A run that completes its file before the kill starts the next file.  As a
# kill rarely lands inside a write, one kill in four also cuts 1 to 80 bytes
# off the file's end, as a write torn by a crash would leave it.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

loops=${RS_KILL_LOOPS:-50}
seed=${RS_KILL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
depths=16
points=$((2 * depths))
# The server is this test's own: --force-flush lets a run flush what the
# killed one left in it.
start_redis
args="-s $SOCK --force-flush -t get,set -P 1..$depths -n 2000 -c 5 --repeat 1 -l k -q --resume"

# check_round FILE: the whole plan, once each, in whole lines under one header.
check_round() {
	check_csv "$1"
	[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || fail "$1 ends in a torn line (seed $seed)"
	[ "$(grep -c '^label,test,pipeline,' "$1")" = 1 ] || fail "$1: the header is not there once (seed $seed)"
	head -1 "$1" | grep -q '^label,test,pipeline,' || fail "$1 does not start with the header"
	awk -F, -v d="$depths" 'NR > 1 { seen[$1 "," $2 "," $3 "," $6]++ }
		END {
			for (p = 1; p <= d; p++)
				for (t = 0; t < 2; t++) {
					k = "k," (t ? "SET" : "GET") "," p ",1"
					if (seen[k] != 1) { print k ": " seen[k] + 0 " times"; bad = 1 }
					delete seen[k]
				}
			for (k in seen) { print "unplanned " k; bad = 1 }
			exit bad
		}' "$1" || fail "$1 does not hold the plan once (seed $seed)"
}

t_kill_loop() {
	round=1
	kills=0
	torn=0
	cuts=0
	i=0
	# Delays of 0 to 300 ms; runs that finish first do not count as kills, so
	# there are more delays than kills (bounded: 4 a kill).
	for dc in $(awk -v n="$((4 * loops))" -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < n; i++)
		printf "%.3f:%d\n", rand() * 0.3, rand() < 0.25 ? 1 + int(rand() * 80) : 0 }'); do
		[ "$kills" -lt "$loops" ] || break
		d=${dc%:*}
		cut=${dc#*:}
		i=$((i + 1))
		"$RSWEEP" run $args -o "$T/k$round.csv" >/dev/null 2>"$T/err" &
		pid=$!
		sleep "$d"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		st=$?
		case $st in
		137) kills=$((kills + 1))
			f=$T/k$round.csv
			# Killed inside a write: the next --resume has half a row to cut.
			[ ! -s "$f" ] || [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || torn=$((torn + 1))
			# A torn write, made here; never into the header.
			if [ "$cut" -gt 0 ] && [ -s "$f" ] &&
			   [ "$(($(wc -c <"$f") - $(head -1 "$f" | wc -c)))" -gt "$cut" ]; then
				truncate -s "-$cut" "$f"
				cuts=$((cuts + 1))
			fi ;;
		0) # It finished first: this round's file is complete; start another.
			check_round "$T/k$round.csv"
			round=$((round + 1)) ;;
		*) fail "run $i (seed $seed) exited $st: $(cat "$T/err")" ;;
		esac
	done
	[ "$kills" = "$loops" ] || fail "only $kills of $i runs were killed mid-run (seed $seed)"
	expect_status 0 "$RSWEEP" run $args -o "$T/k$round.csv"
	for r in $(seq 1 "$round"); do
		check_round "$T/k$r.csv"
		[ "$(rows "$T/k$r.csv")" = "$points" ] || fail "k$r.csv: $(rows "$T/k$r.csv") rows"
	done
	echo "ok: $i runs, $kills killed mid-run ($torn inside a write), $cuts ends cut off, $round files of $points points each (seed $seed)"
}
tcase 'kill -9 at random moments, then --resume: every file holds the plan once, in whole lines' t_kill_loop

tcase_done
