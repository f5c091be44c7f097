package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// writeReport prints the result tables of a tournament so far: the fastchess result block for
// two engines, the field table and maximum-likelihood ratings for more, and at the end the
// engines' misbehaviour counts and the SPRT conclusion. stopped marks a run cut short by
// Ctrl-C or SIGTERM: its last lines say so rather than that it finished.
func writeReport(w io.Writer, t *arbiter.Tournament, s arbiter.Standings, final, stopped bool) {
	cfg := t.Config()
	names := t.EngineNames()
	tally, sprt := s.Tally, s.SPRT
	switch {
	case tally.Games == 0:
		// Nothing to rate: a table of zeros would read as results.
		fmt.Fprintln(w, "No game has finished yet: no results to show.")
	case len(names) == 2:
		info := results.MatchInfo{TimeControl: timeControls(cfg), GameType: cfg.GameType, Openings: openingsDescription(cfg.Openings),
			MoveLimit: moveLimit(cfg.Adjudication)}
		pairing := tally.Pairing(names[0], names[1])
		if sprt != nil {
			// After a decision the games in flight still finish and are counted: say which
			// pairs the LLR is from, and give the LLR over all of them, as stats -sprt does.
			all := pairing.Pairs.Pentanomial()
			info.SPRT = &results.SPRTLine{LLR: sprt.LLR, Lower: sprt.Lower, Upper: sprt.Upper, Elo0: sprt.Test.Elo0, Elo1: sprt.Test.Elo1,
				Pairs: sprt.Pairs, AllPairs: all.Pairs(), AllLLR: sprt.Test.LLR(all)}
		}
		results.WriteMatchBlock(w, pairing, info)
	default:
		fmt.Fprintf(w, "Results after %s (%s, %s, %s):\n", plural(tally.Games, "game"), timeControls(cfg), cfg.GameType, moveLimit(cfg.Adjudication))
		results.WriteFieldTable(w, tally)
		if ratings, err := results.FitRatings(tally); err == nil {
			results.WriteRatingTable(w, tally, ratings)
		} else {
			fmt.Fprintf(w, "No maximum-likelihood ratings yet: %s\n", strings.TrimPrefix(err.Error(), "results: "))
		}
	}
	if !final {
		return
	}
	if err := results.WriteFaults(w, tally); err != nil {
		fmt.Fprintf(w, "faults table: %v\n", err)
	}
	switch {
	case stopped:
		fmt.Fprintf(w, "Stopped %s: %s recorded in %s\n", cfg.Format, plural(tally.Games, "game"), cfg.Out)
		return
	case cfg.Strict && countFaults(tally) > 0:
		fmt.Fprintf(w, "Stopped %s at the first misbehaviour (-strict): %s recorded in %s\n", cfg.Format, plural(tally.Games, "game"), cfg.Out)
		return
	}
	if sprt != nil {
		verdict := "was inconclusive"
		switch sprt.Decision {
		case arbiter.AcceptH1:
			verdict = "completed - H1 was accepted"
		case arbiter.AcceptH0:
			verdict = "completed - H0 was accepted"
		}
		fmt.Fprintf(w, "SPRT ([%.2f, %.2f], %s) %s after %d game pairs\n", sprt.Test.Elo0, sprt.Test.Elo1, sprt.Test.Model, verdict, sprt.Pairs)
	}
	fmt.Fprintf(w, "Finished %s: %s recorded in %s\n", cfg.Format, plural(tally.Games, "game"), cfg.Out)
}

// plural writes a count with its noun, in the singular for one: "1 game", "2 games".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// timeControls describes the engines' time controls: one if they agree, else all of them.
func timeControls(cfg arbiter.Config) string {
	var tcs []string
	for _, e := range cfg.Engines {
		tc := e.Time.String()
		if len(tcs) == 0 || tcs[len(tcs)-1] != tc {
			tcs = append(tcs, tc)
		}
	}
	return strings.Join(tcs, " - ")
}

func openingsDescription(o arbiter.Openings) string {
	switch {
	case o.File != "":
		return filepath.Base(o.File)
	case o.RandomPlies > 0:
		return fmt.Sprintf("random %d-ply openings", o.RandomPlies)
	}
	return "empty board"
}

// moveLimit describes the move limit, in fastchess's moves (one of each side) when the limit
// is a whole number of them.
func moveLimit(a arbiter.Adjudication) string {
	switch {
	case a.MaxPlies == 0:
		return "no move limit"
	case a.MaxPlies%2 == 0:
		return fmt.Sprintf("draw at move %d", a.MaxPlies/2)
	}
	return fmt.Sprintf("draw at ply %d", a.MaxPlies)
}
