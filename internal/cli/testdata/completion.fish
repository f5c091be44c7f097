# fish completion for prog: prog completion fish | source, or save it as
# ~/.config/fish/completions/prog.fish. Made by "prog completion fish".

# __prog_after FLAGS...: the word being completed follows one of FLAGS and only key=value
# words after it.
function __prog_after
	set -l tokens (commandline -opc)
	for i in (seq (count $tokens) -1 3)
		string match -q -- '*=*' $tokens[$i]; and continue
		contains -- $tokens[$i] $argv; and return 0
		return 1
	end
	return 1
end

complete -c prog -n __fish_use_subcommand -o h -d 'show the commands'
complete -c prog -n __fish_use_subcommand -o version -d 'show the version'
complete -c prog -f -n __fish_use_subcommand -a play -d 'play games'
complete -c prog -f -n __fish_use_subcommand -a stats -d 'recompute a file'"'"'s tables'
complete -c prog -f -n __fish_use_subcommand -a about -d 'say what prog'"'"'s for'
complete -c prog -f -n __fish_use_subcommand -a completion -d 'write a script that completes commands, flags and their words: bash, zsh or fish'
complete -c prog -n '__fish_seen_subcommand_from play' -o engine -d 'an engine (key=value words)'
complete -c prog -n '__fish_seen_subcommand_from play' -o out -d 'write the records to this file'
complete -c prog -n '__fish_seen_subcommand_from play' -o rounds -d 'rounds to play'
complete -c prog -n '__fish_seen_subcommand_from stats' -o json -d 'also write JSON to this file'
complete -c prog -n '__prog_after -each --each -engine --engine' -a 'cmd= name= option. proto=uhp proto=ugi'
