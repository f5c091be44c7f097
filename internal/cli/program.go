package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Command is one subcommand of a program.
type Command struct {
	Name    string
	Summary string // one line, in the program's usage text
	Hidden  bool   // not listed in the usage text
	Run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// Program is a command made of subcommands: "PROGRAM COMMAND [flags]".
type Program struct {
	Name    string
	Version string // what -version prints, a line
	About   string // the usage text's paragraph between its first line and the commands
	// Default is the command run when none is given.
	Default  string
	Commands []Command // in the order the usage text lists them
	// CompletionWords, when set, adds the command "completion bash|zsh|fish", which writes a
	// shell's completion script (see Completion); it returns Completion.Words.
	CompletionWords func() map[string][]string
}

// completionCommand is the command that CompletionWords adds.
const completionCommand = "completion"

// Run runs the command that args name with the rest of args: the Default command when args
// is empty; -h and -version print the program's usage and version. An unknown command is a
// UsageError, after the usage text on stderr.
func (p *Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name := p.Default
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	switch name {
	case "-h", "-help", "--help", "help":
		p.WriteUsage(stdout)
		return nil
	case "-version", "--version", "-v", "version":
		fmt.Fprintln(stdout, p.Version)
		return nil
	}
	for _, c := range p.Commands {
		if c.Name == name {
			return c.Run(ctx, args, stdout, stderr)
		}
	}
	if name == completionCommand && p.CompletionWords != nil {
		return p.runCompletion(ctx, args, stdout, stderr)
	}
	p.WriteUsage(stderr)
	return UsageError{Err: fmt.Errorf("unknown command %q", name)}
}

// WriteUsage writes the program's usage text: its first line, About, and the commands that
// are not hidden with their summaries.
func (p *Program) WriteUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s [command] [flags]\n\n%s\n\nCommands:\n", p.Name, strings.TrimSuffix(p.About, "\n"))
	for _, c := range p.Commands {
		if !c.Hidden {
			fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Summary)
		}
	}
	if p.CompletionWords != nil {
		fmt.Fprintf(w, "  %-10s %s\n", completionCommand, completionSummary)
	}
	fmt.Fprintf(w, "\nRun \"%[1]s <command> -h\" for the flags of a command, \"%[1]s -version\" for the version.\n", p.Name)
}
