#!/bin/sh
# --spawn-args refuses a setting by what it can do (listen, file, code,
# secret, process: src/net/spawn_args.h), in every spelling and in every '|'
# alternative, with exit 2 and one line naming the setting and its class;
# nothing starts.  Settings of no such class pass (checked with --dry-run,
# which starts nothing either).  Issue 40.  Every spawned server's
# arguments are recorded in its rows' server_args (issue 44).
. "${RS_SRCDIR:-.}/tests/cli/lib.sh"

out=$T/never.csv

# refused CLASS NAME SPAWN-ARGS: exit 2, one line naming NAME and CLASS.
refused() {
	class=$1
	name=$2
	shift 2
	expect_status 2 "$RSWEEP" run --spawn --spawn-args "$1" -t set -P 1 -n 100 -q -o "$out"
	[ "$(grep -c . "$T/err")" = 1 ] || fail "'$1': not one line: $(cat "$T/err")"
	grep -qi -- "may not set --$name.*($class: " "$T/err" ||
		fail "'$1': wanted --$name and class $class: $(cat "$T/err")"
	[ ! -e "$out" ] || fail "'$1': $out was written"
}

# Each setting in each spelling: plain, any case, an alternative of the
# first word or of a later one, a quoted "--name value" word among
# alternatives, and --name=value.
matrix() {
	class=$1
	shift
	for name in "$@"; do
		upper=$(printf '%s' "$name" | tr 'a-z' 'A-Z')
		refused "$class" "$name" "--$name x"
		refused "$class" "$upper" "--$upper x"
		refused "$class" "$name" "--$name|--hz 17958"
		refused "$class" "$name" "--hz|--$name 17958"
		refused "$class" "$name" "--appendonly no --hz|--$name 10"
		refused "$class" "$name" "'--hz 1|--$name x'"
		refused "$class" "$name" "--$name=x"
	done
}

t_listen() {
	matrix listen port bind bind-source-addr unixsocket unixsocketperm unixsocketgroup \
		tls-port cluster-port replicaof slaveof cluster-announce-ip replica-announce-port \
		rdma-port some-future-bind
	# The issue's case: nothing answers on the port afterwards.
	expect_status 2 "$RSWEEP" run --spawn --spawn-args '--port|--hz 17958' -t set -P 1 -n 100 -q
	if redis-cli -h 127.0.0.1 -p 17958 ping >/dev/null 2>&1; then
		fail "a server answers on 127.0.0.1:17958"
	fi
}
tcase 'listen: port, bind, unixsocket, tls-port, replicaof, announce...' t_listen

t_file() {
	matrix file dir logfile dbfilename appendfilename appenddirname cluster-config-file \
		pidfile syslog-enabled syslog-ident tls-cert-file tls-key-file tls-ca-cert-dir \
		tls-dh-params-file some-future-file some-future-path
}
tcase 'file: dir, logfile, dbfilename, cluster-config-file, pidfile, tls-*-file...' t_file

t_code() {
	matrix code loadmodule include enable-module-command enable-protected-configs \
		enable-debug-command module-future enable-anything
}
tcase 'code: loadmodule, include, enable-*-command...' t_code

t_secret() {
	matrix secret requirepass masterauth masteruser primaryauth user aclfile \
		tls-auth-clients tls-key-file-pass some-future-password
	# Nowhere on the command line ps shows, nor in a row: nothing ran.
	expect_status 2 "$RSWEEP" run --spawn --spawn-args '--requirepass|--hz sesame' -t set -q
	grep -q sesame "$T/err" && fail "the password is in the message: $(cat "$T/err")"
	:
}
tcase 'secret: requirepass, masterauth, user, aclfile, tls-auth-clients...' t_secret

t_process() {
	matrix process daemonize supervised sentinel
}
tcase 'process: daemonize, supervised, sentinel' t_process

# refused_line WHAT SPAWN-ARGS: exit 2, one line holding WHAT.
refused_line() {
	expect_status 2 "$RSWEEP" run --spawn --spawn-args "$2" -t set -P 1 -n 100 -q -o "$out"
	[ "$(grep -c . "$T/err")" = 1 ] || fail "'$2': not one line: $(cat "$T/err")"
	grep -q -- "$1" "$T/err" || fail "'$2': wanted '$1': $(cat "$T/err")"
	[ ! -e "$out" ] || fail "'$2': $out was written"
}

