# benchfmt.awk: check a file against Go's benchmark format, as
# golang.org/x/perf/benchfmt reads it (and benchstat through it).  Every
# line must be one of:
#   blank
#   configuration  "key: value", key a lower-case letter first, then no
#                  blank, ':' or upper-case letter
#   result         "BenchmarkNAME ITERATIONS VALUE UNIT [VALUE UNIT...]",
#                  NAME empty or not starting with a lower-case letter,
#                  ITERATIONS a whole number, each VALUE a number, each UNIT
#                  without blanks
#   unit metadata  "Unit UNIT KEY=VALUE...", at least one KEY=VALUE; for
#                  better, higher or lower; for assume, nothing or exact
# Prints "LINE: why" for each line that is not, and exits 1 if any.
# Usage: awk -f benchfmt.awk FILE
function bad(why) { printf "%d: %s: %s\n", NR, why, $0; nbad++ }
function number(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || s ~ /^[-+]?(Inf|NaN)$/ }
/^[ \t]*$/ { next }
/^Benchmark/ {
	name = substr($1, 10)
	if (name ~ /^[a-z]/) { bad("a name that goes on with a lower-case letter"); next }
	if ($2 !~ /^[0-9]+$/) { bad("no whole number of iterations"); next }
	if (NF < 4 || (NF - 2) % 2 != 0) { bad("not VALUE UNIT pairs"); next }
	for (i = 3; i < NF; i += 2) {
		if (!number($i)) { bad("value '" $i "' is no number"); next }
		if ($(i + 1) == "") { bad("no unit"); next }
	}
	results++
	next
}
/^Unit[ \t]/ {
	if (NF < 3) { bad("a unit line with no KEY=VALUE"); next }
	for (i = 3; i <= NF; i++) {
		if ($i !~ /^[^=]+=/) { bad("'" $i "' is no KEY=VALUE"); next }
		split($i, kv, "=")
		if (kv[1] == "better" && kv[2] != "higher" && kv[2] != "lower") { bad("better=" kv[2]); next }
		if (kv[1] == "assume" && kv[2] != "nothing" && kv[2] != "exact") { bad("assume=" kv[2]); next }
	}
	unit[$2] = 1
	next
}
/^[a-z][^ \t:A-Z]*:([ \t]|$)/ { next }
{ bad("neither a configuration, a result nor a unit line") }
END {
	if (results == 0) { print "no result line"; nbad++ }
	exit nbad > 0
}
