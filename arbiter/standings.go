package arbiter

import (
	"fmt"

	"hivearbiter/openings"
	"hivearbiter/results"
)

// SetupWarnings say what in a valid configuration will likely spoil the run, given the cores
// of this machine: more games at once than cores (engines then share cores, and their clocks
// run while they wait), and game pairs that share an opening (deterministic engines replay
// the same games).
func (t *Tournament) SetupWarnings(cores int) []string {
	var warnings []string
	// Each game runs two engines, which think in turn: one core per game.
	if t.cfg.Concurrency > cores {
		warnings = append(warnings, fmt.Sprintf("-concurrency %d is more than the %d cores here: engines will wait for a core while their clocks run", t.cfg.Concurrency, cores))
	}
	warnings = append(warnings, t.cfg.affinityWarnings(cores)...)
	s := t.schedule
	seen := map[string]bool{}
	pairs, repeats := 0, 0
	var replay openings.Replayer
	for i := 0; i < s.Len(); i += s.PairGames() {
		g := s.Game(i)
		key := fmt.Sprintf("%d-%d-%s", min(g.White, g.Black), max(g.White, g.Black), replay.PositionKey(g.Opening))
		if seen[key] {
			repeats++
		}
		seen[key] = true
		pairs++
	}
	if repeats > 0 {
		warnings = append(warnings, fmt.Sprintf("%d of %d game pairs repeat an opening of the same engines (up to symmetry): deterministic engines will replay the same games (more -openings plies=, or a larger file=, vary them)", repeats, pairs))
	}
	return append(warnings, s.openings.Warnings()...)
}

// Summary is the JSON summary of the run's outcome.
func (o *Outcome) Summary() *results.Summary {
	status := "finished"
	var sprt *results.SPRTSummary
	if s := o.SPRT; s != nil {
		sprt = results.NewSPRTSummary(s.Test, s.LLR, s.Pairs)
		if s.AtCap {
			threshold := s.Threshold
			sprt.Decision, sprt.DecidedAtCap, sprt.Threshold = s.Decision.String(), true, &threshold
		}
		switch s.Decision {
		case AcceptH1:
			status = "H1"
		case AcceptH0:
			status = "H0"
		default:
			status = "inconclusive"
		}
	}
	switch {
	case o.Interrupted:
		status = "interrupted"
	case o.StrictStop:
		status = "strict-stop"
	case o.FailureStop != nil:
		status = "engine-failing"
	}
	return results.NewSummary(status, o.Tally, sprt)
}
