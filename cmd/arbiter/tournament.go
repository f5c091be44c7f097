package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// playTournament runs a tournament to its end (or resumes it) and turns its outcome into the
// arbiter's exit code.
func playTournament(ctx context.Context, cfg arbiter.Config, resumeHint string, stdout io.Writer) error {
	return playTournamentWith(ctx, cfg, resumeHint, stdout, nil, localPlay)
}

// localPlay plays a tournament's games on this machine.
func localPlay(ctx context.Context, t *arbiter.Tournament) (*arbiter.Outcome, error) {
	return t.Play(ctx)
}

// playTournamentWith is playTournament with the games played by play (locally, or by workers)
// and watched by observers.
func playTournamentWith(ctx context.Context, cfg arbiter.Config, resumeHint string, stdout io.Writer,
	observers []arbiter.Observer, play func(context.Context, *arbiter.Tournament) (*arbiter.Outcome, error)) error {
	t, err := arbiter.NewTournament(cfg)
	if err != nil {
		var ce *arbiter.ConfigError
		var oe *arbiter.OpeningError
		if errors.As(err, &ce) || errors.As(err, &oe) {
			return usageError{err}
		}
		return err
	}
	cfg = t.Config()
	// The records file's default name is known now (matchConfig checked the others).
	if err := checkFiles(cfg.Files(), cfg.TranscriptDir); err != nil {
		return err
	}
	warnSetup(stdout, t)
	t.Console = stdout
	t.ResumeHint = resumeHint
	t.Progress = isTerminal(stdout)
	t.Report = func(w io.Writer, s arbiter.Standings, final bool) { writeReport(w, t, s, final, ctx.Err() != nil) }
	t.Observers = observers
	if cfg.Shard.Count > 1 {
		fmt.Fprintf(stdout, "Hive Arbiter %s: shard %s of a %s of %s: %s (%s), run %s, records in %s\n",
			arbiter.Version, cfg.Shard, cfg.Format, plural(t.Schedule().Len(), "game"), plural(t.Scheduled(), "game"), cfg.GameType, t.Run(), cfg.Out)
	} else {
		fmt.Fprintf(stdout, "Hive Arbiter %s: %s of %s (%s), run %s, records in %s\n",
			arbiter.Version, cfg.Format, plural(t.Schedule().Len(), "game"), cfg.GameType, t.Run(), cfg.Out)
	}
	out, err := play(ctx, t)
	if err != nil {
		var se *arbiter.EngineStartError
		var le *results.LockedError
		var ce *arbiter.ConfigError
		var line *results.LineError
		switch {
		case errors.As(err, &se):
			return exitWith(exitEngines, "%v", err)
		case errors.As(err, &line):
			return usageError{fmt.Errorf("%s:%d: %v: the records file is damaged. To resume without that line, add -skip-bad (the line stays in the file, and its game, if it was one, is played again); arbiter stats -skip-bad %s reads the rest",
				line.Path, line.Line, line.Err, line.Path)}
		case errors.As(err, &le), errors.As(err, &ce):
			return usageError{err}
		}
		return err
	}
	if cfg.JSONOut != "" {
		if err := summaryOf(out).WriteFile(cfg.JSONOut); err != nil {
			return err
		}
	}
	if out.Interrupted {
		return exitWith(exitInterrupted, "")
	}
	if cfg.Strict {
		if n := countFaults(out.Tally); n > 0 {
			return exitWith(exitEngines, "strict: %d games ended by engine misbehaviour", n)
		}
	}
	if out.SPRT != nil {
		switch out.SPRT.Decision {
		case arbiter.AcceptH0:
			return exitWith(exitH0, "")
		case arbiter.Continue:
			return exitWith(exitInconclusive, "")
		}
	}
	return nil
}

// countFaults counts the games that ended by a player's misbehaviour.
func countFaults(t *results.Tally) int {
	n := 0
	for _, p := range t.Players {
		n += p.FaultTotal()
	}
	return n
}

// summaryOf builds the JSON summary of a run's outcome.
func summaryOf(out *arbiter.Outcome) *results.Summary {
	status := "finished"
	var sprt *results.SPRTSummary
	if s := out.SPRT; s != nil {
		sprt = results.NewSPRTSummary(s.Test, s.LLR, s.Pairs)
		switch s.Decision {
		case arbiter.AcceptH1:
			status = "H1"
		case arbiter.AcceptH0:
			status = "H0"
		default:
			status = "inconclusive"
		}
	}
	switch {
	case out.Interrupted:
		status = "interrupted"
	case out.StrictStop:
		status = "strict-stop"
	}
	return results.NewSummary(status, out.Tally, sprt)
}

// isTerminal reports whether w is a terminal, where a live progress line can be redrawn in
// place. Pipes, files and CI logs get the per-game lines only.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// warnSetup says what in a valid configuration will likely spoil the run: more games at once
// than cores (engines then share cores, and their clocks run while they wait), and game pairs
// that share an opening (deterministic engines replay the same games).
func warnSetup(w io.Writer, t *arbiter.Tournament) {
	cfg := t.Config()
	// Each game runs two engines, which think in turn: one core per game.
	if n := runtime.NumCPU(); cfg.Concurrency > n {
		fmt.Fprintf(w, "Warning: -concurrency %d is more than the %d cores here: engines will wait for a core while their clocks run\n", cfg.Concurrency, n)
	}
	s := t.Schedule()
	seen := map[string]bool{}
	pairs, repeats := 0, 0
	for i := 0; i < s.Len(); i += s.PairGames() {
		g := s.Game(i)
		key := fmt.Sprintf("%d-%d-%s", min(g.White, g.Black), max(g.White, g.Black), g.Opening)
		if seen[key] {
			repeats++
		}
		seen[key] = true
		pairs++
	}
	if repeats > 0 {
		fmt.Fprintf(w, "Warning: %d of %d game pairs repeat an opening of the same engines: deterministic engines will replay the same games (more -openings plies=, or a larger file=, vary them)\n", repeats, pairs)
	}
}
