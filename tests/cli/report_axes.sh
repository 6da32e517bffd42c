#!/bin/sh
# rsweep report over a setting that varies (issue 30): three real sweeps
# of GET at -c 1, 4 and 16 joined in one CSV are three series, and the
# report gives the table along clients, the frontier within a latency
# budget and --goal max-rps's best cell; each agrees with the report's
# own figures.  Structure only, never a timing: which cell wins is the
# machine's business.  Bad --goal values: one line, exit 2.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

for n in 1 4 16; do
	"$RSWEEP" run --spawn -t get -P 1,4,16 -c $n -n 3000 --repeat 3 -q -l vm \
		-o "$T/c$n.csv" >"$T/run.out" 2>"$T/run.err" || fail "run -c $n: $(cat "$T/run.err")"
done
# One file, the header once: rows of one depth and repeat at another -c
# are another series, not a duplicate.
{
	cat "$T/c1.csv"
	tail -n +2 "$T/c4.csv"
	tail -n +2 "$T/c16.csv"
} >"$T/all.csv"

# From a json report, each series' highest measured point, one a line:
# "rps|test|depth".
highest() {
	grep '"highest_rps"' "$1" |
		sed -n 's/.*"test":"\([^"]*\)".*"highest_rps":\([0-9.]*\),"highest_depth":\([0-9]*\).*/\2|\1|\3/p'
}

t_table() {
	expect_status 0 "$RSWEEP" report "$T/all.csv"
	grep -q "^Along a setting (" "$T/out" || fail "no table: $(cat "$T/out")"
	grep -q "^  vm GET by clients:$" "$T/out" || fail "no group line: $(cat "$T/out")"
	# A line a value, in the setting's order: 1, 4, 16, each with a
	# saturation cell and a peak.
	vals=$(sed -n '/^  vm GET by clients:$/,/^$/p' "$T/out" |
		awk '$1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ')
	[ "$vals" = "1 4 16 " ] || fail "values '$vals': $(cat "$T/out")"
	sed -n '/^  vm GET by clients:$/,/^$/p' "$T/out" | awk '$1 ~ /^[0-9]+$/' >"$T/rows"
	while read -r line; do
		echo "$line" | grep -Eq "^[0-9]+ +(not saturated by P=16|[0-9]+ \\([0-9]+\\.\\.[0-9]+\\)|[0-9]+|-) +[0-9]+" ||
			fail "row '$line'"
	done <"$T/rows"
	# The series themselves, named by the value.
	for n in 1 4 16; do
		grep -Eq "^  vm +GET c=$n " "$T/out" ||
			fail "no series GET c=$n: $(cat "$T/out")"
	done
	# A file of one -c has no setting that varies: no table, plain names.
	expect_status 0 "$RSWEEP" report "$T/c4.csv"
	grep -q "Along a setting" "$T/out" && fail "a table without a setting: $(cat "$T/out")"
	grep -q "GET c=" "$T/out" && fail "an axis name without a setting: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report "$T/all.csv" --format markdown
	grep -q "^## Along a setting (" "$T/out" || fail "markdown: $(cat "$T/out")"
	grep -q "^| clients | saturation P (95%) | peak rps (95% interval) |$" "$T/out" ||
		fail "markdown table: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report "$T/all.csv" --format json
	grep -q '"test":"GET c=16","base":"GET","axes":{"clients":16}' "$T/out" ||
		fail "json axes: $(head -c 800 "$T/out")"
}
tcase 'the table along clients: a line a value, in order; none for one -c' t_table

