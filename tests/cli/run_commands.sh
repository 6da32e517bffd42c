#!/bin/sh
# run_commands.sh: a command file (--commands FILE, issue 29) end to end.
# Every row of its mix: requests = server_calls = the sum of mix_sent,
# mix_sent equal to mix_calls member by member, no error; __key__ and
# __data__ become a drawn key and -d bytes; bad files and options are
# refused with one line naming FILE:LINE (or the option), exit 2, no file.
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

# The mix column is the one quoted field here (it holds a comma): it
# becomes MIX, so that awk -F, splits the others.
blank_mix() {
	sed 's/"[^"]*"/MIX/' "$1"
}

# check_rows FILE ROWS: every row of the file's mix counted exactly, member
# by member, its two members those of kv.cmds.
check_rows() {
	[ "$(rows "$1")" = "$2" ] || fail "$1 has $(rows "$1") rows, wanted $2"
	grep -q '"GET k:__rand_int__=80,SET k:__key__ __data__=20"' "$1" ||
		fail "mix column: $(cat "$1")"
	blank_mix "$1" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		function counts(s, out,    n, a, i, kv) {
			n = split(s, a, ";")
			for (i = 1; i <= n; i++) { split(a[i], kv, "="); out[kv[1]] = kv[2] }
			return n
		}
		{
			delete sent; delete calls
			why = ""
			g = "GET k:__rand_int__"; s = "SET k:__key__ __data__"
			if ($c["test"] != "MIX_KV") why = why " test " $c["test"]
			if (counts($c["mix_sent"], sent) != 2) why = why " mix_sent " $c["mix_sent"]
			if (counts($c["mix_calls"], calls) != 2) why = why " mix_calls " $c["mix_calls"]
			if (sent[g] != calls[g] || sent[s] != calls[s])
				why = why " sent " $c["mix_sent"] " but calls " $c["mix_calls"]
			if (sent[g] == 0 || sent[s] == 0) why = why " a member never drawn " $c["mix_sent"]
			n = $c["requests"]
			if (n != $c["server_calls"]) why = why " server_calls " $c["server_calls"]
			if (sent[g] + sent[s] != n) why = why " sent adds up to " sent[g] + sent[s]
			if ($c["errors"] != 0) why = why " errors " $c["errors"]
			if (why != "") { print "row " NR ":" why; bad = 1 }
		}
		END { exit bad }' >"$T/bad" || fail "rows: $(head -3 "$T/bad")"
}

t_counts() {
	printf '# reads and writes\n80 GET k:__rand_int__\n\n20 SET k:__key__ __data__\n' \
		>"$T/kv.cmds"
	expect_status 0 "$RSWEEP" run --spawn --commands "$T/kv.cmds" -r 1000 -P 1,16 -n 20000 \
		--repeat 1 -q -o "$T/m.csv"
	check_rows "$T/m.csv" 2
	# The report names each member by its line, quoted.
	expect_status 0 "$RSWEEP" report "$T/m.csv"
	grep -Eq " MIX_KV: 'GET k:__rand_int__' [0-9.]+% and 'SET k:__key__ __data__' [0-9.]+% of its requests as sent \(weights 80:20\)\$" \
		"$T/out" || fail "report: $(cat "$T/out")"
}
tcase 'a command file at P=1 and 16: exact per member' t_counts

# __key__ is a key of -r (at most 100 of them) and __data__ -d bytes; a
# list of -d formats the file for each.
t_placeholders() {
	printf '1 SET k:__key__ __data__\n1 GET k:__key__\n' >"$T/p.cmds"
	expect_status 0 "$RSWEEP" run --spawn --commands "$T/p.cmds" -r 100 -d 7,50 -P 4 -n 3000 \
		--repeat 1 -q -o "$T/p.csv"
	[ "$(rows "$T/p.csv")" = 2 ] || fail "p.csv: $(cat "$T/p.csv")"
	grep -q ',MIX_P,' "$T/p.csv" || fail "test name: $(cat "$T/p.csv")"
	# A point of -d 50 against a server of this test's own, its keys
	# left (--flush none) to read back.
	start_redis
	expect_status 0 "$RSWEEP" run -s "$SOCK" --commands "$T/p.cmds" -r 100 -d 50 -n 500 \
		--repeat 1 -q --flush none
	keys=$(rcli --scan --pattern 'k:*' | wc -l)
	[ "$keys" -ge 1 ] && [ "$keys" -le 100 ] || fail "$keys keys of k:__key__ under -r 100"
	key=$(rcli --scan --pattern 'k:*' | head -1)
	case $key in
	k:[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
	*) fail "key '$key' is not k: and drawn digits" ;;
	esac
	[ "$(rcli get "$key")" = "$(printf '%050d' 0 | tr 0 x)" ] ||
		fail "value of $key: $(rcli get "$key")"
}
tcase '__key__ and __data__: a key of -r and -d bytes, for each -d of a list' t_placeholders

