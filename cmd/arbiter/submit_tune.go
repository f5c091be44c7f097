package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/internal/cli"
	"hivearbiter/pool"
	"hivearbiter/tune"
)

const submitTuneUsage = `submit tune -creds FILE [-priority N] [-share W] [-platform OS/ARCH,...] [tune flags]

Hands a tune to a pool's server (arbiter server), with the flags or the -config file of
"arbiter tune" (see arbiter tune -h). The server holds the values and hands the pairs out to
the pool's workers one by one, each with its perturbation; it applies the results in the
order they arrive, as fishtest does, and writes the tune's records as "arbiter tune" does:
DIR/runs/RUN.jsonl on the server, drawn by arbiter report. -out and -concurrency are the
server's and the workers' business there. The engine is uploaded as an artifact, as submit
does; its protocol must have options (UHP, UGI).`

func runSubmitTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("submit tune", submitTuneUsage, stderr)
	credsPath := fs.String("creds", "", "a submitter's credentials `file` (the server's DIR/submitter.creds)")
	priority := fs.Int("priority", 0, "runs of a higher priority get workers first")
	share := fs.Float64("share", 1, "the run's weight among runs of its priority")
	platforms := fs.String("platform", "", "only workers of these platforms (`OS/ARCH`, comma-separated) play the tune (default: those its engine's artifact runs on)")
	cfg, err := parseTune(fs, args)
	if err != nil {
		return err
	}
	// Refused here as the server would: a protocol without options, a bad parameter.
	pairs, err := tune.NewPairs(cfg)
	if err != nil {
		return cli.Usage(err)
	}
	if *credsPath == "" {
		return cli.Usage(errors.New("-creds FILE is required (the server writes DIR/submitter.creds)"))
	}
	sub := &pool.Submission{Tune: &cfg, Priority: *priority, Share: *share}
	// What the engine says of itself, which the games of the workers' must say too.
	played := pairs.Config()
	if sub.Expect, err = distributed.Identify(ctx, []driver.EngineConfig{cfg.Engine}, played.GameType, played.StartTimeout); err != nil {
		return cli.Exit(exitEngines, "%v", err)
	}
	if *platforms != "" {
		sub.Platforms = strings.Split(*platforms, ",")
	}
	if f := cfg.Openings.File; f != "" {
		if sub.Openings, err = os.ReadFile(f); err != nil {
			return cli.Usage(err)
		}
	}
	c, err := poolClient("", pool.RoleSubmitter, *credsPath)
	if err != nil {
		return err
	}
	defer c.Close()
	manifests, engines, err := c.UploadEngines(ctx, []driver.EngineConfig{cfg.Engine})
	if err != nil {
		return err
	}
	sub.Manifests, cfg.Engine = manifests, engines[0]
	st, err := c.Submit(ctx, sub)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Run %s submitted: a tune of %d pairs; its records: %s on the server\n", st.ID, cfg.Gains.Iterations, st.Records)
	return nil
}
