package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// ErrHelpShown ends a command after its -h text was printed: the command succeeded.
var ErrHelpShown = errors.New("help shown")

// helpShown is the ErrHelpShown that Parse returns: it carries the command's flags, which
// Program.Completion reads.
type helpShown struct{ fs *flag.FlagSet }

func (*helpShown) Error() string        { return ErrHelpShown.Error() }
func (*helpShown) Is(target error) bool { return target == ErrHelpShown }

// NewFlagSet returns a FlagSet for the subcommand name of program whose errors are returned,
// not fatal, and whose -h text starts with "Usage: PROGRAM " and usage.
func NewFlagSet(program, name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(program+" "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s %s\n\nFlags:\n", program, usage)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses a subcommand's flags, which may come before, between or after its
// positional arguments (arbiter report games.jsonl -o r.html), as in most commands users
// know; "--" ends the flags, so that a file whose name starts with '-' can follow it. The
// positional arguments are then fs.Args(). -h prints usage and returns ErrHelpShown. A
// mistake is a UsageError of one sentence that names the flag and where the help is, not
// the whole help text, which would bury it.
func Parse(fs *flag.FlagSet, args []string) error {
	flags, positional := splitFlags(fs, args)
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(flags)
	if err == nil {
		// Parsing "--" and the positional arguments makes them fs.Args(), and sets no flag.
		err = fs.Parse(append([]string{"--"}, positional...))
	}
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return &helpShown{fs}
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg = "unknown flag " + name
	} else if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		msg = name + " needs a value"
	} else if m := invalidFlagValue.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("%s %s: not a valid value (%s)", m[2], m[1], m[3])
	}
	return UsageError{Err: fmt.Errorf("%s; %s -h lists the flags", msg, fs.Name())}
}

// splitFlags separates the flags (each with its value) from the positional arguments, as the
// flag package would read them if every flag came first. A word after "--", and "-" alone
// (standard input, by custom), is positional; a flag that fs does not define is left for
// Parse to refuse.
func splitFlags(fs *flag.FlagSet, args []string) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(positional, args[i+1:]...)
		case len(a) < 2 || a[0] != '-':
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if hasValue || f == nil || isBoolFlag(f) || i+1 == len(args) {
			continue
		}
		i++
		flags = append(flags, args[i]) // the flag's value, whatever it looks like
	}
	return flags, positional
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// invalidFlagValue matches the flag package's error for a value it cannot parse.
var invalidFlagValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?(-\S+): (.*)$`)

// SplitMultiWord separates the multi-word flags named in multi, which take the key=value
// words that follow them (as fastchess and cutechess-cli do), from the ordinary ones. groups
// holds each multi-word flag's words by its name (without the '-'), one list per use; after
// "--" every word is an ordinary one.
func SplitMultiWord(args []string, multi ...string) (rest []string, groups map[string][][]string) {
	groups = make(map[string][][]string)
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			return append(rest, args[i:]...), groups
		}
		name := strings.TrimLeft(args[i], "-")
		if !strings.HasPrefix(args[i], "-") || !slices.Contains(multi, name) {
			rest = append(rest, args[i])
			continue
		}
		var words []string
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && strings.Contains(args[i+1], "=") {
			i++
			words = append(words, args[i])
		}
		groups[name] = append(groups[name], words)
	}
	return rest, groups
}

// OverrideString sets *dst to a flag's value when the flag was given (not empty), so that
// the command line overrides a configuration file.
func OverrideString(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}
