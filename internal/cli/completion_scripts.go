package cli

// The scripts share one logic: the first word completes to a command, a word starting with
// "-" to the command's flags, and a word after a multi-word flag (and any key=value words
// that follow it) to that flag's words; anything else is left to the shell's file names.

const bashScript = `{{define "bash"}}# bash completion for {{.Program}}: source <({{.Program}} completion bash), or save it in
# ~/.local/share/bash-completion/completions/{{.Program}}. Made by "{{.Program}} completion bash".
_{{.Program}}() {
	local line=${COMP_LINE:0:COMP_POINT} cur cmd i CURRENT
	local -a words cands=()
	read -ra words <<<"$line"
	[[ $line == *[[:space:]] || ${#words[@]} == 0 ]] && words+=("")
	words=("" "${words[@]}") # numbered from 1, as zsh numbers them
	CURRENT=$((${#words[@]} - 1)) cmd=${words[2]}
	cur=${words[CURRENT]}
	if ((CURRENT == 2)); then
		_{{.Program}}_reply "$cur" {{range .Commands}}{{.Name}} {{end}}-h -version
		return 0
	fi
{{template "wordsOfFlag" .}}
	if [[ $cur == -* ]]; then
		case $cmd in
{{- range .Commands}}{{if .Flags}}
		{{.Name}}) cands=({{flags .Flags}}) ;;{{end}}{{end}}
		esac
	fi
	_{{.Program}}_reply "$cur" "${cands[@]}"
}

# _{{.Program}}_reply CUR WORDS...: the words that start with CUR become the replies.
_{{.Program}}_reply() {
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
complete -o default -F _{{.Program}} {{.Program}}
{{end}}`

// wordsOfFlag, in bash and zsh alike, sets cands to the words of the multi-word flag that the
// word being completed follows, past any key=value words after the flag.
const wordsOfFlag = `{{define "wordsOfFlag"}}	for ((i = CURRENT - 1; i > 2; i--)); do
		[[ ${words[i]} == *=* ]] && continue
		case ${words[i]} in
{{- range .WordGroups}}
		{{dashed .Flags}}) cands=({{join .Words " "}}) ;;
{{- end}}
		esac
		break
	done{{end}}`

const zshScript = `{{define "zsh"}}#compdef {{.Program}}
# zsh completion for {{.Program}}: source <({{.Program}} completion zsh), or save it as _{{.Program}} in a
# folder of $fpath. Made by "{{.Program}} completion zsh".
_{{.Program}}() {
	local cmd=${words[2]} cur=${words[CURRENT]} i
	local -a cands flags
	if ((CURRENT == 2)); then
		cands=({{range .Commands}}{{quote (printf "%s:%s" .Name .Summary)}} {{end}})
		_describe command cands
		compadd -- -h -version
		return
	fi
{{template "wordsOfFlag" .}}
	if [[ $cur == -* ]]; then
		case $cmd in
{{- range .Commands}}{{if .Flags}}
		{{.Name}}) flags=({{range .Flags}}{{quote (printf "-%s:%s" .Name .Usage)}} {{end}}) ;;{{end}}{{end}}
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
if [[ $funcstack[1] == _{{.Program}} ]]; then
	_{{.Program}} "$@"
else
	compdef _{{.Program}} {{.Program}}
fi
{{end}}`

const fishScript = `{{define "fish"}}# fish completion for {{.Program}}: {{.Program}} completion fish | source, or save it as
# ~/.config/fish/completions/{{.Program}}.fish. Made by "{{.Program}} completion fish".

# __{{.Program}}_after FLAGS...: the word being completed follows one of FLAGS and only key=value
# words after it.
function __{{.Program}}_after
	set -l tokens (commandline -opc)
	for i in (seq (count $tokens) -1 3)
		string match -q -- '*=*' $tokens[$i]; and continue
		contains -- $tokens[$i] $argv; and return 0
		return 1
	end
	return 1
end

complete -c {{.Program}} -n __fish_use_subcommand -o h -d 'show the commands'
complete -c {{.Program}} -n __fish_use_subcommand -o version -d 'show the version'
{{- range .Commands}}
complete -c {{$.Program}} -f -n __fish_use_subcommand -a {{.Name}} -d {{quote .Summary}}
{{- end}}
{{- range $c := .Commands}}{{range .Flags}}
complete -c {{$.Program}} -n '__fish_seen_subcommand_from {{$c.Name}}' -o {{.Name}} -d {{quote .Usage}}
{{- end}}{{end}}
{{- range .WordGroups}}
complete -c {{$.Program}} -n '__{{$.Program}}_after{{range .Flags}} -{{.}} --{{.}}{{end}}' -a {{quote (join .Words " ")}}
{{- end}}
{{end}}`
