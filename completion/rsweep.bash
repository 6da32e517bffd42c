# rsweep.bash: bash completion for rsweep: commands, each command's options,
# option values (choices, test names, installed sweep and plot files) and
# file operands.
#
# Commands, options and choices are read from `rsweep --help` and
# `rsweep COMMAND --help` of the rsweep being completed, so they follow the
# binary.  make builds completion/rsweep from this file with the data
# directory filled in; make check (tests/test_manpage) holds the test names
# below to the catalogue in src/workload/workload_catalogue.c.

_rsweep_datadir='@pkgdatadir@'
_rsweep_tests='ping_inline ping_mbulk set get incr lpush rpush lpop rpop sadd hset spop zadd zpopmin lrange_100 lrange_300 lrange_500 lrange_600 mset publish spublish ping lrange'

# The commands of rsweep $1 but help, from the "Commands:" list of its --help.
_rsweep_commands()
{
	"$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next }
		on && /^  [a-z]/ { if ($1 != "help") print $1; next }
		on { on = 0 }'
}

# Lines "LONG SHORT ARG CHOICES" (- for none) for command $2 of rsweep $1,
# from its --help: "  -c, --clients N    parallel connections [50]".
_rsweep_options()
{
	local line short long arg choices
	local re='^ +(-([^ ,]), )?--([a-z0-9-]+)(\[=([A-Z][A-Za-z]*)\]| ([A-Z][A-Za-z]*))? +(.*)$'
	local re_choices='\(([a-z0-9-]+(\|[a-z0-9-]+)+)\)'

	"$1" "$2" --help 2>/dev/null | while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		short=${BASH_REMATCH[2]:--}
		long=${BASH_REMATCH[3]}
		arg=${BASH_REMATCH[5]:-${BASH_REMATCH[6]}}
		[[ -n ${BASH_REMATCH[5]} ]] && arg="[$arg]"
		choices=-
		[[ ${BASH_REMATCH[7]} =~ $re_choices ]] && choices=${BASH_REMATCH[1]//|/ }
		printf '%s %s %s %s\n' "$long" "$short" "${arg:--}" "$choices"
	done
}

# The data directory: the one rsweep was built with, else the one next to
# the binary ($prefix/bin/rsweep -> $prefix/share/rsweep).
_rsweep_data()
{
	local bin
	if [[ $_rsweep_datadir != @* && -d $_rsweep_datadir ]]; then
		printf '%s\n' "$_rsweep_datadir"
		return
	fi
	bin=$(type -P "$1" 2>/dev/null) || return
	printf '%s\n' "${bin%/*}/../share/rsweep"
}

# Installed files of kind $2 (sweep, plot) as bare names, for rsweep $1.
_rsweep_installed()
{
	local dir f
	dir=$(_rsweep_data "$1") || return
	for f in "$dir/${2}s/"*."$2" "$dir/"*."$2"; do
		[[ -f $f ]] || continue
		f=${f##*/}
		printf '%s\n' "${f%."$2"}"
	done
}

# Files ending in .$1 (any file when $1 is empty) and directories.
_rsweep_files()
{
	compopt -o filenames 2>/dev/null
	if [[ -n $1 ]]; then
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X "!*.$1" -- "$cur")
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
	else
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
	fi
}

# A comma-separated list of test names: complete the last item.
_rsweep_test_list()
{
	local head='' last=$cur t
	if [[ $cur == *,* ]]; then
		head=${cur%,*},
		last=${cur##*,}
	fi
	compopt -o nospace 2>/dev/null
	for t in $_rsweep_tests; do
		[[ $t == "$last"* ]] && COMPREPLY+=("$head$t")
	done
}

_rsweep()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local bin=${COMP_WORDS[0]} cmd i opt eq long short arg choices optlines
	COMPREPLY=()

	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(_rsweep_commands "$bin") help --help --version" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [[ $cmd == help ]]; then
		((COMP_CWORD == 2)) &&
			COMPREPLY=($(compgen -W "$(_rsweep_commands "$bin")" -- "$cur"))
		return
	fi
	[[ $cmd == -* ]] && return
	# After "run ... --" comes a command for Redis: nothing to offer.
	for ((i = 2; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] && return
	done
	optlines=$(_rsweep_options "$bin" "$cmd")
	[[ -n $optlines ]] || return

	# "--opt=value" arrives as "--opt" "=" "value" (= breaks words).
	opt='' eq=''
	if [[ $cur == = ]]; then
		opt=$prev eq=1
		cur=
	elif [[ $prev == = && COMP_CWORD -ge 3 ]]; then
		opt=${COMP_WORDS[COMP_CWORD-2]} eq=1
	elif [[ $prev == -* ]]; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		while read -r long short arg choices; do
			[[ $opt == "--$long" || $opt == "-$short" ]] || continue
			[[ $arg == - ]] && break        # a flag: on to the next word
			# An optional argument is only ever "--opt=value".
			[[ $arg == \[* && -z $eq ]] && break
			if [[ $choices != - ]]; then
				COMPREPLY=($(compgen -W "$choices" -- "$cur"))
				return
			fi
			case $long in
			tests) _rsweep_test_list ;;
			sweep)
				COMPREPLY=($(compgen -W "$(_rsweep_installed "$bin" sweep)" -- "$cur"))
				_rsweep_files sweep
				;;
			plot)
				COMPREPLY=($(compgen -W "$(_rsweep_installed "$bin" plot)" -- "$cur"))
				_rsweep_files plot
				;;
			host)
				if declare -F _known_hosts_real >/dev/null; then
					_known_hosts_real -- "$cur"
				else
					COMPREPLY=($(compgen -A hostname -- "$cur"))
				fi
				;;
			output | socket | font | spawn) _rsweep_files "" ;;
			esac
			return
		done <<<"$optlines"
	fi

	if [[ $cur == -* ]]; then
		local words=
		while read -r long short arg choices; do
			words+=" --$long"
			[[ $short != - ]] && words+=" -$short"
		done <<<"$optlines"
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	case $cmd in
	plot | report | export) _rsweep_files csv ;;
	import) _rsweep_files "" ;;
	esac
}

complete -F _rsweep rsweep