t_values() {
	# A setting rsweep does not know, told a path: refused as a file.
	refused_line "value '/tmp/x' (file: " '--some-new-setting /tmp/x'
	refused_line "value '\.\.' (file: " '--some-new-setting ..'
	refused_line "value '~/x' (file: " '--hz 10|--some-new-setting ~/x'
	refused_line "value '/etc' in '--some-new-setting /etc' (file: " "'--some-new-setting /etc'"
	# A lone "-" makes redis-server read config from standard input.
	refused_line "'-' (code: " '--hz 10 -'
	refused_line "'-' in '10|-' (code: " '--hz 10|-'
	# What the server would read as a name that rsweep cannot class.
	refused_line "'--' is not a setting name" '-- port 1'
	refused_line "'--\"port\" 1' is not a setting name" "'--\"port\" 1'"
	refused_line "'--hz=10' is not a setting name" '--hz=10'
	# Escapes in a "--name value" word could spell a '/'.
	refused_line "no quotes or backslashes" "'--hz 10 \\x2ftmp'"
	# The first word of every alternative is a --option, never a file.
	refused_line "start with a --option, not 'port' in '--hz|port'" '--hz|port 1'
	refused_line "start with a --option, not 'evil.conf'" 'evil.conf'
	refused_line "more than 32" "$(seq 1 17 | sed 's/.*/--hz 10/' | tr '\n' ' ')"
}
tcase 'values: a path, a lone -, names rsweep cannot class, too many words' t_values

t_free() {
	# Settings of no refused class pass, in any spelling and alternative
	# (those near a refused name included: a word "user" not last, a
	# "files" that is not a "file").
	for a in '--appendfsync always' '--save ""' "--save ''" '--Hz 17' '--io-threads 1|2' \
		'--maxmemory 100mb --maxmemory-policy allkeys-lru' '--lazyfree-lazy-user-del yes' \
		'--rdb-del-sync-files yes' '--protected-mode no' '--hz 10|20 --appendonly yes|no' \
		"--rename-command GET ''" '--replica-announced yes' '--acllog-max-len 10'; do
		expect_status 0 "$RSWEEP" run --spawn --spawn-args "$a" -t set -P 1 -n 100 --dry-run
	done
}
tcase 'settings of no refused class pass' t_free

t_targets() {
	# Per target too: LABEL=ARGS.
	expect_status 2 "$RSWEEP" run --target a=spawn: --target b=spawn: \
		--spawn-args 'b=--hz 10|--dir /tmp' -t set -P 1 -n 100 -q -o "$out"
	grep -q "target 'b': --spawn-args may not set --dir in '10|--dir' (file: " "$T/err" ||
		fail "per target: $(cat "$T/err")"
}
tcase 'per target: LABEL=ARGS refused the same way' t_targets

# server_args column of every row of FILE, "LABEL: ARGS" a line.
args_of() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		 { print $col["label"] ": " $col["server_args"] }' "$1" | sort -u
}

t_recorded() {
	# Without alternatives too (issue 44): every spawned server's
	# arguments are in its rows and in the report's Servers line.
	expect_status 0 "$RSWEEP" run --spawn --spawn-args '--appendfsync always' --label ci \
		-t set -P 1,2 --repeat 1 -n 200 -c 2 -q -o "$T/one.csv"
	[ "$(args_of "$T/one.csv")" = "ci: --appendfsync always" ] ||
		fail "server_args: $(args_of "$T/one.csv")"
	expect_status 0 "$RSWEEP" report "$T/one.csv"
	grep -q "^Servers: ci = .* \[--appendfsync always\]$" "$T/out" || fail "report: $(cat "$T/out")"
	# Per target, a word quoted as it was given; none for a target without.
	expect_status 0 "$RSWEEP" run --target a=spawn: --target b=spawn: -t set -P 1 --repeat 1 \
		-n 200 -c 2 -q --spawn-args "b=--hz 17 --rename-command GET ''" -o "$T/two.csv"
	[ "$(args_of "$T/two.csv")" = "a: 
b: --hz 17 --rename-command GET ''" ] || fail "server_args: $(args_of "$T/two.csv")"
}
tcase 'server_args: the arguments of every spawned server, alternatives or not' t_recorded

tcase_done
