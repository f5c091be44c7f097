// Package cli is the command-line plumbing of a program made of subcommands, such as
// arbiter: a subcommand table and its dispatch, FlagSets whose flags may follow the
// positional arguments, flags that take several key=value words, flags bound to the fields
// of a package's settings struct (Bind), and errors that carry an exit code and print as a
// user reads them (one problem a line, after the program's name).
//
// It holds no policy of the arbiter's: which subcommands exist, what their flags mean and
// which error maps to which exit code are the command's (cmd/arbiter).
package cli
