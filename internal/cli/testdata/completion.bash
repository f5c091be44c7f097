# bash completion for prog: source <(prog completion bash), or save it in
# ~/.local/share/bash-completion/completions/prog. Made by "prog completion bash".
_prog() {
	local line=${COMP_LINE:0:COMP_POINT} cur cmd i CURRENT
	local -a words cands=()
	read -ra words <<<"$line"
	[[ $line == *[[:space:]] || ${#words[@]} == 0 ]] && words+=("")
	words=("" "${words[@]}") # numbered from 1, as zsh numbers them
	CURRENT=$((${#words[@]} - 1)) cmd=${words[2]}
	cur=${words[CURRENT]}
	if ((CURRENT == 2)); then
		_prog_reply "$cur" play stats about completion -h -version
		return 0
	fi
	for ((i = CURRENT - 1; i > 2; i--)); do
		[[ ${words[i]} == *=* ]] && continue
		case ${words[i]} in
		-each | --each | -engine | --engine) cands=(cmd= name= option. proto=uhp proto=ugi) ;;
		esac
		break
	done
	if [[ $cur == -* ]]; then
		case $cmd in
		play) cands=(-engine -out -rounds) ;;
		stats) cands=(-json) ;;
		esac
	fi
	_prog_reply "$cur" "${cands[@]}"
}

# _prog_reply CUR WORDS...: the words that start with CUR become the replies.
_prog_reply() {
	local cur=$1 c
	shift
	COMPREPLY=()
	for c; do
		[[ $c == "$cur"* ]] || continue
		# bash splits a word at "=" (COMP_WORDBREAKS): the reply is what follows the last "=".
		[[ $cur == *=* && $COMP_WORDBREAKS == *=* ]] && c=${c#"${cur%=*}="}
		COMPREPLY+=("$c")
	done
	# A key wants its value next: no space after cmd= or option.
	[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *[=.] ]] && compopt -o nospace
	return 0
}
complete -o default -F _prog prog
