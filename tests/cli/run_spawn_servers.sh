#!/bin/sh
# Spawning servers other than redis-server (issue 28): a program whose
# --version answers as redis-server's does is started with the same
# private-socket, no-persistence arguments and its --spawn-args; any other
# is refused in one line quoting what it printed, before anything starts.
# The rows carry server_name and server_version, and --resume refuses a
# label's rows measured on another server.  Fake programs stand in for the
# others: a wrapper that calls itself Valkey and runs redis-server, so no
# valkey-server is needed (run_spawn_valkey.sh uses a real one).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

real=$(command -v "$REDIS_SERVER")
v=$("$real" --version | sed -n 's/^Redis server v=\([^ ]*\) .*/\1/p')
out=$T/never.csv

# refused WHAT PROGRAM: exit 2, one line holding WHAT, nothing written.
refused() {
	expect_status 2 "$RSWEEP" run --target a=spawn: --target "b=spawn:$2" -t ping -n 100 -q \
		-o "$out"
	[ "$(grep -c . "$T/err")" = 1 ] || fail "$2: not one line: $(cat "$T/err")"
	grep -q -- "$1" "$T/err" || fail "$2: wanted '$1': $(cat "$T/err")"
	[ ! -e "$out" ] || fail "$2: $out was written"
}

t_refused() {
	# Dragonfly's --version is not redis-server's: it would not take its options.
	printf '#!/bin/sh\necho "dragonfly v1.40.1-f8eca6d0"\necho "build time: 2026-08-22"\n' \
		>"$T/dragonfly"
	chmod +x "$T/dragonfly"
	refused "target 'b': $T/dragonfly is not redis-server or a server like it (valkey-server, keydb-server): its --version printed 'dragonfly v1.40.1-f8eca6d0'$" \
		"$T/dragonfly"
	printf '#!/bin/sh\nexit 3\n' >"$T/silent"
	chmod +x "$T/silent"
	refused "target 'b': .*silent is not redis-server or a server like it.*printed nothing and it exited 3" \
		"$T/silent"
	refused "its --version printed 'ls (GNU coreutils)" /bin/ls
	# The same with --spawn, one line, status 2.
	expect_status 2 "$RSWEEP" run --spawn="$T/dragonfly" -t ping -n 100 -q -o "$out"
	[ "$(grep -c . "$T/err")" = 1 ] && grep -q "its --version printed 'dragonfly v1" "$T/err" ||
		fail "--spawn: $(cat "$T/err")"
}
tcase 'a program that is not redis-server, or says nothing, is refused in one line' t_refused

t_like() {
	# A server like redis-server: the Valkey line, then redis-server itself,
	# its arguments kept to be checked.
	cat >"$T/valkey-server" <<EOF
#!/bin/sh
if [ "\$1" = --version ]; then
	echo "Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1"
	exit 0
fi
printf '%s\n' "\$@" >"$T/args.\$\$"
exec "$real" "\$@"
EOF
	chmod +x "$T/valkey-server"
	f=$T/ab.csv
	expect_status 0 "$RSWEEP" run --target r=spawn: --target v=spawn:"$T/valkey-server" \
		--spawn-args 'v=--hz 17' -t get -P 1,2 --repeat 1 -n 2000 -c 2 -q -v -o "$f"
	grep -q "v: $T/valkey-server is Valkey server v=8.0.1" "$T/err" ||
		fail "the probe's note: $(cat "$T/err")"
	check_csv "$f"
	[ "$(rows "$f")" = 4 ] || fail "$(rows "$f") rows, wanted 4"
	# rsweep's own arguments, then the target's --spawn-args.
	a=$(cat "$T"/args.*)
	for want in --unixsocket --save --appendonly --daemonize --dir --logfile; do
		printf '%s\n' "$a" | grep -qx -- "$want" || fail "no $want among: $a"
	done
	printf '%s\n' "$a" | tr '\n' ' ' | grep -q -- "--save  --appendonly no --daemonize no " ||
		fail "persistence not off: $a"
	printf '%s\n' "$a" | tr '\n' ' ' | grep -q -- "--hz 17 $" || fail "--spawn-args not last: $a"
	# It is redis-server underneath, and the rows say what INFO says.
	col() {
		awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next }
			{ print $1 " " $n }' "$f" | sort -u
	}
	[ "$(col server_name)" = "r redis
v redis" ] || fail "server_name: $(col server_name)"
	[ "$(col server_version)" = "r $v
v $v" ] || fail "server_version: $(col server_version)"
}
tcase 'a server like redis-server is spawned with the same arguments, and named from INFO' t_like

t_resume() {
	# --resume on another server (here: rows that say another version, as
	# after an upgrade) is refused before anything is touched.
	g=$T/one.csv
	expect_status 0 "$RSWEEP" run --spawn -l x -t get -P 1 --repeat 1 -n 2000 -c 2 -q -o "$g"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "server_version") n = i; print; next }
		{ $n = "6.0.0"; print }' "$g" >"$T/cut" && mv "$T/cut" "$g"
	sum=$(cksum <"$g")
	expect_status 2 "$RSWEEP" run --spawn -l x -t get -P 1,2 --repeat 1 -n 2000 -c 2 -q -o "$g" --resume
	grep -q "one.csv:2: label 'x' was measured on redis 6.0.0, this run is on redis $v: resume on the same server, or use another --label" \
		"$T/err" || fail "resume on another version: $(cat "$T/err")"
	[ "$(cksum <"$g")" = "$sum" ] || fail "the refused resume changed the file"
	# The same server again: resumed.
	awk -F, -v OFS=, -v v="$v" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "server_version") n = i; print; next }
		{ $n = v; print }' "$g" >"$T/cut" && mv "$T/cut" "$g"
	expect_status 0 "$RSWEEP" run --spawn -l x -t get -P 1,2 --repeat 1 -n 2000 -c 2 -q -o "$g" --resume
	[ "$(rows "$g")" = 2 ] || fail "$(rows "$g") rows after the resume, wanted 2"
}
tcase '--resume refuses rows of another server version, and resumes the same' t_resume

tcase_done
