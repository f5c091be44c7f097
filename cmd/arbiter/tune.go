package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"hivearbiter/arbiter/driver"
	"hivearbiter/ci"
	"hivearbiter/internal/cli"
	"hivearbiter/report"
	"hivearbiter/tune"
)

const tuneUsage = `tune -engine cmd=PROG [depth=N|nodes=N|st=S|tc=B+I] [option.NAME=V]... -param NAME,start,min,max,c_end,r_end... -iterations N [flags]
       arbiter tune -config FILE [flags]

Tunes an engine's options with SPSA, as fishtest does: each iteration plays one game pair
(one opening, colours swapped) between the engine with the values perturbed up and down,
and steps the values towards the side that scored better. Every pair is written to -out;
running the same command again resumes. At the end the values are printed as option words
and as a configuration line. The engine must speak a protocol with options (UHP, UGI).
A configuration file describes a tune with a [tune] table (docs/tuning.md); -http serves a
live page of the tune, and "arbiter report" draws its records.
Multi-word flags: -engine and -each take match's engine settings; -openings file=FILE
or book=NAME (a shipped book: arbiter openings list), order=sequential|random start=N
plies=N.`

func runTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", tuneUsage, stderr)
	httpAddr := fs.String("http", "", "serve a live page of the tune at this `address`, e.g. 127.0.0.1:8080 (read-only; loopback only unless -http-public)")
	httpPublic := fs.Bool("http-public", false, "allow -http on an address other than loopback")
	cfg, err := parseTune(fs, args)
	if err != nil {
		return err
	}
	cfg.Progress = stdout
	if *httpAddr != "" {
		live, stop, err := report.ServeTune(ctx, *httpAddr, *httpPublic, stdout)
		if err != nil {
			return cli.Usage(err)
		}
		defer stop()
		cfg.Observer = live
	}
	out, err := tune.Run(ctx, cfg)
	var refused *tune.RefusedError
	var records *tune.RecordsError
	var param *tune.ParamError
	switch {
	case errors.As(err, &refused), errors.As(err, &records), errors.As(err, &param):
		return cli.Usage(err)
	case err != nil && ctx.Err() == nil:
		return playError(err)
	}
	tune.WriteOutcome(stdout, out, cfg)
	if ctx.Err() != nil {
		return cli.Exit(ci.ExitInterrupted, "")
	}
	return nil
}

// parseTune defines a tune's flags on fs (beside the command's own), parses args, and builds
// the tune, its engine's program located.
func parseTune(fs *flag.FlagSet, args []string) (tune.Config, error) {
	rest, groups := splitMultiWord(args)
	flags := bindTune(fs)
	if err := cli.Parse(fs, rest); err != nil {
		return tune.Config{}, err
	}
	flags.Given = cli.Given(fs)
	cfg, err := flags.Config(groups, builtinResolver)
	if err != nil {
		return tune.Config{}, cli.Usage(err)
	}
	return cfg, locateEngines([]driver.EngineConfig{cfg.Engine})
}
