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
// configFile is the -config file, if any, which no output may overwrite.
func playTournament(ctx context.Context, cfg arbiter.Config, configFile, resumeHint string, stdout io.Writer) error {
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
	if err := checkFiles(runFiles(cfg, configFile), cfg.TranscriptDir); err != nil {
		return err
	}
	t.Console = stdout
	t.ResumeHint = resumeHint
	t.Progress = isTerminal(stdout)
	t.Report = func(w io.Writer, s arbiter.Standings, final bool) { writeReport(w, t, s, final, ctx.Err() != nil) }
	if cfg.Shard.Count > 1 {
		fmt.Fprintf(stdout, "Hive Arbiter %s: shard %s of a %s of %s: %s (%s), run %s, records in %s\n",
			arbiter.Version, cfg.Shard, cfg.Format, plural(t.Schedule().Len(), "game"), plural(t.Scheduled(), "game"), cfg.GameType, t.Run(), cfg.Out)
	} else {
		fmt.Fprintf(stdout, "Hive Arbiter %s: %s of %s (%s), run %s, records in %s\n",
			arbiter.Version, cfg.Format, plural(t.Schedule().Len(), "game"), cfg.GameType, t.Run(), cfg.Out)
	}
	out, err := t.Play(ctx)
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
