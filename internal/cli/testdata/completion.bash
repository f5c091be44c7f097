# bash completion for prog: source <(prog completion bash), or save it in
# ~/.local/share/bash-completion/completions/prog. Made by "prog completion bash".
_prog() {
	local line=${COMP_LINE:0:COMP_POINT} cur cmd i
	local -a words cands=()
	read -ra words <<<"$line"
	[[ $line == *[[:space:]] || ${#words[@]} == 0 ]] && words+=("")
	cur=${words[${#words[@]}-1]}
	if ((${#words[@]} <= 2)); then
		cands=(play stats about completion -h -version)
	else
		cmd=${words[1]}
		for ((i = ${#words[@]} - 2; i > 1; i--)); do
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
	fi
	COMPREPLY=()
	local c
	for c in "${cands[@]}"; do
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
