#!/bin/sh
# spawn+tls: and --spawn --spawn-tls from the command line: the options
# that go together and those that do not, the plan, and a real start of
# the private TLS server with its throwaway certificate, which is gone
# again when rsweep exits.  rsweep has no TLS client yet (issue 16's
# connection room), so the run is refused after the server started, with
# exit status 2 and a line naming the target; tests/test_spawn_tls checks
# the server itself with redis-cli --tls.  No timing is asserted.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# The options: --spawn-tls with --spawn only, never beside --spawn-tcp.
expect_status 2 "$RSWEEP" run --spawn-tls -t get -n 10 --dry-run
grep -q -- "--spawn-tls goes with --spawn" "$T/err" || fail "no --spawn: $(cat "$T/err")"
expect_status 2 "$RSWEEP" run --spawn --spawn-tcp --spawn-tls -t get -n 10 --dry-run
grep -q "exclude each other" "$T/err" || fail "--spawn-tcp --spawn-tls: $(cat "$T/err")"
expect_status 2 "$RSWEEP" run --spawn-tls --target a=spawn+tls: -t get -n 10 --dry-run
grep -q "a target says spawn+tls:" "$T/err" || fail "with --target: $(cat "$T/err")"
expect_status 2 "$RSWEEP" run --target a=spawn+tlsx -t get -n 10 --dry-run
grep -q "spawn+tls:\[PATH\]" "$T/err" || fail "a bad scheme: $(cat "$T/err")"

# The plan names it as given.
expect_status 0 "$RSWEEP" run --target tls=spawn+tls: --target unix=spawn: -t get -P 1,16 \
	-n 10 --dry-run
grep -qx "target: tls = spawn+tls:" "$T/out" || fail "plan: $(cat "$T/out")"
expect_status 0 "$RSWEEP" run --spawn --spawn-tls -t get -n 10 --dry-run

# A real start, in a TMPDIR of the test's own to see what is left behind.
mkdir -m 700 "$T/tmp"
for how in "--target tls=spawn+tls:$REDIS_SERVER" "--spawn=$REDIS_SERVER --spawn-tls"; do
	# shellcheck disable=SC2086 # $how is two words on purpose
	TMPDIR=$T/tmp expect_status 2 "$RSWEEP" run $how -t get -P 1 -n 100 -v -o "$T/tls.csv"
	ca=$(sed -n 's/.*TLS on 127\.0\.0\.1:[0-9]*, trusting \(.*\)$/\1/p' "$T/err")
	[ -n "$ca" ] || fail "$how: no TLS server started: $(cat "$T/err")"
	case $ca in "$T"/tmp/rsweep-*/cert.pem) ;; *) fail "$how: the CA file is $ca" ;; esac
	grep -q "127\.0\.0\.1:[0-9]*: this rsweep has no TLS client yet" "$T/err" ||
		fail "$how: $(cat "$T/err")"
	case $how in
	--target*) grep -q "target 'tls': spawn+tls:/.*redis-server on 127" "$T/err" ||
		fail "the target is not named as its rows would: $(cat "$T/err")" ;;
	*) grep -q "spawned redis-server (TLS 127.0.0.1) on 127" "$T/err" ||
		fail "--spawn --spawn-tls is not named as its rows would: $(cat "$T/err")" ;;
	esac
	# Certificate, key and directory went with the server; nothing measured.
	[ ! -e "$ca" ] || fail "$how: $ca outlived its server"
	[ -z "$(ls -A "$T/tmp")" ] || fail "$how: left behind: $(ls -A "$T/tmp")"
	[ ! -s "$T/tls.csv" ] || fail "$how: rows written: $(cat "$T/tls.csv")"
done
exit 0
