package main

import (
	"context"
	"fmt"
	"io"

	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/pool"
)

const submitUsage = `submit -creds FILE [-priority N] [-share W] [-platform OS/ARCH,...] [match flags]

Hands a run to a pool's server (arbiter server): an SPRT test, a match or a gauntlet, with
the flags or the -config file of "arbiter match" (see arbiter match -h). Each engine is
uploaded to the pool as an artifact: a program file, or with dir= its whole directory (the
command then runs inside it: dir=bot cmd=python3 arg=bot.py). Workers fetch it, check its
SHA-256 and run it; a worker runs only the runs whose artifacts its platform and runtimes
(python3, node) can run. The engines are also started once here to read their id lines.
The run's records are the server's: DIR/runs/RUN.jsonl, read by arbiter stats.
Runs of a higher -priority get the workers first; runs of one priority share them by -share.
"arbiter submit tune" hands the pool a tune instead (see arbiter submit tune -h).`

func runSubmit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "tune" {
		return runSubmitTune(ctx, args[1:], stdout, stderr)
	}
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("submit", submitUsage, stderr)
	var place pool.SubmitFlags
	place.Register(fs, false)
	var flags configs.Flags
	flags.Register(fs)
	if err := cli.Parse(fs, flags.Respell(rest)); err != nil {
		return err
	}
	if place.Creds == "" {
		return cli.Usage(pool.ErrNoCreds)
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
	st, err := submit(ctx, &place, sub)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Run %s submitted: %d games (%s); its records: %s on the server\n", st.ID, st.Scheduled, st.Format, st.Records)
	return nil
}

// submit hands a submission to the pool's server, its engines uploaded as artifacts.
func submit(ctx context.Context, place *pool.SubmitFlags, sub *pool.Submission) (*pool.RunState, error) {
	token, err := place.Token()
	if err != nil {
		return nil, cli.Usage(err)
	}
	sub.Token = token
	c, err := poolClient("", pool.RoleSubmitter, place.Creds)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.SubmitEngines(ctx, sub)
}
