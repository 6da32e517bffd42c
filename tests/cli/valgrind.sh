#!/bin/sh
# A sweep of a few points, a report, and one plot of each format under
# valgrind: zero errors, zero leaks.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: no valgrind"; exit 77; }
case "${RS_SANITIZERS:-no}" in yes) echo "SKIP: sanitizer build"; exit 77 ;; esac

vg() {
	valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
		--error-exitcode=99 "$@"
}

t_run() {
	vg "$RSWEEP" run --spawn -t get,lpop -P 1,8 --repeat 2 --threads 2 -c 4 -n 2000 -o "$T/v.csv" \
		>"$T/out" 2>"$T/err" || fail "run under valgrind: $(cat "$T/err")"
}
tcase 'a sweep under valgrind' t_run

# Two targets, one over TCP with arguments of its own.
t_targets() {
	vg "$RSWEEP" run --target a=spawn: --target b=spawn+tcp: --spawn-args "b=--appendonly yes" -t get \
		-P 1,2 --repeat 1 -c 4 -n 500 -o "$T/t.csv" >"$T/out" 2>"$T/err" ||
		fail "two targets under valgrind: $(cat "$T/err")"
}
tcase 'two targets under valgrind, one over TCP with arguments of its own' t_targets

t_label_twice() {
	vg "$RSWEEP" run --target a=spawn: --target a=unix://"$T/x" -t get -n 10 >"$T/out" 2>"$T/err"
	[ $? = 2 ] || fail "a label given twice under valgrind: $(cat "$T/err")"
}
tcase 'a label given twice under valgrind' t_label_twice

t_report_plot() {
	tcase_needs 'a sweep under valgrind'
	vg "$RSWEEP" report "$T/v.csv" >"$T/out" 2>"$T/err" || fail "report: $(cat "$T/err")"
	vg "$RSWEEP" plot "$T/v.csv" -o "$T/v.png" >"$T/out" 2>"$T/err" || fail "plot png: $(cat "$T/err")"
	vg "$RSWEEP" plot "$T/v.csv" -o "$T/v.pdf" >"$T/out" 2>"$T/err" || fail "plot pdf: $(cat "$T/err")"
}
tcase 'report and plots of each format under valgrind' t_report_plot

# Failure paths free what they took, too.
t_failures() {
	vg "$RSWEEP" run -s "$T/none.sock" -t get -n 10 >"$T/out" 2>"$T/err"
	[ $? = 1 ] || fail "refused connection under valgrind: $(cat "$T/err")"
	vg "$RSWEEP" plot "$T/missing.csv" -o "$T/x.png" >"$T/out" 2>"$T/err"
	[ $? = 2 ] || fail "missing CSV under valgrind: $(cat "$T/err")"
}
tcase 'failure paths free what they took' t_failures

tcase_done