t_frontier() {
	# 5 ms: loose enough that a loaded machine still meets it somewhere;
	# either answer is checked for its form.
	expect_status 0 "$RSWEEP" report "$T/all.csv" --latency-budget 5ms
	grep -q "^Latency budget: p99_ms <= 5 ms" "$T/out" || fail "no budget table: $(cat "$T/out")"
	grep -q "^Frontier within a 5 ms p99 (" "$T/out" || fail "no frontier: $(cat "$T/out")"
	line=$(grep "^  vm GET: " "$T/out" | grep "5 ms p99")
	echo "$line" | grep -Eq "^  vm GET: (within a 5 ms p99, P=(1|4|16) with (1 client|4 clients|16 clients) gives the most: [0-9.]+[kM]? rps \\([0-9.]+[kM]?\\.\\.[0-9.]+[kM]?\\), p99 [0-9.]+ ms \\([0-9.]+\\.\\.[0-9.]+\\)|no cell meets a 5 ms p99 \\(the lowest, [0-9.]+ ms, at P=(1|4|16) with [0-9]+ clients?\\))" ||
		fail "frontier line: '$line'"
	# The best is the pick of highest throughput in the budget's own
	# table (csv: test, depth, rps of each found pick).
	expect_status 0 "$RSWEEP" report "$T/all.csv" --latency-budget 5ms --format csv
	best=$(awk -F, 'NR > 1 && $5 == 1 && $7 + 0 > top { top = $7 + 0; t = $2; d = $6 }
		END { if (t != "") print t "," d }' "$T/out")
	expect_status 0 "$RSWEEP" report "$T/all.csv" --latency-budget 5ms --format json
	if [ -n "$best" ]; then
		grep -q "\"frontier\":\\[" "$T/out" || fail "json: no frontier: $(cat "$T/out")"
		grep -q "\"best\":{\"test\":\"${best%,*}\",\"depth\":${best#*,}," "$T/out" ||
			fail "json best is not the budget's top pick ($best): $(grep frontier -A2 "$T/out")"
	else
		grep -q '"best":null' "$T/out" || fail "json: a best without a pick: $(cat "$T/out")"
	fi
	# A budget no cell meets: said, with the lowest.
	expect_status 0 "$RSWEEP" report "$T/all.csv" --latency-budget 1us
	grep -Eq "^  vm GET: no cell meets a 0\\.001 ms p99 \\(the lowest, [0-9.]+ ms, at P=(1|4|16) with [0-9]+ clients?\\)$" \
		"$T/out" || fail "none within 1us: $(grep 'vm GET:' "$T/out")"
	# Without a setting that varies: the budget's table alone, as before.
	expect_status 0 "$RSWEEP" report "$T/c4.csv" --latency-budget 5ms
	grep -q "^Frontier" "$T/out" && fail "a frontier without a setting: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report "$T/c4.csv" --latency-budget 5ms --format json
	grep -q '"frontier"' "$T/out" && fail "a json frontier without a setting"
	:
}
tcase '--latency-budget: the frontier is the best pick, or none meets it' t_frontier

t_goal() {
	expect_status 0 "$RSWEEP" report "$T/all.csv" --goal max-rps
	grep -q "^Goal max-rps (" "$T/out" || fail "no goal: $(cat "$T/out")"
	line=$(sed -n '/^Goal max-rps/,$p' "$T/out" | grep "^  vm GET: ")
	echo "$line" | grep -Eq "^  vm GET: P=(1|4|16) with (1 client|4 clients|16 clients) gives the most of 9 cells, [0-9.]+[kM]? rps" ||
		fail "goal line: '$line'"
	# Each cell said to be not told apart carries a ratio interval that
	# holds 1.
	not1=$(echo "$line" | grep -o "([0-9.]*x, [0-9.]*x\\.\\.[0-9.]*x)" |
		sed 's/.*, \([0-9.]*\)x\.\.\([0-9.]*\)x)/\1 \2/' |
		awk '!($1 <= 1 && $2 >= 1)')
	[ -z "$not1" ] || fail "not told apart, yet intervals without 1: $not1 in '$line'"
	# The best cell is the highest median of all the series' points.
	expect_status 0 "$RSWEEP" report "$T/all.csv" --format json
	top=$(highest "$T/out" | sort -t'|' -k1 -g | tail -1)
	[ -n "$top" ] || fail "no highest points: $(cat "$T/out")"
	expect_status 0 "$RSWEEP" report "$T/all.csv" --goal max-rps --format csv
	[ "$(head -1 "$T/out")" = "label,test,axis,goal,role,cell_test,depth,value,rps,rps_lo,rps_hi,ratio,ratio_lo,ratio_hi" ] ||
		fail "csv header: $(head -1 "$T/out")"
	b=$(awk -F, '$5 == "best" { print $6 "|" $7 }' "$T/out")
	[ "$b" = "${top#*|}" ] || fail "best '$b', highest point '$top'"
	expect_status 0 "$RSWEEP" report "$T/all.csv" --goal max-rps --latency-budget 5ms --format json
	grep -q '"goal":{"name":"max-rps","groups":\[' "$T/out" || fail "json goal: $(cat "$T/out")"
	grep -q '"frontier":\[' "$T/out" || fail "json frontier beside the goal"
	# Without a setting: over the depths of the one series.
	expect_status 0 "$RSWEEP" report "$T/c4.csv" --goal max-rps
	grep -Eq "^  vm GET: P=(1|4|16) gives the most of 3 cells, " "$T/out" ||
		fail "goal over depths: $(sed -n '/^Goal/,$p' "$T/out")"
}
tcase '--goal max-rps: the highest point, and cells whose interval holds 1' t_goal

bad() {
	msg=$1
	shift
	expect_status 2 "$RSWEEP" report "$T/all.csv" "$@"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "'$*': not one line: $(cat "$T/err")"
	grep -q -- "$msg" "$T/err" || fail "'$*': '$(cat "$T/err")' does not say '$msg'"
}

t_bad() {
	bad "'max' is not one of none|max-rps" --goal max
	bad "'' is not one of none|max-rps" --goal ''
	bad "give --latency-budget or --goal, not both" --goal max-rps --latency-budget 1ms --format csv
}
tcase 'a bad --goal: one line naming the choices, exit 2' t_bad

tcase_done
