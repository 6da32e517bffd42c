#!/bin/sh
# output_errors.sh: output that cannot go where it was sent.  A full
# device is "FILE: No space left on device", exit 1; a device or pipe given
# to -o is written in place, never renamed over (as root, that replaced the
# device node with a regular file and said nothing).
. "$RS_SRCDIR/tests/cli/lib.sh"

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

# ---- a full device ----
# A private /dev/full when mknod is allowed, so that a regression renames
# over that one, not the system's.
FULL=$T/full
NULL=$T/null
if ! mknod "$FULL" c 1 7 2>/dev/null || ! mknod "$NULL" c 1 3 2>/dev/null; then
	FULL=/dev/full
	NULL=/dev/null
fi
[ -c "$FULL" ] || { echo "SKIP: no /dev/full"; exit 77; }
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

# ---- devices, pipes and links written in place ----
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
echo ok
