package console

import (
	"fmt"
	"io"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// WriteStandings writes the result tables of tournament t so far: the fastchess result block
// for two engines, the field table and maximum-likelihood ratings for more, and when final the
// cross table of more, the engines' misbehaviour counts and the SPRT conclusion. stopped marks
// a run cut short (by Ctrl-C or SIGTERM): its last lines say so rather than that it finished.
// It is what the arbiter command and the pool give as the Report of the Options.
func WriteStandings(w io.Writer, t *arbiter.Tournament, s arbiter.Standings, final, stopped bool) {
	cfg := t.Config()
	names := t.EngineNames()
	tally, sprt := s.Tally, s.SPRT
	switch {
	case tally.Games == 0:
		// Nothing to rate: a table of zeros would read as results.
		fmt.Fprintln(w, "No game has finished yet: no results to show.")
	case len(names) == 2:
		info := render.MatchInfo{TimeControl: timeControls(cfg), GameType: cfg.GameType, Openings: cfg.Openings.Description(),
			MoveLimit: moveLimit(cfg.Adjudication)}
		pairing := tally.Pairing(names[0], names[1])
		if sprt != nil {
			// After a decision the games in flight still finish and are counted: say which
			// pairs the LLR is from, and give the LLR over all of them, as stats -sprt does.
			all := pairing.Pairs.Pentanomial()
			info.SPRT = &render.SPRTLine{LLR: sprt.LLR, Lower: sprt.Lower, Upper: sprt.Upper, Elo0: sprt.Test.Elo0, Elo1: sprt.Test.Elo1,
				Pairs: sprt.Pairs, AllPairs: all.Pairs(), AllLLR: sprt.Test.LLR(all)}
		}
		render.WriteMatchBlock(w, pairing, info)
	default:
		fmt.Fprintf(w, "Results after %s (%s, %s, %s):\n", plural(tally.Games, "game"), timeControls(cfg), cfg.GameType, moveLimit(cfg.Adjudication))
		render.WriteFieldRatings(w, tally, true)
		if final {
			if err := render.WriteCrossTable(w, tally.CrossTable()); err != nil {
				fmt.Fprintf(w, "cross table: %v\n", err)
			}
		}
	}
	if !final {
		return
	}
	if err := render.WriteFaults(w, tally); err != nil {
		fmt.Fprintf(w, "faults table: %v\n", err)
	}
	switch {
	case stopped:
		fmt.Fprintf(w, "Stopped %s: %s recorded in %s\n", cfg.Format, plural(tally.Games, "game"), cfg.Out)
		return
	case cfg.Strict && tally.Faults() > 0:
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
		after := fmt.Sprintf("after %d game pairs", sprt.Pairs)
		if sprt.AtCap {
			side := "at or above"
			if sprt.Decision == arbiter.AcceptH0 {
				side = "below"
			}
			after = fmt.Sprintf("at its cap, after %d game pairs: LLR %.2f is %s the final threshold %.2f", sprt.Pairs, sprt.LLR, side, sprt.Threshold)
		}
		fmt.Fprintf(w, "SPRT ([%.2f, %.2f], %s) %s %s\n", sprt.Test.Elo0, sprt.Test.Elo1, sprt.Test.Model, verdict, after)
		fmt.Fprintln(w, render.SPRTConclusion(sprt.Test, sprt.Decision, names[0], names[1]))
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

// Banner is the first line of tournament t's run: what it plays, its run id and its records
// file.
func Banner(t *arbiter.Tournament) string {
	cfg, games := t.Config(), t.Schedule().Len()
	if cfg.Shard.Count > 1 {
		return fmt.Sprintf("Hive Arbiter %s: shard %s of a %s of %s: %s (%s), run %s, records in %s",
			arbiter.Version, cfg.Shard, cfg.Format, plural(games, "game"), plural(t.Scheduled(), "game"), cfg.GameType, t.Run(), cfg.Out)
	}
	if cfg.SPRT != nil {
		return fmt.Sprintf("Hive Arbiter %s: %s, run %s, records in %s",
			arbiter.Version, sprtBanner(cfg.SPRT.Test(), cfg.Engines[0].Name, cfg.Engines[1].Name, cfg.GameType, games), t.Run(), cfg.Out)
	}
	return fmt.Sprintf("Hive Arbiter %s: %s of %s (%s), run %s, records in %s",
		arbiter.Version, cfg.Format, plural(games, "game"), cfg.GameType, t.Run(), cfg.Out)
}

// sprtBanner names an SPRT, its cap and what it is expected to cost before any game is
// played, and the error rates the cap leaves it: the games are the cap, not the run's length,
// which the test decides.
func sprtBanner(test elo.SPRT, first, second, gameType string, games int) string {
	shape := elo.IndependentPairs(results.AssumedDrawRatio)
	cost := render.ExpectedLength(test, shape, results.AssumedShape, games/2)
	if rates := render.CapErrorRates(test, shape, games/2); rates != "" {
		cost += "; " + rates
	}
	return fmt.Sprintf("SPRT [%g, %g] %s, %s vs %s, %s (at most %s; %s)", test.Elo0, test.Elo1, test.Model, first, second, gameType,
		plural(games, "game"), cost)
}
