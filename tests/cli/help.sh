#!/bin/sh
# help.sh: rsweep --help (or -h), rsweep help [COMMAND] and rsweep COMMAND
# --help print usage on stdout and exit 0; --version prints configure's
# version; a bad command is a usage error (exit 2, message on stderr,
# nothing on stdout), with a suggestion for a mistyped option; the dry
# run's plan reads right.
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-help.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

# ok ARGS...: exit 0, something on stdout, nothing on stderr.
ok() {
	"$RSWEEP" "$@" >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" = 0 ] || fail "rsweep $* exited $st: $(cat "$T/err")"
	[ -s "$T/out" ] || fail "rsweep $* printed nothing on stdout"
	[ ! -s "$T/err" ] || fail "rsweep $* wrote to stderr: $(cat "$T/err")"
}

# usage_error ARGS...: exit 2, a message on stderr, nothing on stdout.
usage_error() {
	"$RSWEEP" "$@" >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" = 2 ] || fail "rsweep $* exited $st, wanted 2"
	[ -s "$T/err" ] || fail "rsweep $* said nothing on stderr"
	[ ! -s "$T/out" ] || fail "rsweep $* wrote to stdout: $(cat "$T/out")"
}

t_help() {
	ok --help
	grep -q '^Usage: rsweep' "$T/out" || fail "rsweep --help has no Usage line"
	cmds=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on { on = 0 }' "$T/out")
	[ -n "$cmds" ] || fail "rsweep --help lists no commands"
	for c in run plot report import; do
		echo "$cmds" | grep -qx "$c" || fail "rsweep --help does not list $c"
	done
	ok help
	# -h is --help at the top level (under run it is --host).
	cp "$T/out" "$T/help-top"
	ok -h
	cmp -s "$T/out" "$T/help-top" || fail "rsweep -h differs from rsweep help"

	for c in $cmds; do
		[ "$c" = help ] && continue
		ok help "$c"
		cp "$T/out" "$T/help-$c"
		grep -q "^Usage: rsweep $c" "$T/out" || fail "rsweep help $c has no Usage line"
		grep -q -- '--help' "$T/out" || fail "rsweep help $c does not list --help"
		ok "$c" --help
		cmp -s "$T/out" "$T/help-$c" || fail "rsweep $c --help differs from rsweep help $c"
		ok "$c" --version
	done
}
tcase '--help, -h and help COMMAND agree, for every command' t_help

# The version is configure's (PACKAGE_VERSION in the build's config.h).
t_version() {
	config_h=$(dirname "$(dirname "$RSWEEP")")/config.h
	version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$config_h")
	[ -n "$version" ] || fail "no PACKAGE_VERSION in $config_h"
	ok --version
	[ "$(cat "$T/out")" = "rsweep $version" ] || fail "rsweep --version says '$(cat "$T/out")', not 'rsweep $version'"
	ok run --version
	[ "$(cat "$T/out")" = "rsweep $version" ] || fail "rsweep run --version says '$(cat "$T/out")'"
}
tcase "--version is configure's version" t_version

t_usage() {
	usage_error
	usage_error frobnicate
	usage_error help frobnicate
	usage_error run --no-such-option
	grep -q "did you mean" "$T/err" && fail "a far-off option got a suggestion: $(cat "$T/err")"
	usage_error run --pipline 1..8
	grep -q "unknown option --pipline; did you mean --pipeline?" "$T/err" ||
		fail "no suggestion for --pipline: $(cat "$T/err")"
	usage_error report --fromat json a.csv
	grep -q "did you mean --format?" "$T/err" || fail "no suggestion for --fromat: $(cat "$T/err")"
	usage_error run -P 1-8 --dry-run
	grep -q "a range is written 1\.\.8" "$T/err" || fail "-P 1-8 suggests no 1..8: $(cat "$T/err")"
	# A mistyped command, as options are (issue 44).
	usage_error reprot a.csv
	grep -q "unknown command 'reprot'; did you mean report?" "$T/err" ||
		fail "no suggestion for reprot: $(cat "$T/err")"
	usage_error help rnu
	grep -q "help: unknown command 'rnu'; did you mean run?" "$T/err" ||
		fail "no suggestion for help rnu: $(cat "$T/err")"
	usage_error frobnicate
	grep -q "did you mean" "$T/err" && fail "a far-off command got a suggestion: $(cat "$T/err")"
}
tcase 'usage errors exit 2, with a suggestion when one is near' t_usage

# -q gives one line per point, as the man page says.
t_quiet() {
	tcase_needs '--help, -h and help COMMAND agree, for every command'
	grep -q -- "-q, --quiet .*one line per point" "$T/help-run" ||
		fail "run --help does not say -q prints one line per point"
}
tcase 'run --help says -q prints one line per point' t_quiet

# The dry run's plan counts in words that agree with the numbers.
t_plan() {
	ok run --dry-run -t get -P 1 --repeat 1
	grep -q "^plan: 1 point (1 test x 1 depth x 1 repeat)," "$T/out" || fail "$(head -1 "$T/out")"
	# The default: three repeats, in shuffled order (a point's interval needs them).
	ok run --dry-run -t get -P 1
	grep -q "^plan: 3 points (1 test x 1 depth x 3 repeats), 3 to run, order shuffled" "$T/out" ||
		fail "$(head -1 "$T/out")"
	ok run --dry-run -t get,set -P 1..3 --repeat 2
	grep -q "^plan: 12 points (2 tests x 3 depths x 2 repeats)," "$T/out" || fail "$(head -1 "$T/out")"
}
tcase "the dry run's plan counts in words that agree with the numbers" t_plan

# Each command's help lists its own options only: agent writes no file,
# and a default names what it is for that command.
t_agent() {
	ok agent --help
	! grep -q -- "--output" "$T/out" || fail "agent --help lists -o: $(grep -- --output "$T/out")"
	! grep -q "default: -h)" "$T/out" || fail "agent --help gives a default of -h, which agent has not"
}
tcase "agent --help lists agent's own options only" t_agent

# --knee means one thing for plot and report (knee.h): the smallest depth
# whose fitted level, not its median, reaches FRACTION of the peak.
t_knee() {
	tcase_needs '--help, -h and help COMMAND agree, for every command'
	grep -- "--knee" "$T/help-plot" >"$T/knee-plot"
	grep -- "--knee" "$T/help-report" >"$T/knee-report"
	cmp -s "$T/knee-plot" "$T/knee-report" || fail "plot and report differ: $(cat "$T/knee-plot" "$T/knee-report")"
	grep -q "smallest whose fitted level reaches FRACTION of the peak" "$T/knee-plot" ||
		fail "--knee does not say the fitted level: $(cat "$T/knee-plot")"
}
tcase "--knee: one definition, the fitted level's, in plot's and report's help" t_knee

tcase_done
