#!/bin/sh
# output_errors.sh: output that cannot go where it was sent.  A pipe whose
# reader went away (rsweep report | head) ends rsweep quietly with status
# 141, as SIGPIPE ends other tools; a full device is "FILE: No space left
# on device" (or "standard output: ..."), exit 1; a device or pipe given to
# -o is written in place, never renamed over (as root, that replaced the
# device node with a regular file and said nothing).
. "$RS_SRCDIR/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

# closed ARGS...: rsweep ARGS with standard output a pipe whose reader is
# gone before it starts (no race with a real head); prints the exit status,
# keeps stderr in $T/err.
closed() {
	python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
with open(sys.argv[1], "wb") as err:
    print(subprocess.run(sys.argv[2:], stdout=w, stderr=err).returncode)
' "$T/err" "$RSWEEP" "$@"
}

# quiet_141 ARGS...: with a closed pipe, ARGS exit 141 and say nothing.
quiet_141() {
	st=$(closed "$@")
	[ "$st" = 141 ] || fail "'$*' into a closed pipe exited $st, wanted 141: $(cat "$T/err")"
	[ ! -s "$T/err" ] || fail "'$*' into a closed pipe said: $(cat "$T/err")"
}

# says STATUS MESSAGE ARGS...: ARGS exit STATUS with the one line MESSAGE.
says() {
	want=$1
	msg=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, wanted $want: $(cat "$T/err")"
	[ "$(cat "$T/err")" = "$msg" ] || fail "'$*' said '$(cat "$T/err")', not '$msg'"
}

H=label,test,pipeline,repeat,rps
{
	echo "$H"
	for d in 1 2 4 8; do
		echo "m1,GET,$d,1,$((d * 100000))"
		echo "m2,GET,$d,1,$((d * 90000))"
	done
} >"$T/small.csv"
# A report larger than stdio's buffer fails while it is being written.
{
	echo "$H"
	for t in $(seq 1 40); do
		for d in 1 2 4 8; do
			echo "a,T$t,$d,1,$((d * 1000 + t))"
			echo "b,T$t,$d,1,$((d * 900 + t))"
		done
	done
} >"$T/big.csv"
"$RSWEEP" report "$T/big.csv" >"$T/big.txt" || fail "report of big.csv failed"
[ "$(wc -c <"$T/big.txt")" -gt 16384 ] || fail "the big report is not big"
printf 'SET: 12345.67 requests per second\nGET: 23456.00 requests per second\n' >"$T/q.txt"

# A private /dev/full and /dev/null when mknod is allowed, so that a
# regression renames over those, not the system's.
FULL=$T/full
NULL=$T/null
if ! mknod "$FULL" c 1 7 2>/dev/null || ! mknod "$NULL" c 1 3 2>/dev/null; then
	FULL=/dev/full
	NULL=/dev/null
fi

# ---- a reader that went away ----
t_closed() {
	for args in "--help" "-h" "help run" "run --help" "--version" "report $T/small.csv" \
		"report $T/big.csv" "report --format json $T/big.csv" "report -o - $T/small.csv" \
		"import -q $T/q.txt"; do
		# shellcheck disable=SC2086
		quiet_141 $args
	done
	# Bad input still says so, with its own status.
	st=$(closed report "$T/missing.csv")
	[ "$st" = 2 ] || fail "report of a missing file into a closed pipe exited $st"
	grep -q "missing.csv" "$T/err" || fail "report of a missing file said: $(cat "$T/err")"
	# A real head: however the race goes, nothing on stderr.
	for args in "--help" "report $T/big.csv"; do
		# shellcheck disable=SC2086
		{ "$RSWEEP" $args 2>"$T/err"; echo $? >"$T/st"; } | head -1 >/dev/null
		case $(cat "$T/st") in 0 | 141) ;; *) fail "rsweep $args | head -1 exited $(cat "$T/st")" ;; esac
		[ ! -s "$T/err" ] || fail "rsweep $args | head -1 said: $(cat "$T/err")"
	done
}
tcase 'a closed pipe ends rsweep quietly with 141' t_closed

