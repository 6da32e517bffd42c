# tcase.sh: named cases for rsweep's end-to-end scripts (sourced, not run;
# lib.sh sources it, and so may a script that needs no redis-server), after
# git's t/test-lib.sh.  A script says
#
#	t_resume() {
#		...checks that call fail...
#	}
#	tcase 'resume after kill -9 keeps every row' t_resume
#	...
#	tcase_done
#
# Each case runs in a subshell, so that fail (exit) ends the case and not
# the script: the failure is reported with the script, the case and the
# message, and the script goes on with the next case.  The price is that a
# case's variables, traps and background jobs end with it: what several
# cases share is set up at the top level, and a case waits for what it
# starts.  tcase_done ends the script with a summary naming every failed
# case, exit 1 if any failed.  fail outside a case keeps its old meaning:
# the script stops there, exit 1.  77 stays "skip".

TCASE_SCRIPT=${0##*/}
TCASE_N=0
TCASE_NAME=
# Case names, one a line: those that passed, failed, and were skipped.
TCASE_PASSED=
TCASE_FAILED=
TCASE_SKIPPED=
TCASE_DONE=
# Functions (names, blank-separated) run inside a case's subshell as it
# begins and as it ends, passed, failed or skipped: lib.sh adds its own to
# stop a server the case started, which the script's cleanup does not know.
TCASE_ENTER=
TCASE_LEAVE=
TCASE_NL='
'

fail() {
	if [ -n "$TCASE_NAME" ]; then
		echo "FAIL: $TCASE_SCRIPT: '$TCASE_NAME': $*" >&2
	else
		echo "FAIL: $*" >&2
	fi
	exit 1
}

# tcase_in LIST NAME: whether NAME is a line of LIST.
tcase_in() {
	tcase_rest=$1
	while [ -n "$tcase_rest" ]; do
		[ "${tcase_rest%%"$TCASE_NL"*}" = "$2" ] && return 0
		tcase_rest=${tcase_rest#*"$TCASE_NL"}
	done
	return 1
}

# tcase NAME FN [ARGS...]: run FN ARGS as the case NAME.  It fails if FN
# calls fail or exits non-zero, and is skipped if it calls tcase_skip or
# tcase_needs a case that did not pass.  What FN returns counts for
# nothing, as a command's status at a script's top level did not: a body
# moved into a case whose last command is `wait "$killed"` still passes.
tcase() {
	tcase_name=$1
	shift
	TCASE_N=$((TCASE_N + 1))
	if tcase_in "$TCASE_PASSED$TCASE_FAILED$TCASE_SKIPPED" "$tcase_name"; then
		fail "$TCASE_SCRIPT: two cases are named '$tcase_name'"
	fi
	(
		TCASE_NAME=$tcase_name
		trap 'tcase_st=$?; for tcase_h in $TCASE_LEAVE; do $tcase_h; done; exit $tcase_st' EXIT
		for tcase_h in $TCASE_ENTER; do $tcase_h; done
		"$@"
		exit 0
	)
	tcase_st=$?
	case $tcase_st in
	0)
		echo "ok $TCASE_N - $tcase_name"
		TCASE_PASSED=$TCASE_PASSED$tcase_name$TCASE_NL
		;;
	77)
		echo "skip $TCASE_N - $tcase_name"
		TCASE_SKIPPED=$TCASE_SKIPPED$tcase_name$TCASE_NL
		;;
	*)
		echo "not ok $TCASE_N - $tcase_name (status $tcase_st)"
		TCASE_FAILED=$TCASE_FAILED$tcase_name$TCASE_NL
		;;
	esac
	return 0
}

# tcase_skip WHY: inside a case, skip the rest of it, saying why.
tcase_skip() {
	echo "SKIP: $TCASE_SCRIPT: '$TCASE_NAME': $*" >&2
	exit 77
}

# tcase_needs NAME: inside a case, skip it unless the earlier case NAME
# passed (it leaves state this one starts from).  A NAME no case had is a
# mistake in the script, and fails.
tcase_needs() {
	tcase_in "$TCASE_PASSED" "$1" && return 0
	tcase_in "$TCASE_FAILED$TCASE_SKIPPED" "$1" ||
		fail "tcase_needs '$1': no earlier case has that name"
	tcase_skip "needs '$1', which did not pass"
}

# tcase_list LIST: the lines of LIST, quoted, in one line.
tcase_list() {
	tcase_rest=$1
	tcase_out=
	while [ -n "$tcase_rest" ]; do
		tcase_out="$tcase_out${tcase_out:+, }'${tcase_rest%%"$TCASE_NL"*}'"
		tcase_rest=${tcase_rest#*"$TCASE_NL"}
	done
	echo "$tcase_out"
}

# tcase_summary: one line naming the cases that failed and were skipped.
tcase_summary() {
	tcase_nf=$(printf '%s' "$TCASE_FAILED" | grep -c '^')
	tcase_ns=$(printf '%s' "$TCASE_SKIPPED" | grep -c '^')
	tcase_line="$TCASE_SCRIPT: $TCASE_N cases, $tcase_nf failed"
	[ "$tcase_nf" = 0 ] || tcase_line="$tcase_line ($(tcase_list "$TCASE_FAILED"))"
	[ "$tcase_ns" = 0 ] || tcase_line="$tcase_line, $tcase_ns skipped ($(tcase_list "$TCASE_SKIPPED"))"
	echo "$tcase_line" >&2
}

# tcase_done: the summary, then exit: 1 if a case failed, else 0.
tcase_done() {
	TCASE_DONE=yes
	tcase_summary
	[ -z "$TCASE_FAILED" ] || exit 1
	exit 0
}

# tcase_atexit STATUS: for the script's EXIT trap, after its cleanup.  A
# script that stops before tcase_done (a fail outside a case, an exit 77
# half-way) still names the cases that failed so far, and never exits 0 or
# 77 over them; one that ran cases and reached its end without tcase_done
# has lost its verdict, and fails.
tcase_atexit() {
	[ "$TCASE_N" -gt 0 ] && [ -z "$TCASE_DONE" ] || return 0
	tcase_summary
	if [ -n "$TCASE_FAILED" ]; then
		exit 1
	elif [ "$1" = 0 ]; then
		echo "FAIL: $TCASE_SCRIPT ended without tcase_done" >&2
		exit 1
	fi
}
