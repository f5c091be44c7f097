#compdef prog
# zsh completion for prog: source <(prog completion zsh), or save it as _prog in a
# folder of $fpath. Made by "prog completion zsh".
_prog() {
	local cmd=${words[2]} cur=${words[CURRENT]} i
	local -a cands flags
	if ((CURRENT == 2)); then
		cands=('play:play games' 'stats:recompute a file'"'"'s tables' 'about:say what prog'"'"'s for' 'completion:write a script that completes commands, flags and their words: bash, zsh or fish' )
		_describe command cands
		compadd -- -h -version
		return
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
		play) flags=('-engine:an engine (key=value words)' '-out:write the records to this file' '-rounds:rounds to play' ) ;;
		stats) flags=('-json:also write JSON to this file' ) ;;
		esac
		_describe flag flags
	elif ((${#cands})) && [[ $cur != *=* ]]; then
		compadd -S '' -- ${(M)cands:#*[=.]}
		compadd -- ${cands:#*[=.]}
	elif ((${#cands})) && [[ -n ${(M)cands:#$cur*} ]]; then
		compadd -- ${(M)cands:#$cur*}
	else
		compset -P '*='
		_files
	fi
}
if [[ $funcstack[1] == _prog ]]; then
	_prog "$@"
else
	compdef _prog prog
fi
