package main

import (
	"context"
	"fmt"
	"io"

	"hivearbiter/ci"
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
	var place pool.SubmitFlags
	bindSubmission(fs, &place, true)
	cfg, err := parseTune(fs, args)
	if err != nil {
		return err
	}
	// Refused here as the server would: a protocol without options, a bad parameter.
	if _, err := tune.NewPairs(cfg); err != nil {
		return cli.Usage(err)
	}
	if err := place.Validate(); err != nil {
		return cli.Usage(err)
	}
	sub := place.Submission()
	sub.Tune = &cfg
	if err := sub.Identify(ctx); err != nil {
		return cli.Exit(ci.ExitEngines, "%v", err)
	}
	if err := sub.ReadOpenings(); err != nil {
		return cli.Usage(err)
	}
	st, c, err := submit(ctx, &place, sub)
	if err != nil {
		return err
	}
	c.Close()
	fmt.Fprintf(stdout, "Run %s submitted: a tune of %d pairs; its records: %s on the server\n", st.ID, cfg.Gains.Iterations, st.Records)
	pool.WriteFit(stdout, st)
	return nil
}
