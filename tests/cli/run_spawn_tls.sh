#!/bin/sh
# spawn+tls: and --spawn --spawn-tls from the command line: the options
# that go together and those that do not, the plan, and a real start of
# the private TLS server with its throwaway certificate, swept over TLS
# with verification on: the rows name the target, the server's calls
# equal the requests, and certificate, key and directory are gone again
# when rsweep exits.  tests/test_spawn_tls checks the server itself with
# redis-cli --tls.  No timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# The options: --spawn-tls with --spawn only, never beside --spawn-tcp.
t_options() {
	expect_status 2 "$RSWEEP" run --spawn-tls -t get -n 10 --dry-run
	grep -q -- "--spawn-tls goes with --spawn" "$T/err" || fail "no --spawn: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --spawn --spawn-tcp --spawn-tls -t get -n 10 --dry-run
	grep -q "exclude each other" "$T/err" || fail "--spawn-tcp --spawn-tls: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --spawn --tls -t get -n 10 --dry-run
	grep -q -- "say --spawn-tls" "$T/err" || fail "--spawn --tls: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --spawn-tls --target a=spawn+tls: -t get -n 10 --dry-run
	grep -q "a target says spawn+tls:" "$T/err" || fail "with --target: $(cat "$T/err")"
	expect_status 2 "$RSWEEP" run --target a=spawn+tlsx -t get -n 10 --dry-run
	grep -q "spawn+tls:\[PATH\]" "$T/err" || fail "a bad scheme: $(cat "$T/err")"
}
tcase '--spawn-tls goes with --spawn only, never beside --spawn-tcp or --tls' t_options

# The plan names it as given.
t_plan() {
	expect_status 0 "$RSWEEP" run --target tls=spawn+tls: --target unix=spawn: -t get -P 1,16 \
		-n 10 --dry-run
	grep -qx "target: tls = spawn+tls:" "$T/out" || fail "plan: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" run --spawn --spawn-tls -t get -n 10 --dry-run
}
tcase 'the plan names spawn+tls: as given' t_plan

# A real start, in a TMPDIR of the test's own to see what is left behind.
mkdir -m 700 "$T/tmp"
# t_real HOW: a sweep over TLS of the server HOW (two words) spawns.
t_real() {
	how=$1
	# shellcheck disable=SC2086 # $how is two words on purpose
	rm -f "$T/tls.csv" "$T/tls.csv.hist"
	TMPDIR=$T/tmp expect_status 0 "$RSWEEP" run $how -t get -P 1,16 -n 2000 --repeat 1 -v \
		-o "$T/tls.csv"
	ca=$(sed -n 's/.*TLS on 127\.0\.0\.1:[0-9]*, trusting \(.*\)$/\1/p' "$T/err")
	[ -n "$ca" ] || fail "$how: no TLS server started: $(cat "$T/err")"
	case $ca in "$T"/tmp/rsweep-*/cert.pem) ;; *) fail "$how: the CA file is $ca" ;; esac
	check_csv "$T/tls.csv"
	[ "$(rows "$T/tls.csv")" = 2 ] || fail "$how: $(rows "$T/tls.csv") rows, wanted 2"
	case $how in
	--target*) want='spawn+tls:/[^,]*redis-server' ;;
	*) want='spawned redis-server (TLS 127.0.0.1)' ;;
	esac
	n=$(grep -c "$want" "$T/tls.csv")
	[ "$n" = 2 ] || fail "$how: the rows do not name the target as $want: $(cat "$T/tls.csv")"
	# Each row's requests are the server's calls: every one went over TLS.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != 2000 || $c["server_calls"] != 2000 { bad = 1 } END { exit bad }' \
		"$T/tls.csv" || fail "$how: requests and server calls differ: $(cat "$T/tls.csv")"
	# Certificate, key and directory went with the server.
	[ ! -e "$ca" ] || fail "$how: $ca outlived its server"
	[ -z "$(ls -A "$T/tmp")" ] || fail "$how: left behind: $(ls -A "$T/tmp")"
}
tcase "a real start as --target spawn+tls:, nothing left behind" t_real "--target tls=spawn+tls:$REDIS_SERVER"
tcase "a real start as --spawn --spawn-tls, nothing left behind" t_real "--spawn=$REDIS_SERVER --spawn-tls"

tcase_done
