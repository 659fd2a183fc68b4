# bash completion for hoplab (installed as
# PREFIX/share/bash-completion/completions/hoplab).
#
# Completes the command, the global options, each command's own options
# and actions, and file names where a command takes a plan, a folder or
# a file.  The lists follow `hoplab --help` and `hoplab COMMAND --help`
# (tests/integration/t_man.sh checks that every option they print is here).

_hoplab()
{
	local cur prev words cword cmd i
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD-1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	local globals="-h --help -i --inventory --insecure -k --mgmt-net
	    -o --output -p --prefix -q --quiet -v --verbose -V --version"
	local commands="lab agents run attach demo link report keygen deploy
	    undeploy"

	case $prev in
	-i | --inventory | -s | --ssh-key)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-o | --output | -k | --keys | --prefix | --resume)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--plan)
		COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") \
		    $(compgen -d -- "$cur"))
		return ;;
	esac

	cmd=
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-i | --inventory | -k | --mgmt-net | -o | --output | -p | \
		    --prefix)
			((i++)) ;;
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done

	local opts=
	case $cmd in
	"")
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$globals" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		fi
		return ;;
	lab) opts="up down status --plan" ;;
	run) opts="--dry-run --json --json-stream --lab --resume" ;;
	report) opts="-n --no-plots --json" ;;
	link) opts="set counters a-b b-a --at" ;;
	deploy) opts="--allow-exec -b --build-on-target --deb -I --insecure
	    --insecure-on-network
	    -i --inventory -k --keys --prefix -P --ssh-port -s --ssh-key
	    -t --timeout" ;;
	undeploy) opts="-i --inventory --prefix -P --ssh-port -s --ssh-key" ;;
	esac
	if [[ $cur == -* || $cmd == lab || $cmd == link ]]; then
		COMPREPLY=($(compgen -W "$opts $globals" -- "$cur"))
	fi
	case $cmd in
	run | attach | report | keygen)
		[[ $cur == -* ]] || COMPREPLY+=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _hoplab -o filenames hoplab
