package main

import (
	"context"
	"errors"
	"io"

	"hivearbiter/arbiter"
	"hivearbiter/internal/cli"
	"hivearbiter/tune"
)

const tuneUsage = `tune -engine cmd=PROG [depth=N|nodes=N|st=S|tc=B+I] [option.NAME=V]... -param NAME,start,min,max,c_end,r_end... -iterations N [flags]

Tunes an engine's options with SPSA, as fishtest does: each iteration plays one game pair
(one opening, colours swapped) between the engine with the values perturbed up and down,
and steps the values towards the side that scored better. Every pair is written to -out;
running the same command again resumes. At the end the values are printed as option words
and as a configuration line. The engine must speak a protocol with options (UHP, UGI).
Multi-word flags: -engine and -each take match's engine settings; -openings file=FILE
order=sequential|random start=N plies=N.`

func runTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("tune", tuneUsage, stderr)
	var flags tune.Flags
	flags.Register(fs)
	if err := cli.Parse(fs, rest); err != nil {
		return err
	}
	cfg, err := flags.Config(groups, builtinResolver)
	if err != nil {
		return cli.Usage(err)
	}
	if err := locateEngines([]arbiter.EngineConfig{cfg.Engine}); err != nil {
		return err
	}
	cfg.Progress = stdout
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
		return cli.Exit(exitInterrupted, "")
	}
	return nil
}