# A sweep still runs to its end, its rows in the CSV.
t_sweep_closed() {
	start_redis
	st=$(closed run -s "$SOCK" -t get,set -P 1..3 -n 200 -c 2 --repeat 1 -q -o "$T/run.csv")
	[ "$st" = 141 ] || fail "run into a closed pipe exited $st, wanted 141: $(cat "$T/err")"
	# Its summary goes to stderr as ever; nothing about standard output.
	grep -q "standard output\|cannot write" "$T/err" && fail "run into a closed pipe said: $(cat "$T/err")"
	[ "$(rows "$T/run.csv")" = 6 ] || fail "run into a closed pipe left $(rows "$T/run.csv") rows, not 6"
	st=$(closed run -s "$SOCK" -P 0)
	[ "$st" = 2 ] && grep -q "depth 0" "$T/err" || fail "bad -P into a closed pipe: $st $(cat "$T/err")"
	stop_redis
}
tcase 'a sweep into a closed pipe runs to its end' t_sweep_closed

# ---- a full device ----
t_full() {
	[ -c "$FULL" ] || tcase_skip "no /dev/full"
	says 1 "rsweep: standard output: No space left on device" sh -c '"$1" --help >"$2"' - "$RSWEEP" "$FULL"
	says 1 "rsweep report: standard output: No space left on device" \
		sh -c '"$1" report "$2" >"$3"' - "$RSWEEP" "$T/small.csv" "$FULL"
	says 1 "rsweep report: standard output: No space left on device" \
		sh -c '"$1" report "$2" >"$3"' - "$RSWEEP" "$T/big.csv" "$FULL"
	says 1 "rsweep report: cannot write $FULL: No space left on device" \
		"$RSWEEP" report "$T/small.csv" -o "$FULL"
	says 1 "rsweep report: $FULL: No space left on device" "$RSWEEP" report "$T/big.csv" -o "$FULL"
	says 1 "rsweep import: cannot write $FULL: No space left on device" \
		"$RSWEEP" import -q "$T/q.txt" -o "$FULL"
	# plot wants a .png or .pdf name: a link to the device has one.
	ln -s "$FULL" "$T/full.png"
	ln -s "$FULL" "$T/full.pdf"
	says 1 "rsweep plot: $T/full.png: No space left on device" \
		"$RSWEEP" plot "$T/small.csv" -o "$T/full.png"
	says 1 "rsweep plot: cannot write $T/full.pdf: No space left on device" \
		"$RSWEEP" plot "$T/small.csv" -o "$T/full.pdf"
	[ -c "$FULL" ] || fail "$FULL is no longer a device"
	[ -L "$T/full.png" ] && [ -L "$T/full.pdf" ] || fail "a link to $FULL was replaced"
}
tcase 'a full device says so, exit 1, and stays a device' t_full

# ---- devices, pipes and links written in place ----
t_in_place() {
	ln -s "$NULL" "$T/null.png"
	ln -s "$NULL" "$T/null.pdf"
	for o in "$T/null.png" "$T/null.pdf"; do
		"$RSWEEP" plot "$T/small.csv" -o "$o" 2>"$T/err" || fail "plot -o $o: $(cat "$T/err")"
	done
	"$RSWEEP" report "$T/small.csv" -o "$NULL" 2>"$T/err" || fail "report -o $NULL: $(cat "$T/err")"
	[ -c "$NULL" ] || fail "$NULL is no longer a device"
	ls -a "$T" "$(dirname "$NULL")" | grep -q '^\.null\.' && fail "a temporary file was left"
	mkfifo "$T/fifo.pdf"
	cat "$T/fifo.pdf" >"$T/from-fifo.pdf" &
	reader=$!
	"$RSWEEP" plot "$T/small.csv" -o "$T/fifo.pdf" 2>"$T/err"
	st=$?
	if [ "$st" != 0 ] || [ ! -p "$T/fifo.pdf" ]; then
		kill "$reader" 2>/dev/null # it would wait for a writer forever
		fail "plot -o fifo.pdf exited $st ($(cat "$T/err")), or replaced the FIFO"
	fi
	wait "$reader"
	head -c 5 "$T/from-fifo.pdf" | grep -q '^%PDF-' || fail "no PDF came through the FIFO"
	# Through a link to a regular file: the file is replaced, the link stays.
	: >"$T/real.txt"
	ln -s real.txt "$T/link.txt"
	"$RSWEEP" report "$T/small.csv" -o "$T/link.txt" || fail "report -o link.txt"
	[ -L "$T/link.txt" ] || fail "link.txt is no longer a link"
	grep -q "m2" "$T/real.txt" || fail "the report did not reach real.txt"
}
tcase 'devices, pipes and links are written in place' t_in_place

tcase_done
