package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
	"hivearbiter/serve"
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

// serveDefaultTime is the time control of an engine given none: the viewer usually sets the
// limit, so this serves bare "bestmove" commands and remote replies.
const serveDefaultTime = "st=1"

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

	session, err := serve.NewSession(ctx, cfg)
	if err != nil {
		var ce *arbiter.ConfigError
		if errors.As(err, &ce) {
			return cli.Usage(err)
		}
		return cli.Exit(exitEngines, "%v", err)
	}
	err = session.Serve(ctx, stdin, stdout, interrupts)
	if ctx.Err() != nil {
		return cli.Exit(exitInterrupted, "")
	}
	return err
}

// serveConfig builds the session's configuration from a -config file and the flags.
func serveConfig(args []string, stderr io.Writer) (serve.SessionConfig, error) {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("serve", serveUsage, stderr)
	var (
		configFile  = fs.String("config", "", "TOML configuration `file` with two engines (see configs/)")
		out         = fs.String("out", "", "JSON Lines `file` of game records (default arbiter-serve-<run>.jsonl)")
		pgnOut      = fs.String("pgnout", "", "append every game to this PGN `file` (MzingaViewer format)")
		transcripts = fs.String("transcripts", "", "write each engine's conversation to a file in this `dir`")
		gameType    = fs.String("gametype", "", "GameTypeString of a remote game whose viewer names none (default: every expansion both engines play)")
		remoteSide  = fs.String("remote-side", "alternate", "the viewer's side in a remote game that names none: white, black or alternate")
		event       = fs.String("event", "", "event name for the PGN")
	)
	fs.Func("each", "engine settings applied to both engines (key=value words)", func(string) error { return nil })
	fs.Func("engine", "an engine (key=value words); give two, White's first", func(string) error { return nil })
	if err := cli.Parse(fs, rest); err != nil {
		return serve.SessionConfig{}, err
	}
	if fs.NArg() > 0 {
		return serve.SessionConfig{}, cli.Usage(fmt.Errorf("unexpected argument %q (engine settings follow -engine)", fs.Arg(0)))
	}
	var cfg serve.SessionConfig
	var engines []arbiter.EngineConfig
	if *configFile != "" {
		file, err := configs.LoadFile(*configFile, builtinResolver)
		if err != nil {
			return cfg, cli.Usage(err)
		}
		engines = file.Engines
		cfg.Out, cfg.PGNOut, cfg.TranscriptDir, cfg.Event = file.Out, file.PGNOut, file.TranscriptDir, file.Event
		cfg.GameType = file.GameType
		cfg.StartTimeout, cfg.CommandTimeout, cfg.DepthTimeout = file.StartTimeout, file.CommandTimeout, file.DepthTimeout
	}
	fromFlags, err := enginesFromFlags(groups, serveDefaultTime)
	if err != nil {
		return cfg, cli.Usage(err)
	}
	if fromFlags != nil {
		engines = fromFlags
	}
	if len(engines) != 2 {
		return cfg, cli.Usage(fmt.Errorf("serve needs exactly two engines, White's then Black's, not %d: give -config FILE or two -engine cmd=... (see arbiter serve -h)", len(engines)))
	}
	cfg.Engines = [2]arbiter.EngineConfig{engines[0], engines[1]}
	cli.OverrideString(&cfg.Out, *out)
	if *pgnOut != "" {
		name, err := configs.PGNFile(*pgnOut)
		if err != nil {
			return cfg, cli.Usage(err)
		}
		cfg.PGNOut = name
	}
	cli.OverrideString(&cfg.TranscriptDir, *transcripts)
	cli.OverrideString(&cfg.GameType, *gameType)
	cli.OverrideString(&cfg.Event, *event)
	cfg.RemoteSide = serve.RemoteSide(*remoteSide)
	// As in match: every output is checked before an engine starts, and none may be another.
	files := []results.NamedFile{{Flag: "-out", Path: cfg.Out, Write: true}, {Flag: "-pgnout", Path: cfg.PGNOut, Write: true}, {Flag: "-config", Path: *configFile}}
	if err := errors.Join(checkFiles(files, cfg.TranscriptDir), locateEngines(cfg.Engines[:])); err != nil {
		return cfg, cli.Usage(err)
	}
	return cfg, nil
}
