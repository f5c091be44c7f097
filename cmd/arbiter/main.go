// Command arbiter plays UHP Hive engines against each other, referees every move and reports
// the results. Run "arbiter -h" for the list of subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// command is one subcommand of the arbiter binary.
type command struct {
	name    string
	summary string
	hidden  bool // not listed in the usage text
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists every subcommand, in the order the usage text shows them.
var commands = []command{
	{name: "demo", summary: "play the embedded demo match (what \"arbiter\" alone runs)", run: runDemo},
	{name: "match", summary: "play a match, gauntlet or round-robin between UHP engines", run: runMatch},
	{name: "serve", summary: "be a UHP engine for a viewer, refereeing two engines (watch or play)", run: runServe},
	{name: "worker", summary: "play the game pairs of a run served by arbiter match -listen or -nats", run: runWorker},
	{name: "workers", summary: "show the workers of a served run, their games and statistics", run: runWorkers},
	{name: "check", summary: "check that an engine speaks UHP as the arbiter needs", run: runCheck},
	{name: "stats", summary: "recompute every table from game records (several files merge)", run: runStats},
	{name: "report", summary: "write an HTML report of game records: charts and every game replayable", run: runReport},
	{name: "sprt-calc", summary: "compute an SPRT's LLR, bounds and Elo lines from counts", run: runSPRTCalc},
	{name: "perft", summary: "count the move tree of a position (checks and times the referee)", run: runPerft},
	{name: "hivebot", summary: "run the bundled engine on stdin/stdout (as builtin=hivebot does)", hidden: true, run: runHivebot},
}

// run dispatches to a subcommand. It is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runDemo(ctx, nil, stdout, stderr)
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		printUsage(stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	printUsage(stderr)
	return usageError{fmt.Errorf("unknown command %q", name)}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: arbiter [command] [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Hive Arbiter plays UHP Hive engines against each other, referees every move and")
	fmt.Fprintln(w, "reports Elo, SPRT verdicts and exit codes a CI job can gate on. With no command it")
	fmt.Fprintln(w, "plays a short demo match between two profiles of the bundled engine, hivebot.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		if !c.hidden {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "arbiter <command> -h" for the flags of a command.`)
}

// usageError marks a mistake in the command line or configuration (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// newFlagSet returns a FlagSet for a subcommand whose errors are returned, not fatal,
// and whose -h text starts with the given usage line.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: arbiter %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses a subcommand's flags; -h prints usage and ends the command successfully.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelpShown
		}
		return usageError{err}
	}
	return nil
}

// errHelpShown ends a command after its -h text was printed.
var errHelpShown = errors.New("help shown")

// exitCode maps the error a command returned to the process exit status, printing it.
func exitCode(err error, stderr io.Writer) int {
	var ue usageError
	if ee, ok := asExitError(err); ok {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "arbiter:", ee.msg)
		}
		return ee.code
	}
	switch {
	case err == nil, errors.Is(err, errHelpShown):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "arbiter:", err)
		return exitUsage
	default:
		fmt.Fprintln(stderr, "arbiter:", err)
		return exitFailure
	}
}
