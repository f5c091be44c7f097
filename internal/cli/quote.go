package cli

import "strings"

// Quote writes a word so that a POSIX shell, bash, zsh and fish each read it back as that one
// word: as it is when it holds only letters, digits and -_=./+:,@ (and does not start with =,
// which zsh expands), else in single quotes, each single quote in it closed, double-quoted and
// reopened ('"'"'), which all four read alike.
func Quote(word string) string {
	if word != "" && word[0] != '=' && strings.Trim(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./+:,@") == "" {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'"'"'`) + "'"
}

// QuoteArgs writes arguments back as a shell command line, each as Quote writes it: the
// command that resumes a run, or a match command to paste.
func QuoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}
