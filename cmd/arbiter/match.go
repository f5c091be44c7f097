package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"hivearbiter/arbiter"
	"hivearbiter/ci"
	"hivearbiter/distributed"
	"hivearbiter/internal/cli"
	"hivearbiter/report"
	"hivearbiter/results"
)

const matchUsage = `match [-config FILE] -engine cmd=PROG [name=N] [tc=B+I|st=S|depth=N] [option.NAME=V]... -engine ... [flags]

Plays a match, gauntlet or round-robin between UHP engines and reports the results.
Command-line settings override those of -config. Engine settings (after -engine or -each):
  cmd=PROG name=NAME dir=DIR arg=ARG env=KEY=VALUE builtin=hivebot
  tc=BASE+INC (a game clock, seconds) | st=SECONDS (per move) | depth=N
  margin=SECONDS fractional=true|false option.NAME=VALUE
Multi-word flags:
  -openings file=FILE order=sequential|random start=N plies=N
  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized|logistic`

// builtinResolver runs bundled engines from the arbiter's own binary, so no second build step
// is needed: "hivebot" becomes "<this binary> hivebot".
func builtinResolver(name string) ([]string, error) {
	if name != "hivebot" {
		return nil, fmt.Errorf("unknown built-in engine %q (the bundled engine is hivebot)", name)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the arbiter's own binary to run hivebot: %w", err)
	}
	return []string{exe, "hivebot"}, nil
}

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var host distributed.HostConfig
	var pages report.RunOptions
	var reports ci.Reports
	cfg, err := matchConfigFlags(args, stderr, &host, &pages, &reports)
	if err != nil {
		return err
	}
	if err := locateEngines(cfg.Engines); err != nil {
		return err
	}
	hint := "arbiter match " + cli.QuoteArgs(args)
	pages.Console = stdout
	runPages, err := report.StartRun(ctx, cfg, pages)
	if errors.Is(err, report.ErrPublicAddress) {
		return cli.Usage(fmt.Errorf("%w (give -http-public to serve on %s)", err, pages.HTTP))
	} else if err != nil {
		return err
	}
	lines := newConsole(ctx, stdout, hint)
	observers := []arbiter.Observer{lines}
	if runPages != nil {
		observers = append(observers, runPages)
	}
	var gate ci.Gate
	if host.Serving() {
		host.Console = lines
		err = runCoordinator(ctx, cfg, host, hint, stdout, observers)
	} else {
		err = playTournamentWith(ctx, cfg, hint, stdout, observers, func(ctx context.Context, t *arbiter.Tournament) (*arbiter.Outcome, error) {
			out, err := localPlay(ctx, t)
			gate = ci.MatchGate(t.Config(), out)
			return out, err
		})
	}
	err = gateReport(&reports, stdout, gate, err)
	if runPages != nil {
		if perr := runPages.Close(); err == nil {
			err = perr
		}
	}
	return err
}

// matchConfig builds the tournament configuration from a -config file and the flags. It
// reports every problem it finds, not the first only, and checks the files the run will read
// and write.
func matchConfig(args []string, stderr io.Writer) (arbiter.Config, error) {
	return matchConfigFlags(args, stderr, new(distributed.HostConfig), new(report.RunOptions))
}

// matchConfigFlags is matchConfig that also reads the flags that serve the run to workers and
// show it as pages, and with gate those of a gate's reports.
func matchConfigFlags(args []string, stderr io.Writer, host *distributed.HostConfig, pages *report.RunOptions, gate ...*ci.Reports) (arbiter.Config, error) {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("match", matchUsage, stderr)
	bindHost(fs, host)
	bindPages(fs, pages)
	for _, r := range gate {
		bindGateReports(fs, r, false)
	}
	flags := bindMatch(fs)
	if err := parseMatch(fs, flags, rest); err != nil {
		return arbiter.Config{}, err
	}
	host.Slots = flags.Concurrency() // as given: a coordinator plays games itself only if asked
	r, err := flags.Run(groups, builtinResolver)
	if err != nil {
		return arbiter.Config{}, cli.Usage(err)
	}
	cfg, err := r.Config(builtinResolver)
	problems := []error{err}
	// The files too, with the rest: the records file's default name (from the run's
	// fingerprint) is checked again when the tournament is laid out.
	files := append(cfg.Files(), results.NamedFile{Flag: "-config", Path: flags.ConfigFile})
	if pages.File != "" {
		files = append(files, results.NamedFile{Flag: "-report", Path: pages.File, Write: true})
	}
	for _, r := range gate {
		files = append(files, r.Files()...)
	}
	problems = append(problems, results.CheckFiles(files, cfg.TranscriptDir)...)
	if err := errors.Join(problems...); err != nil {
		return cfg, cli.Usage(err)
	}
	return cfg, nil
}
