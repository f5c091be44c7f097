package cli

import (
	"flag"
	"fmt"
	"time"
)

// Bind defines on fs the flag name that sets *setting, whose value at that moment is the
// flag's default, so that a package's settings struct, filled with its defaults, is the one
// place they are written. setting points to a string, bool, int, int64, float64 or
// time.Duration, or is a func(string) error called with each value given; any other is a
// programming error, and Bind panics.
func Bind(fs *flag.FlagSet, name string, setting any, usage string) {
	switch p := setting.(type) {
	case *string:
		fs.StringVar(p, name, *p, usage)
	case *bool:
		fs.BoolVar(p, name, *p, usage)
	case *int:
		fs.IntVar(p, name, *p, usage)
	case *int64:
		fs.Int64Var(p, name, *p, usage)
	case *float64:
		fs.Float64Var(p, name, *p, usage)
	case *time.Duration:
		fs.DurationVar(p, name, *p, usage)
	case func(string) error:
		fs.Func(name, usage, p)
	default:
		panic(fmt.Sprintf("cli.Bind: flag -%s: a setting of type %T", name, setting))
	}
}

// Words is the setting of a multi-word flag (-engine cmd=PROG name=N), bound for its -h text:
// its words are taken out of the command line by SplitMultiWord before the FlagSet parses it.
func Words(string) error { return nil }

// Append is the setting of a repeatable flag: each value given is appended to *list.
func Append(list *[]string) func(string) error {
	return func(v string) error {
		*list = append(*list, v)
		return nil
	}
}

// Given returns the names of the flags set on fs's command line, for settings that a flag
// overrides only when given (a configuration file's, say).
func Given(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}
