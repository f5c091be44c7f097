package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

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
	t.Console = stdout
	t.ResumeHint = resumeHint
	t.Progress = isTerminal(stdout)
	t.Report = func(w io.Writer, s arbiter.Standings, final bool) { writeReport(w, t, s, final) }
	t.Observers = observers
	if cfg.Shard.Count > 1 {
		fmt.Fprintf(stdout, "Hive Arbiter %s: shard %s of a %s of %d games: %d games (%s), run %s, records in %s\n",
			arbiter.Version, cfg.Shard, cfg.Format, t.Schedule().Len(), t.Scheduled(), cfg.GameType, t.Run(), cfg.Out)
	} else {
		fmt.Fprintf(stdout, "Hive Arbiter %s: %s of %d games (%s), run %s, records in %s\n",
			arbiter.Version, cfg.Format, t.Schedule().Len(), cfg.GameType, t.Run(), cfg.Out)
	}
	out, err := play(ctx, t)
	if err != nil {
		var se *arbiter.EngineStartError
		if errors.As(err, &se) {
			return exitWith(exitEngines, "%v", err)
		}
		return err
	}
	if cfg.JSONOut != "" {
		if err := writeSummaryFile(cfg.JSONOut, summaryOf(t, out)); err != nil {
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
func summaryOf(t *arbiter.Tournament, out *arbiter.Outcome) *results.Summary {
	status := "finished"
	var sprt *results.SPRTSummary
	if s := out.SPRT; s != nil {
		sprt = sprtSummaryOf(s.Test, s.LLR, s.Pairs)
		switch s.Decision {
		case arbiter.AcceptH1:
			status = "H1"
		case arbiter.AcceptH0:
			status = "H0"
		default:
			status = "inconclusive"
		}
	}
	if out.Interrupted {
		status = "interrupted"
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
