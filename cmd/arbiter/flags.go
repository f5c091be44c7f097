package main

import (
	"flag"
	"io"

	"hivearbiter/internal/cli"
)

// newFlagSet returns a FlagSet for a subcommand (see cli.NewFlagSet).
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlagSet(programName, name, usage, stderr)
}

// multiWordFlags take the key=value words that follow them, as fastchess and cutechess-cli do.
var multiWordFlags = []string{"engine", "each", "openings", "sprt"}

// splitMultiWord separates the multi-word flags from the ordinary ones (see cli.SplitMultiWord).
func splitMultiWord(args []string) (rest []string, groups map[string][][]string) {
	return cli.SplitMultiWord(args, multiWordFlags...)
}
