package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"

	"hivearbiter/arbiter/driver"
	"hivearbiter/ci"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
	"hivearbiter/viewerbridge"
)

const serveUsage = `serve [-config FILE] -engine cmd=PROG [name=N] [tc=...] ... -engine ... [flags]

Speaks UHP as an engine on standard input and output, for a viewer such as MzingaViewer, with
two player engines behind it: the first plays White, the second Black. Every move the viewer
plays is refereed and sent to both engines, whose games are cross-checked; "bestmove" asks
the engine whose turn it is. "newgame remote" (UHP 2.0) lets the viewer play one side against
the other side's engine, which replies within "play"; "play forfeit" resigns.
Every game that ends is recorded, as a match game is; an unfinished game is not.

Engine settings (after -engine or -each) are those of "arbiter match -h"; tc (default st=1)
is used when the viewer's bestmove gives no limit, and by the opponent in a remote game.
A -config file gives exactly two engines. SIGINT does not end serve: as in Mzinga, it stops
the engine search under way, whose best move so far is the answer; "exit", the end of input
or SIGTERM end serve.`

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runServeSession(ctx, args, os.Stdin, stdout, stderr)
}

// serve is runServe with its input given, for tests.
func runServeSession(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := serveConfig(args, stderr)
	if err != nil {
		return err
	}
	cfg.Console = stderr
	// A viewer stops a search with SIGINT, as Mzinga's viewer does: that must stop the
	// engine's search, not end the session, which main's signal handling would do.
	signal.Reset(os.Interrupt)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	session, err := viewerbridge.NewSession(ctx, cfg)
	if err != nil {
		var ce *driver.ConfigError
		if errors.As(err, &ce) {
			return cli.Usage(err)
		}
		return cli.Exit(ci.ExitEngines, "%v", err)
	}
	err = session.Serve(ctx, stdin, stdout, interrupts)
	if ctx.Err() != nil {
		return cli.Exit(ci.ExitInterrupted, "")
	}
	return err
}

// serveConfig builds the session's configuration from a -config file and the flags.
func serveConfig(args []string, stderr io.Writer) (viewerbridge.SessionConfig, error) {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("serve", serveUsage, stderr)
	flags := bindServe(fs)
	if err := cli.Parse(fs, rest); err != nil {
		return viewerbridge.SessionConfig{}, err
	}
	flags.Args = fs.Args()
	cfg, err := flags.Session(groups, builtinResolver)
	if err != nil {
		return cfg, cli.Usage(err)
	}
	// As in match: every output is checked before an engine starts, and none may be another.
	files := []results.NamedFile{{Flag: "-out", Path: cfg.Out, Write: true}, {Flag: "-pgnout", Path: cfg.PGNOut, Write: true}, {Flag: "-config", Path: flags.ConfigFile}}
	if err := errors.Join(checkFiles(files, cfg.TranscriptDir), locateEngines(cfg.Engines[:])); err != nil {
		return cfg, cli.Usage(err)
	}
	return cfg, nil
}