# A command of the file may touch any database: the guard's rule for a
# command after -- holds for the whole mix (a key in db 3 stops it).
t_guard() {
	printf '1 GET k\n' >"$T/g.cmds"
	start_redis
	rcli -n 3 set other 1 >/dev/null
	expect_status 2 "$RSWEEP" run -s "$SOCK" --commands "$T/g.cmds" -n 100 --repeat 1 -q
	grep -q "a command of your own may touch any database" "$T/err" ||
		fail "guard: $(cat "$T/err")"
	[ "$(rcli -n 3 get other)" = 1 ] || fail "db 3's key is gone"
}
tcase 'the guard takes the mix as a command after --: any database' t_guard

# A word alone that names a catalogue test is that test, prepared as -t
# prepares it: GET finds every key, LPOP an element each time; a custom
# command beside them.
t_catalogue() {
	printf '70 get\n20 SET key:__key__ __data__\n10 lpop\n' >"$T/cat.cmds"
	expect_status 0 "$RSWEEP" run --spawn --commands "$T/cat.cmds" -r 300 -P 1,16 -n 5000 \
		--repeat 1 -q -o "$T/cat.csv"
	grep -q '"get=70,SET key:__key__ __data__=20,lpop=10"' "$T/cat.csv" ||
		fail "mix column: $(cat "$T/cat.csv")"
	blank_mix "$T/cat.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["requests"] != $c["server_calls"] || $c["errors"] != 0 || $c["misses"] != 0 ||
		$c["server_misses"] != 0 || $c["mix_sent"] != $c["mix_calls"] { print; bad = 1 }
		END { exit bad }' >"$T/bad" || fail "rows: $(cat "$T/bad")"
}
tcase 'catalogue tests in a command file, prepared as -t prepares them' t_catalogue

t_refused() {
	f=$T/f.cmds
	printf 'GET k\n' >"$f"
	run_refused "$f:1: 'GET' is not a weight" --spawn --commands "$f"
	printf '# weights\n1 GET k\n0 SET k v\n' >"$f"
	run_refused "$f:3: weight 0 is out of range (1 to 1000000)" --spawn --commands "$f"
	printf '1 GET k\n\n5\n' >"$f"
	run_refused "$f:3: no command after the weight 5" --spawn --commands "$f"
	printf "5 '' k\n" >"$f"
	run_refused "$f:1: an empty command after the weight 5" --spawn --commands "$f"
	printf '5 "GET k\n' >"$f"
	run_refused "$f:1: unclosed \"" --spawn --commands "$f"
	i=0
	: >"$f"
	while [ $i -lt 17 ]; do
		i=$((i + 1))
		echo "1 GET k$i" >>"$f"
	done
	run_refused "$f:17: more than 16 commands" --spawn --commands "$f"
	printf '1 GET a\n2 GET a\n' >"$f"
	run_refused "$f:2: the same command as line 1" --spawn --commands "$f"
	printf '1 get\n2 GET\n' >"$f"
	run_refused "$f:2: test GET on an earlier line too (add their weights)" --spawn --commands "$f"
	printf '# nothing\n' >"$f"
	run_refused "$f: no command" --spawn --commands "$f"
	run_refused "--commands: $T/nosuch.cmds: No such file or directory" --spawn \
		--commands "$T/nosuch.cmds"
	printf '1 GET k\n' >"$f"
	run_refused "--commands FILE and -t exclude each other" --spawn --commands "$f" -t get
	run_refused "--commands FILE and --ratio exclude each other" --spawn --commands "$f" --ratio 1:1
	run_refused "--commands FILE and a custom command after -- exclude each other" --spawn \
		--commands "$f" -- GET k
	run_refused "--key-prefix takes the catalogue's tests (-t): a command file names its own keys" \
		--spawn --commands "$f" --key-prefix p:
	# A shared sweep file names no commands to run (as no program to start).
	printf 'commands = %s\n' "$f" >"$T/c.sweep"
	run_refused "c.sweep:1: unknown key 'commands'" --spawn --sweep "$T/c.sweep"
}
tcase 'bad command files and options: one line naming FILE:LINE, exit 2, no file' t_refused

tcase_done
