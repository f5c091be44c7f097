// Command arbiter plays UHP Hive engines against each other, referees every move and reports
// the results. Run "arbiter -h" for the list of subcommands.
package main

import (
	"context"
	"errors"
	"io"
	"os"

	"hivearbiter/arbiter"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/internal/debugvars"
	"hivearbiter/internal/proc"
)

func main() {
	proc.Main() // on Windows a copy of the arbiter is its Ctrl-C sender
	os.Exit(runProcess(os.Args[1:]))
}

// runProcess is the whole process: Ctrl-C and SIGTERM (what a cancelled CI job sends) cancel
// the run's context, so that a match stops cleanly, and the error becomes the exit status.
// Finished games are on disk, so a second signal may end the process at once.
func runProcess(args []string) int {
	if len(args) > 0 && args[0] == "hivebot" {
		// builtin=hivebot: the engine takes SIGINT as UHP engines do, as the end of a search
		// (hivebot.Main), not of the process; the arbiter that started it stops it with exit.
		return exitCode(run(context.Background(), args, os.Stdout, os.Stderr), os.Stderr)
	}
	ctx, stop := cli.InterruptContext(context.Background(), os.Stderr, "arbiter: stopping; a second Ctrl-C or SIGTERM quits at once")
	defer stop()
	defer debugvars.Serve(os.Stderr, programName)()
	return exitCode(run(ctx, args, os.Stdout, os.Stderr), os.Stderr)
}

// arbiterProgram is the arbiter: its subcommands, in the order the usage text shows them.
var arbiterProgram = cli.Program{
	Name:    programName,
	Version: cli.VersionLine("Hive Arbiter", arbiter.Version),
	About: `Hive Arbiter plays UHP Hive engines against each other, referees every move and
reports Elo, SPRT verdicts and exit codes a CI job can gate on. With no command it
plays a short demo match between two profiles of the bundled engine, hivebot.`,
	Default: "demo",
	Commands: []cli.Command{
		{Name: "demo", Summary: "play the embedded demo match (what \"arbiter\" alone runs)", Run: runDemo},
		{Name: "match", Summary: "play a match, gauntlet or round-robin between UHP engines", Run: runMatch},
		{Name: "tune", Summary: "tune an engine's options with SPSA game pairs (resumable)", Run: runTune},
		{Name: "serve", Summary: "be a UHP engine for a viewer, refereeing two engines (watch or play)", Run: runServe},
		{Name: "worker", Summary: "play the game pairs of a run served by arbiter match -listen or -nats", Run: runWorker},
		{Name: "workers", Summary: "show the workers of a served run, their games and statistics", Run: runWorkers},
		{Name: "server", Summary: "keep a pool of runs for long-lived workers (and add or revoke workers)", Run: runServer},
		{Name: "submit", Summary: "hand a run (the flags of match) to a pool's server", Run: runSubmit},
		{Name: "list", Summary: "keep a standing rating list of engines: run, table, site, verify", Run: runList},
		{Name: "check", Summary: "check that an engine speaks its protocol as the arbiter needs", Run: runCheck},
		{Name: "stats", Summary: "recompute every table from game records (several files merge)", Run: runStats},
		{Name: "report", Summary: "write an HTML report of game records: charts and every game replayable", Run: runReport},
		{Name: "sprt-calc", Summary: "compute an SPRT's LLR, bounds and Elo lines from counts", Run: runSPRTCalc},
		{Name: "config", Summary: "print an example configuration: arbiter config show match (or list)", Run: runConfig},
		{Name: "openings", Summary: "generate an opening book, or list and show the books built in", Run: runOpenings},
		{Name: "perft", Summary: "count the move tree of a position (checks and times the referee)", Run: runPerft},
		{Name: "hivebot", Summary: "run the bundled engine on stdin/stdout (as builtin=hivebot does)", Hidden: true, Run: runHivebot},
	},
	CompletionWords: func() map[string][]string { return configs.CompletionWords("engine", "each") },
}

// programName begins every usage line and error message.
const programName = "arbiter"

// run dispatches to a subcommand. It is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return arbiterProgram.Run(ctx, args, stdout, stderr)
}

// exitCode maps the error a command returned to the process exit status, printing it.
func exitCode(err error, stderr io.Writer) int {
	code, msg := exitStatus(err)
	if msg != "" {
		cli.PrintError(stderr, programName, msg)
	}
	return code
}

// exitStatus is the exit status of the error a command returned, and its message ("" for
// none).
func exitStatus(err error) (code int, msg string) {
	var ee *cli.ExitError
	var ue cli.UsageError
	switch {
	case errors.As(err, &ee):
		return ee.Code, ee.Msg
	case err == nil, errors.Is(err, cli.ErrHelpShown):
		return ci.ExitOK, ""
	case errors.As(err, &ue):
		return ci.ExitUsage, cli.Message(err)
	}
	return ci.ExitFailure, cli.Message(err)
}
