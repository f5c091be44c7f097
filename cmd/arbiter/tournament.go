package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/ci"
	"hivearbiter/console"
	"hivearbiter/internal/cli"
	"hivearbiter/openings"
	"hivearbiter/results"
)

// playTournament runs a tournament to its end (or resumes it) and turns its outcome into the
// arbiter's exit code.
func playTournament(ctx context.Context, cfg arbiter.Config, resumeHint string, stdout io.Writer) error {
	return playTournamentWith(ctx, cfg, resumeHint, stdout, []arbiter.Observer{newConsole(ctx, stdout, resumeHint)}, localPlay)
}

// newConsole is the console of a run on stdout: its lines, a live line on a terminal, the
// result tables (marked stopped once ctx is done), and the command that resumes the run.
func newConsole(ctx context.Context, stdout io.Writer, resumeHint string) *console.Observer {
	return console.New(stdout, console.Options{Progress: cli.IsTerminal(stdout), ResumeHint: resumeHint,
		Report: func(w io.Writer, r arbiter.StandingsReport) {
			console.WriteStandings(w, r.Tournament, r.Standings, r.Final, ctx.Err() != nil)
		}})
}

// localPlay plays a tournament's games on this machine.
func localPlay(ctx context.Context, t *arbiter.Tournament) (*arbiter.Outcome, error) {
	return t.Play(ctx)
}

// playTournamentWith is playTournament with the games played by play (locally, or by workers)
// and watched by observers, the console (newConsole) among them.
func playTournamentWith(ctx context.Context, cfg arbiter.Config, resumeHint string, stdout io.Writer,
	observers []arbiter.Observer, play func(context.Context, *arbiter.Tournament) (*arbiter.Outcome, error)) error {
	t, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{Observers: observers})
	if err != nil {
		var ce *driver.ConfigError
		var oe *openings.Error
		if errors.As(err, &ce) || errors.As(err, &oe) {
			return cli.Usage(err)
		}
		return err
	}
	cfg = t.Config()
	// The records file's default name is known now (matchConfig checked the others).
	if err := checkFiles(cfg.Files(), cfg.TranscriptDir); err != nil {
		return err
	}
	for _, w := range t.SetupWarnings(runtime.NumCPU()) {
		fmt.Fprintln(stdout, "Warning:", w)
	}
	fmt.Fprintln(stdout, console.Banner(t))
	out, err := play(ctx, t)
	var fe *results.FileError
	if errors.As(err, &fe) {
		// A disk fault: every game recorded before it is on disk, whole.
		return cli.Exit(ci.ExitFailure, "%v\nThe games recorded before it are kept; once the fault is gone, the same command resumes the run: %s", err, resumeHint)
	}
	if err != nil {
		return playError(err)
	}
	if code, msg := ci.OutcomeCode(cfg, out); code != ci.ExitOK {
		return cli.Exit(code, "%s", msg)
	}
	return nil
}

// playError maps an error that ended a run to its exit code.
func playError(err error) error {
	var pe *arbiter.PreflightError
	var se *arbiter.EngineStartError
	var le *results.LockedError
	var ce *driver.ConfigError
	var line *results.LineError
	switch {
	case errors.As(err, &pe):
		return cli.Exit(ci.ExitEngines, "%s", pe.Message()) // a line a broken engine, under one that says so
	case errors.As(err, &se):
		return cli.Exit(ci.ExitEngines, "%v", err)
	case errors.As(err, &line):
		return cli.Usage(fmt.Errorf("%s:%d: %v: the records file is damaged. To resume without that line, add -skip-bad (the line stays in the file, and its game, if it was one, is played again); arbiter stats -skip-bad %s reads the rest",
			line.Path, line.Line, line.Err, line.Path))
	case errors.As(err, &le), errors.As(err, &ce):
		return cli.Usage(err)
	}
	return err
}
