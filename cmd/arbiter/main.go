// Command arbiter plays UHP Hive engines against each other, referees every move and reports
// the results. Run "arbiter -h" for the list of subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"hivearbiter/arbiter"
)

func main() { os.Exit(runProcess(os.Args[1:])) }

// runProcess is the whole process: Ctrl-C and SIGTERM (what a cancelled CI job sends) cancel
// the run's context, so that a match stops cleanly, and the error becomes the exit status.
func runProcess(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			// At the end, done is closed before the deferred stop cancels ctx; a goroutine that
			// had not reached the select by then sees both, and must not announce a stop.
			select {
			case <-done:
				return
			default:
			}
			// Stopping takes a moment (engines are asked to exit); a second signal, with the
			// default handling restored, ends the process at once. Finished games are on disk.
			stop()
			fmt.Fprintln(os.Stderr, "arbiter: stopping; a second Ctrl-C or SIGTERM quits at once")
		case <-done:
		}
	}()
	return exitCode(run(ctx, args, os.Stdout, os.Stderr), os.Stderr)
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
	{name: "check", summary: "check that an engine speaks its protocol as the arbiter needs", run: runCheck},
	{name: "stats", summary: "recompute every table from game records (several files merge)", run: runStats},
	{name: "report", summary: "write an HTML report of game records: charts and every game replayable", run: runReport},
	{name: "sprt-calc", summary: "compute an SPRT's LLR, bounds and Elo lines from counts", run: runSPRTCalc},
	{name: "config", summary: "print an example configuration: arbiter config show match (or list)", run: runConfig},
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
	case "-version", "--version", "-v", "version":
		fmt.Fprintf(stdout, "Hive Arbiter %s\n", arbiter.Version)
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
	fmt.Fprintln(w, `Run "arbiter <command> -h" for the flags of a command, "arbiter -version" for the version.`)
}

// usageError marks a mistake in the command line or configuration (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCode maps the error a command returned to the process exit status, printing it.
func exitCode(err error, stderr io.Writer) int {
	var ue usageError
	if ee, ok := asExitError(err); ok {
		if ee.msg != "" {
			printError(stderr, ee.msg)
		}
		return ee.code
	}
	switch {
	case err == nil, errors.Is(err, errHelpShown):
		return exitOK
	case errors.As(err, &ue):
		printError(stderr, message(err))
		return exitUsage
	default:
		printError(stderr, message(err))
		return exitFailure
	}
}

// printError prints an error's message, each line after "arbiter: ".
func printError(w io.Writer, msg string) {
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintln(w, "arbiter:", line)
	}
}

// message is an error as a user reads it, one problem a line. An error that can say itself
// without its package's name (a Message method: configs.Error, arbiter.ConfigError,
// results.LockedError, ...) is shown so: a package's name tells a programmer where an error
// came from, and only stutters after "arbiter: ".
func message(err error) string {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range joined.Unwrap() {
			lines = append(lines, message(e))
		}
		return strings.Join(lines, "\n")
	}
	switch e := err.(type) {
	case usageError:
		return message(e.err)
	case interface{ Message() string }:
		return e.Message()
	}
	return err.Error()
}
