package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"hivearbiter/ci"
	"hivearbiter/internal/cli"
	"hivearbiter/pool"
	"hivearbiter/pool/artifact"
)

const submitUsage = `submit -creds FILE [-wait] [-priority N] [-share W] [-platform OS/ARCH,...] [match flags]

Hands a run to a pool's server (arbiter server): an SPRT test, a match or a gauntlet, with
the flags or the -config file of "arbiter match" (see arbiter match -h). Each engine is
uploaded to the pool as an artifact: a program file, or with dir= its whole directory (the
command then runs inside it: dir=bot cmd=python3 arg=bot.py). Workers fetch it, check its
SHA-256 and run it; a worker runs only the runs whose artifacts its platform and runtimes
(python3, node) can run. The engines are also started once here to read their id lines.
The run's records are the server's: DIR/runs/RUN.jsonl, read by arbiter stats.
Runs of a higher -priority get the workers first; runs of one priority share them by -share.
With -wait it follows the run (a line as its games come: W/D/L, Elo, LLR) and exits as
arbiter match does: 0 when it finished (H1 accepted, with an SPRT), 3 when the SPRT accepted
H0, 4 at its cap with no decision, 5 when engine failures stopped it, 1 when it failed, 130
when it was stopped (or -wait interrupted: the run goes on in the pool).
"arbiter submit tune" hands the pool a tune instead (see arbiter submit tune -h).`

func runSubmit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "tune" {
		return runSubmitTune(ctx, args[1:], stdout, stderr)
	}
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("submit", submitUsage, stderr)
	var place pool.SubmitFlags
	bindSubmission(fs, &place, false)
	wait := fs.Bool("wait", false, "follow the run until it ends, and exit with its code as arbiter match does")
	flags := bindMatch(fs)
	if err := parseMatch(fs, flags, rest); err != nil {
		return err
	}
	if err := place.Validate(); err != nil {
		return cli.Usage(err)
	}
	r, err := flags.Run(groups, builtinResolver)
	if err != nil {
		return cli.Usage(err)
	}
	cfg, err := r.Config(builtinResolver)
	if err != nil {
		return cli.Usage(err)
	}
	if err := locateEngines(cfg.Engines); err != nil {
		return err
	}
	if err := cfg.Normalize(); err != nil {
		return cli.Usage(err)
	}
	sub := place.Submission()
	sub.Config = cfg
	if err := sub.ReadOpenings(); err != nil {
		return cli.Usage(err)
	}
	if err := sub.Identify(ctx); err != nil {
		return playError(err) // every engine that does not start, named at once (exit code 5)
	}
	st, c, err := submit(ctx, &place, sub)
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(stdout, "Run %s submitted: %d games (%s); its records: %s on the server\n", st.ID, st.Scheduled, st.Format, st.Records)
	pool.WriteFit(stdout, st)
	if !*wait {
		return nil
	}
	return followRun(ctx, c, st.ID, followInterval, stdout)
}

// followInterval is how often submit -wait asks for its run's state.
var followInterval = time.Second

// followRun follows a run until it ends, a line each time its games change, and returns its
// exit status (runExit).
func followRun(ctx context.Context, c *pool.Client, id string, every time.Duration, stdout io.Writer) error {
	st, err := c.Follow(ctx, id, every, func(st pool.RunState) {
		fmt.Fprintf(stdout, "Run %s %s\n", id, pool.View(st).ProgressText())
	})
	if ctx.Err() != nil {
		return cli.Exit(ci.ExitInterrupted, "stopped waiting: run %s goes on in the pool (arbiter server runs shows it)", id)
	}
	if err != nil {
		return err
	}
	return runExit(st)
}

// runExit is the exit status of a run that is over, as arbiter match gives it for a local run.
func runExit(st *pool.RunState) error {
	switch st.State {
	case pool.StateFailed:
		return cli.Exit(ci.ExitFailure, "run %s failed: %s", st.ID, st.Reason)
	case pool.StateStopped:
		return cli.Exit(ci.ExitInterrupted, "run %s was stopped: %s", st.ID, st.Reason)
	}
	s := st.Summary
	if s == nil {
		return nil
	}
	switch s.Status {
	case "strict-stop", "engine-failing":
		return cli.Exit(ci.ExitEngines, "run %s: %s", st.ID, st.Reason)
	}
	if s.Games > 0 && s.FaultGames() == s.Games {
		return cli.Exit(ci.ExitEngines, "every one of the %d games of run %s ended by an engine's failure, so the run informs of nothing: arbiter stats of its records lists them", s.Games, st.ID)
	}
	if s.SPRT != nil {
		return decisionExit(s.SPRT.Decided())
	}
	return nil
}

// submit hands a submission to the pool's server, its engines uploaded as artifacts, and
// returns the run's state and the connection to the server, for the caller to follow the run
// on and close.
func submit(ctx context.Context, place *pool.SubmitFlags, sub *pool.Submission) (*pool.RunState, *pool.Client, error) {
	token, err := place.Token()
	if err != nil {
		return nil, nil, cli.Usage(err)
	}
	sub.Token = token
	c, err := poolClient("", pool.RoleSubmitter, place.Creds)
	if err != nil {
		return nil, nil, err
	}
	st, err := c.SubmitEngines(ctx, sub)
	if errors.As(err, new(*artifact.LeftBehindError)) {
		// A run that cannot travel to the workers (an engine's script that needs files beside
		// it) is the submitter's to fix: a usage error.
		err = cli.Usage(fmt.Errorf("%w: nothing was submitted", err))
	}
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return st, c, nil
}
