#!/bin/sh
# tcase_self.sh: the named cases of tcase.sh on small scripts of their own:
# a failed case is reported with the script, the case and the message, the
# next case runs, the summary names every failed and skipped case, and the
# exit status is 1 if a case failed (0 if none did, 77 stays skip); a case
# needing one that failed is skipped; a case's last status counts for
# nothing, as at a script's top level; fail outside a case still stops the
# script; a script that forgets tcase_done fails.  Needs no redis-server.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-tcase.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"
LIB=${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh
case $LIB in /*) ;; *) LIB=$PWD/$LIB ;; esac

# script NAME BODY: $T/NAME.sh sourcing tcase.sh and setting the EXIT
# trap lib.sh sets, then BODY.
script() {
	printf '. "%s"\ntrap '"'"'tcase_atexit $?'"'"' EXIT\n%s\n' "$LIB" "$2" >"$T/$1.sh"
}
# runs NAME WANT: run $T/NAME.sh; its exit status is WANT; stdout and
# stderr in $T/out and $T/err.
runs() {
	(cd "$T" && sh "$1.sh" >out 2>err)
	got=$?
	[ "$got" = "$2" ] || fail "$1.sh exited $got, wanted $2: $(cat "$T/err")"
}
# says FILE LINE: FILE has the whole line LINE.
says() {
	grep -qxF -- "$2" "$T/$1" || fail "no line '$2' in $1: $(cat "$T/$1")"
}

t_carry_on() {
	script mixed '
a() { :; }
b() { fail "b broke"; echo "b went on after fail"; }
c() { exit 3; }
g() { false; }
d() { tcase_needs "b fails"; echo "d ran"; }
e() { tcase_needs "a passes"; X=1; echo "e ran"; }
f() { echo "f sees X=${X-unset}"; }
tcase "a passes" a
tcase "b fails" b
tcase "c exits 3" c
tcase "d needs b" d
tcase "e needs a" e
tcase "f after e" f
tcase "g returns 1" g
tcase_done'
	runs mixed 1
	says err "FAIL: mixed.sh: 'b fails': b broke"
	says err "SKIP: mixed.sh: 'd needs b': needs 'b fails', which did not pass"
	says err "mixed.sh: 7 cases, 2 failed ('b fails', 'c exits 3'), 1 skipped ('d needs b')"
	says out "ok 1 - a passes"
	says out "not ok 2 - b fails (status 1)"
	says out "not ok 3 - c exits 3 (status 3)"
	says out "skip 4 - d needs b"
	says out "e ran"
	says out "f sees X=unset"
	says out "ok 7 - g returns 1"
	! grep -q "b went on\|d ran" "$T/out" || fail "a case went on after fail or a skip: $(cat "$T/out")"
}
tcase 'a failed case is named and the next one runs' t_carry_on

t_all_pass() {
	script pass 'a() { :; }
tcase one a
tcase two a
tcase_done'
	runs pass 0
	says err "pass.sh: 2 cases, 0 failed"
}
tcase 'all passed: exit 0 and a summary' t_all_pass

t_top_fail() {
	script top 'a() { fail "inside"; }
tcase first a
fail "outside"
echo "went on"
tcase_done'
	runs top 1
	says err "FAIL: outside"
	says err "top.sh: 1 cases, 1 failed ('first')"
	! grep -q "went on" "$T/out" || fail "fail outside a case did not stop the script"
	script top0 'fail "outside, before any case"'
	runs top0 1
	[ "$(cat "$T/err")" = "FAIL: outside, before any case" ] || fail "top0: $(cat "$T/err")"
}
tcase 'fail outside a case stops the script, naming what failed before' t_top_fail

t_skip() {
	script skip 'a() { :; }
tcase one a
echo "SKIP: no tool"; exit 77'
	runs skip 77
	script skipfailed 'a() { fail "x"; }
tcase one a
echo "SKIP: no tool"; exit 77'
	runs skipfailed 1
	script caseskip 'a() { tcase_skip "no valgrind"; }
tcase one a
tcase_done'
	runs caseskip 0
	says err "SKIP: caseskip.sh: 'one': no valgrind"
}
tcase '77 stays skip, but not over a failed case' t_skip

t_mistakes() {
	script nodone 'a() { :; }
tcase one a'
	runs nodone 1
	says err "FAIL: nodone.sh ended without tcase_done"
	script twice 'a() { :; }
tcase one a
tcase one a
tcase_done'
	runs twice 1
	says err "FAIL: twice.sh: two cases are named 'one'"
	script typo 'a() { tcase_needs "on"; }
tcase one a
tcase_done'
	runs typo 1
	says err "FAIL: typo.sh: 'one': tcase_needs 'on': no earlier case has that name"
}
tcase 'no tcase_done, two cases of one name, tcase_needs a typo: each fails' t_mistakes

tcase_done
