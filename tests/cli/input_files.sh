#!/bin/sh
# input_files.sh: every file a user names as input is read only if it is a
# regular file.  A FIFO blocked report --latency-budget and plot --kind
# latency (as FILE.csv.hist), --sweep, --plot, --font and --cacert for ever
# (and --cert, --key, --agents-key are held to the same rule, before any
# connection);
# /dev/zero as a CSV or sidecar was read to 1 GB before its size limit.
# Each is refused at once with one line naming the file, exit 2.  timeout(1)
# turns a hang back into a failure here.  Standard input ("-") still reads.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-inputs.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

# bad MESSAGE CMD ARGS...: rsweep CMD ARGS exits 2 within 20 s with one
# line saying MESSAGE.
bad() {
	msg=$1
	shift
	timeout 20 "$RSWEEP" "$@" >"$T/out" 2>"$T/err" </dev/null
	got=$?
	[ "$got" = 2 ] || fail "'$*' exited $got, wanted 2: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': message is not one line: $(cat "$T/err")"
	grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
}

printf 'label,test,pipeline,rps\nx,GET,1,1000\nx,GET,2,1900\n' >"$T/r.csv"
mkfifo "$T/fifo" "$T/r.csv.hist"

t_fifo_data() {
	bad "r.csv.hist: a FIFO, not a regular file" report "$T/r.csv" --latency-budget 1ms
	bad "r.csv.hist: a FIFO, not a regular file" plot --kind latency "$T/r.csv" -o "$T/l.png"
	bad "fifo: a FIFO, not a regular file" report "$T/fifo"
	bad "fifo: a FIFO, not a regular file" plot "$T/fifo" -o "$T/p.png"
	bad "fifo: a FIFO, not a regular file" import "$T/fifo" -o "$T/i.csv"
	bad "fifo: a FIFO, not a regular file" run --sweep "$T/fifo" -s "$T/none.sock" -o "$T/s.csv"
	bad "fifo: a FIFO, not a regular file" plot --plot "$T/fifo" "$T/r.csv" -o "$T/p.png"
	bad -- "--font $T/fifo: a FIFO, not a regular file" plot --font "$T/fifo" "$T/r.csv" -o "$T/p.png"
}
tcase 'a FIFO as a CSV, its sidecar, a sweep file, --plot or --font is refused' t_fifo_data

t_fifo_keys() {
	bad -- "--cacert $T/fifo: a FIFO, not a regular file" run --target "rediss://127.0.0.1:1" \
		--cacert "$T/fifo" -t get -P 1 -n 10 -o "$T/t.csv"
	bad -- "--cert $T/fifo: a FIFO, not a regular file" run --target "t=rediss://127.0.0.1:1" \
		--cert "$T/fifo" -t get -P 1 -n 10 -o "$T/t.csv"
	bad -- "--key $T/fifo: a FIFO, not a regular file" run --target "t=rediss://127.0.0.1:1" \
		--cert "$T/r.csv" --key "$T/fifo" -t get -P 1 -n 10 -o "$T/t.csv"
	bad -- "--cacertdir $T/r.csv: not a directory" run --target "t=rediss://127.0.0.1:1" \
		--cacertdir "$T/r.csv" -t get -P 1 -n 10 -o "$T/t.csv"
	bad -- "--cert $T/fifo: a FIFO, not a regular file" agent --control "unix://$T/none.sock" \
		--agents-key "$T/r.csv" --id a1 --allow-target "unix://$T/none.sock" --cert "$T/fifo"
	bad -- "--agents-key: $T/fifo: a FIFO, not a regular file" agent --control "unix://$T/none.sock" \
		--agents-key "$T/fifo" --id a1 --allow-target "unix://$T/none.sock"
	bad -- "--agents-key: $T/fifo: a FIFO, not a regular file" run --control "unix://$T/none.sock" \
		--agents-key "$T/fifo" --agents 1 -s "$T/none.sock" -t get -o "$T/t.csv"
}
tcase 'a FIFO as --cacert, --cert, --key or --agents-key is refused, a file as --cacertdir' t_fifo_keys

# Devices: refused before a byte is read, not after a gigabyte.
t_devices() {
	bad "/dev/zero: a device, not a regular file" report /dev/zero
	bad "/dev/urandom: a device, not a regular file" plot /dev/urandom -o "$T/p.png"
	rm -f "$T/r.csv.hist"
	ln -s /dev/zero "$T/r.csv.hist"
	bad "r.csv.hist: a device, not a regular file" report "$T/r.csv" --latency-budget 1ms
	bad "$T: a directory, not a regular file" report "$T"
}
tcase 'a device or a directory is refused before a byte is read' t_devices

# From standard input, or a regular file of binary: the read stops at the
# first NUL, not at the 1 GB limit.
t_nul() {
	for src in /dev/zero /dev/urandom; do
		timeout 20 "$RSWEEP" report - <"$src" >"$T/out" 2>"$T/err"
		st=$?
		[ "$st" = 2 ] || fail "report - <$src: exit $st: $(cat "$T/err")"
		grep -q "^rsweep report: -:[0-9]*: a NUL byte: not a text file$" "$T/err" ||
			fail "report - <$src: $(cat "$T/err")"
	done
	{ cat "$T/r.csv"; head -c 100000 /dev/zero; } >"$T/bin.csv"
	bad "bin.csv:4: a NUL byte: not a text file" report "$T/bin.csv"
	bad "bin.csv:4: a NUL byte: not a text file" plot "$T/bin.csv" -o "$T/p.png"
}
tcase 'binary input stops at the first NUL byte' t_nul

# Standard input is still read, and a missing sidecar is still no sidecar.
t_stdin() {
	rm -f "$T/r.csv.hist"
	timeout 20 "$RSWEEP" report - <"$T/r.csv" >"$T/out" 2>"$T/err" || fail "report -: $(cat "$T/err")"
	timeout 20 "$RSWEEP" report "$T/r.csv" >"$T/out" 2>"$T/err" || fail "report: $(cat "$T/err")"
}
tcase 'standard input is still read, a missing sidecar still no sidecar' t_stdin

tcase_done
