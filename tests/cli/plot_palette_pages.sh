#!/bin/sh
# rsweep plot past the palette and on paper: 11 tests x 2 labels (more
# tests than colours) draw as small multiples, as two do with --kind
# multiples, 8 labels (more than
# colours) are refused with one line of advice and exit 2, and a PDF's
# pages are A4 whatever --size says (MediaBox read from the file's bytes:
# pdfinfo may not be installed).
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-plotpal.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

H=label,test,pipeline,repeat,rps
{
	echo "$H"
	for l in unix tcp; do
		for t in LRANGE_100 SADD INCR GET SET LPOP MSET ZADD HSET RPUSH SPOP; do
			for d in 1 2 4 8 16; do
				echo "$l,$t,$d,1,$((d * 100000 + ${#t} * 1000))"
			done
		done
	done
} >"$T/eleven.csv"
{
	echo "$H"
	for l in a b c d e f g h; do
		for d in 1 2 4; do
			echo "$l,GET,$d,1,$((d * 100000))"
		done
	done
} >"$T/eight.csv"

t_eleven() {
	"$RSWEEP" plot "$T/eleven.csv" -o "$T/eleven.png" 2>"$T/err" ||
		fail "11 tests x 2 labels: $(cat "$T/err")"
	[ -s "$T/eleven.png" ] || fail "no chart of 11 tests"
}
tcase '11 tests x 2 labels draw as small multiples' t_eleven

t_eight() {
	"$RSWEEP" plot "$T/eight.csv" -o "$T/eight.png" 2>"$T/err"
	got=$?
	[ "$got" = 2 ] || fail "8 labels exited $got, wanted 2: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "8 labels: not one line: $(cat "$T/err")"
	grep -q "8 labels but the palette has 7 colours" "$T/err" ||
		fail "8 labels: '$(cat "$T/err")'"
	[ ! -e "$T/eight.png" ] || fail "8 labels: a chart was written"
}
tcase '8 labels are refused with one line of advice' t_eight

# --kind multiples: small multiples when asked, for two tests too; in a
# plot file's panel as well; more labels than colours refused alike.
t_multiples() {
	"$RSWEEP" plot --kind multiples -t get,set "$T/eleven.csv" -o "$T/m.png" 2>"$T/err" ||
		fail "--kind multiples: $(cat "$T/err")"
	[ -s "$T/m.png" ] || fail "no chart of --kind multiples"
	printf '[Two]\ntests = get,set\nkind = multiples\n' >"$T/m.plot"
	"$RSWEEP" plot --plot "$T/m.plot" "$T/eleven.csv" -o "$T/m.pdf" 2>"$T/err" ||
		fail "a multiples panel: $(cat "$T/err")"
	"$RSWEEP" plot --kind multiples "$T/eight.csv" -o "$T/m8.png" 2>"$T/err"
	[ $? = 2 ] && grep -q "8 labels but the palette has 7 colours" "$T/err" ||
		fail "8 labels as multiples: '$(cat "$T/err")'"
}
tcase '--kind multiples draws small multiples of two tests' t_multiples

t_a4() {
	for size in 1200x800 400x300 600x900; do
		"$RSWEEP" plot --size "$size" -t get,set "$T/eleven.csv" -o "$T/p.pdf" 2>"$T/err" ||
			fail "PDF at --size $size: $(cat "$T/err")"
		case $size in
		600x900) want='/MediaBox [ 0 0 595.276 841.89001 ]' ;;
		*) want='/MediaBox [ 0 0 841.89001 595.276 ]' ;;
		esac
		grep -a -F -q "$want" "$T/p.pdf" ||
			fail "--size $size: $(grep -a -o '/MediaBox[^]]*]' "$T/p.pdf"), wanted $want"
	done
}
tcase "a PDF's pages are A4 whatever --size says" t_a4

tcase_done
