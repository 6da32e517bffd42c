#!/bin/sh
# Bad --mode, --rate and --arrivals: one line naming the problem, exit 2, no file.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

bad() {
	msg=$1
	shift
	expect_status 2 "$RSWEEP" run -o "$T/out.csv" "$@"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': message is not one line: $(cat "$T/err")"
	grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
	[ ! -e "$T/out.csv" ] || fail "'$*' created the output file"
}

t_rates() {
	bad "'0': a rate is at least 1 request a second" --rate 0
	bad "'-5k': " --rate -5k
	bad "'2G': rate 2000000000 is over 1000000000 requests a second" --rate 2G
	bad "'400k..50k': descending range" --rate 400k..50k
	bad "'10k..20k:x1': a multiplying step must be at least 2" --rate 10k..20k:x1
	bad "'10000': rate 10000 is listed twice" --rate 10k,10000
	bad "empty item in rate list" --rate 10k,,20k
	bad "more than 1024 rates" --rate 1..2000
}
tcase 'a bad rate or rate list: one line, exit 2, no file' t_rates

t_options() {
	bad "--rate keeps a window of -P in flight: drop --mode lockstep" --rate 10k --mode lockstep
	bad "--arrivals goes with --rate or --slo" --arrivals poisson
	bad "--precision narrows a point's throughput, which --rate fixes at the rate offered" \
		--rate 10k --precision 5
	bad "option --mode: " --mode burst
	bad "option --arrivals: " --rate 10k --arrivals bursty
}
tcase '--rate, --mode, --arrivals and --precision that do not go together' t_options

# The plan crosses depths and rates.
t_plan() {
	expect_status 0 "$RSWEEP" run --dry-run -v -t get -P 1,4 --rate 10k..40k:x2 --repeat 1
	[ "$(grep -c '/s repeat' "$T/out")" = 6 ] || fail "dry run: $(cat "$T/out")"
	grep -q "P=4     40000/s repeat 1" "$T/out" || fail "dry run: $(cat "$T/out")"
}
tcase 'the plan crosses depths and rates' t_plan

tcase_done
