package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"hivearbiter/configs"
	"hivearbiter/distributed"
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
	credsPath := fs.String("creds", "", "a submitter's credentials `file` (the server's DIR/submitter.creds)")
	priority := fs.Int("priority", 0, "runs of a higher priority get workers first")
	share := fs.Float64("share", 1, "the run's weight among runs of its priority")
	platforms := fs.String("platform", "", "only workers of these platforms (`OS/ARCH`, comma-separated) play the run (default: those its engines' artifacts run on)")
	var flags configs.Flags
	flags.Register(fs)
	if err := cli.Parse(fs, flags.Respell(rest)); err != nil {
		return err
	}
	if *credsPath == "" {
		return cli.Usage(errors.New("-creds FILE is required (the server writes DIR/submitter.creds)"))
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
	sub := &pool.Submission{Config: cfg, Priority: *priority, Share: *share}
	if *platforms != "" {
		sub.Platforms = strings.Split(*platforms, ",")
	}
	if f := cfg.Openings.File; f != "" {
		if sub.Openings, err = os.ReadFile(f); err != nil {
			return cli.Usage(err)
		}
	}
	if sub.Expect, err = distributed.Identify(ctx, cfg.Engines, cfg.GameType, cfg.StartTimeout); err != nil {
		return playError(err) // every engine that does not start, named at once (exit code 5)
	}
	c, err := poolClient("", pool.RoleSubmitter, *credsPath)
	if err != nil {
		return err
	}
	defer c.Close()
	if sub.Manifests, sub.Config.Engines, err = c.UploadEngines(ctx, cfg.Engines); err != nil {
		return err
	}
	for i, m := range sub.Manifests {
		if m.SHA256 != "" {
			// The artifact's hash names the program; the interpreter of a scripted engine
			// (python3) is each worker's own, and hashes differently on each.
			sub.Expect[i].SHA256 = ""
		}
	}
	st, err := c.Submit(ctx, sub)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Run %s submitted: %d games (%s); its records: %s on the server\n", st.ID, st.Scheduled, st.Format, st.Records)
	return nil
}
