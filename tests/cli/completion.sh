#!/bin/sh
# completion.sh: the bash completion (completion/rsweep as make builds it)
# offers commands, each command's options, choices, test names and
# installed sweep and plot files.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
builddir=$(dirname "$(dirname "$RSWEEP")")
script=$builddir/completion/rsweep
[ -f "$script" ] || { echo "FAIL: $script was not built (make check builds it)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-completion.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT
# fail, and the named cases.
. "${RS_SRCDIR:-$(dirname "$0")/../..}/tests/cli/tcase.sh"

# shellcheck source=/dev/null
. "$script"

# complete WORDS...: what _rsweep offers for the command line WORDS, the
# last word being the one completed; one candidate per line in $T/got.
complete_line() {
	COMP_WORDS=("$RSWEEP" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_rsweep
	if ((${#COMPREPLY[@]})); then
		printf '%s\n' "${COMPREPLY[@]}" | sort >"$T/got"
	else
		: >"$T/got"
	fi
}

# offers WORDS... -- WANT...: every WANT is offered.
offers() {
	local words=() w
	while [ "$1" != -- ]; do
		words+=("$1")
		shift
	done
	shift
	complete_line "${words[@]}"
	for w in "$@"; do
		grep -qxF -- "$w" "$T/got" || fail "rsweep ${words[*]}<TAB> does not offer $w; offers: $(tr '\n' ' ' <"$T/got")"
	done
}

# offers_only WORDS... -- WANT...: exactly the WANTs are offered.
offers_only() {
	local words=() w
	while [ "$1" != -- ]; do
		words+=("$1")
		shift
	done
	shift
	complete_line "${words[@]}"
	printf '%s\n' "$@" | sed '/^$/d' | sort >"$T/want"
	cmp -s "$T/got" "$T/want" || fail "rsweep ${words[*]}<TAB> offers '$(tr '\n' ' ' <"$T/got")', wanted '$*'"
}

t_commands() {
	offers "" -- run plot report import export clean help --help --version
	offers_only r -- report run
	offers_only help "" -- agent clean export import plot report run
}
tcase "the commands, and help's commands" t_commands

t_options() {
	offers_only run --cli -- --clients
	offers_only run --sp -- --spawn --spawn-args --spawn-replicas --spawn-tcp --spawn-tls
	offers_only plot --me -- --metric
	offers_only import --me --
	offers_only run --read-from "" -- all masters replicas
	offers_only run --order "" -- sequential shuffled
	offers_only report --format "" -- csv html json markdown text
	offers_only export --format "" -- benchstat hgrm hlog memtier-json valkey-metrics
	offers_only export --fo -- --format
	offers_only plot --metric p9 -- p95 p99 p999
	offers_only run --flush = "" -- all db none
	offers_only run --spawn "" -- 
	offers run -t "" -- get set lrange ping mset lrange_600 ping_inline
	offers_only run -t get,lp -- get,lpop get,lpush
	offers_only run -c "" --
}
tcase 'options by prefix, their choices, test names' t_options

t_custom() {
	complete_line run -- SE
	[ ! -s "$T/got" ] || fail "rsweep run -- SE<TAB> offers $(cat "$T/got") to a custom command"
}
tcase 'nothing for a custom command after --' t_custom

# Every option of every command's --help is offered after "-".
t_help_options() {
	for c in run plot report import export clean; do
		"$RSWEEP" "$c" --help | sed -n 's/^ *\(-[^ ,]\)\{0,1\},\{0,1\} *\(--[a-z0-9-]*\).*/\2/p' >"$T/opts"
		[ -s "$T/opts" ] || fail "no options in rsweep $c --help"
		complete_line "$c" -
		while read -r o; do
			grep -qxF -- "$o" "$T/got" || fail "rsweep $c -<TAB> does not offer $o"
		done <"$T/opts"
	done
}
tcase "every option of every command's --help is offered after -" t_help_options

# Installed sweep and plot files by bare name, and files by extension.
t_files() {
	mkdir -p "$T/share/sweeps" "$T/share/plots" "$T/cwd"
	: >"$T/share/sweeps/m1-article.sweep"
	: >"$T/share/sweeps/unix-vs-tcp.sweep"
	: >"$T/share/plots/m1-article.plot"
	: >"$T/cwd/a.csv"
	: >"$T/cwd/b.txt"
	: >"$T/cwd/mine.sweep"
	_rsweep_datadir=$T/share
	cd "$T/cwd" || exit 1
	offers_only run --sweep "" -- m1-article unix-vs-tcp mine.sweep
	offers_only plot --plot m1 -- m1-article
	offers_only report "" -- a.csv
	offers_only export "" -- a.csv
	offers_only plot -o a.csv "" -- a.csv
	offers_only import "" -- a.csv b.txt mine.sweep
	offers run --spawn = "" -- a.csv b.txt
}
tcase 'installed sweep and plot files by bare name, files by extension' t_files

tcase_done
