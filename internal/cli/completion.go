package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/template"
)

// Completion is what a shell needs to complete a program's command lines: its commands, each
// command's flags, and the key=value words that follow a flag taking several (-engine).
type Completion struct {
	Program  string
	Commands []CommandCompletion
	// Words are the words a multi-word flag takes, by flag name: a key that wants a value
	// ends in "=" ("cmd="); a whole word names a value that is known ("proto=uhp").
	Words map[string][]string
}

// CommandCompletion is one command and its flags.
type CommandCompletion struct {
	Name, Summary string
	Flags         []FlagCompletion
}

// FlagCompletion is a flag: its name without the dash, and its usage's first line.
type FlagCompletion struct{ Name, Usage string }

// Completion reads the flags of each listed command from its own FlagSet: it runs the command
// with -h, its output discarded, and takes the FlagSet that Parse returns with ErrHelpShown.
// A command that parses no flags through Parse is listed without flags; every listed command
// must stop at -h, before doing anything. words is Completion.Words.
func (p *Program) Completion(ctx context.Context, words map[string][]string) Completion {
	c := Completion{Program: p.Name, Words: words}
	for _, cmd := range p.Commands {
		if cmd.Hidden {
			continue
		}
		cc := CommandCompletion{Name: cmd.Name, Summary: cmd.Summary}
		var hs *helpShown
		if err := cmd.Run(ctx, []string{"-h"}, io.Discard, io.Discard); errors.As(err, &hs) {
			hs.fs.VisitAll(func(f *flag.Flag) {
				_, usage := flag.UnquoteUsage(f)
				usage, _, _ = strings.Cut(usage, "\n")
				cc.Flags = append(cc.Flags, FlagCompletion{Name: f.Name, Usage: usage})
			})
		}
		c.Commands = append(c.Commands, cc)
	}
	if p.CompletionWords != nil {
		c.Commands = append(c.Commands, CommandCompletion{Name: completionCommand, Summary: completionSummary})
	}
	return c
}

// completionSummary is the completion command's line in the usage text.
const completionSummary = "write a script that completes commands, flags and their words: bash, zsh or fish"

// runCompletion is the completion command: "PROGRAM completion SHELL".
func (p *Program) runCompletion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := NewFlagSet(p.Name, completionCommand, completionCommand+" bash|zsh|fish\n\n"+
		"Writes a script that completes "+p.Name+"'s commands, their flags, and the key=value words\n"+
		"of -engine and its kin, for the shell named. The script's first lines say how to load it.", stderr)
	if err := Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return Usage(fmt.Errorf("give one shell: %s", strings.Join(Shells, ", ")))
	}
	return WriteCompletion(stdout, fs.Arg(0), p.Completion(ctx, p.CompletionWords()))
}

// Shells are the shells WriteCompletion writes scripts for.
var Shells = []string{"bash", "fish", "zsh"}

// WriteCompletion writes c as a completion script for shell, one of Shells; another shell is a
// UsageError.
func WriteCompletion(w io.Writer, shell string, c Completion) error {
	t := completionScripts.Lookup(shell)
	if t == nil || !slices.Contains(Shells, shell) {
		return Usage(fmt.Errorf("no completion for the shell %q: want %s", shell, strings.Join(Shells, ", ")))
	}
	return t.Execute(w, c)
}

// WordGroup is flags that take the same words.
type WordGroup struct{ Flags, Words []string }

// WordGroups are the multi-word flags grouped by the words they take, in the order of their
// first flag's name, for the scripts' case branches.
func (c Completion) WordGroups() []WordGroup {
	var groups []WordGroup
	for _, name := range slices.Sorted(maps.Keys(c.Words)) {
		i := slices.IndexFunc(groups, func(g WordGroup) bool { return slices.Equal(g.Words, c.Words[name]) })
		if i < 0 {
			groups = append(groups, WordGroup{Words: c.Words[name]})
			i = len(groups) - 1
		}
		groups[i].Flags = append(groups[i].Flags, name)
	}
	return groups
}

// completionScripts holds a template per shell, named after it, executed on a Completion.
var completionScripts = template.Must(template.New("").Funcs(template.FuncMap{
	"join":  strings.Join,
	"quote": Quote,
	// dashed is the flags as a shell's case pattern: -engine | --engine | -each | --each.
	"dashed": func(names []string) string {
		alts := make([]string, 0, 2*len(names))
		for _, n := range names {
			alts = append(alts, "-"+n, "--"+n)
		}
		return strings.Join(alts, " | ")
	},
	"flags": func(fs []FlagCompletion) string {
		names := make([]string, len(fs))
		for i, f := range fs {
			names[i] = "-" + f.Name
		}
		return strings.Join(names, " ")
	},
}).Parse(bashScript + wordsOfFlag + zshScript + fishScript))
