package arbiter_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/console"
)

// TestTournamentSPRTDecidesAtItsCap: a capped SPRT that reaches its cap between the bounds
// decides there by its final threshold (elo.SPRT Conclude on the run's counts and cap), says
// so, and a rerun on the same records decides the same; asked to, it ends inconclusive.
func TestTournamentSPRTDecidesAtItsCap(t *testing.T) {
	for _, inconclusive := range []bool{false, true} {
		// Four pairs of random play cannot reach a bound 50 Elo wide.
		cfg := baseConfig(engine("a", "random"), engine("b", "random"))
		cfg.SPRT = &arbiter.SPRTConfig{Elo0: -50, Elo1: 0, Model: "logistic", InconclusiveAtCap: inconclusive}
		cfg.Rounds = 4
		tour := fakeTournament(t, cfg)
		out, err := tour.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st := out.SPRT
		if st == nil || st.Pairs != 4 || st.Cap != 4 {
			t.Fatalf("inconclusive %v: SPRT %+v, want 4 pairs of a cap of 4", inconclusive, st)
		}
		if st.LLR <= st.Lower || st.LLR >= st.Upper {
			t.Fatalf("the LLR %.3f reached a bound in 4 pairs", st.LLR)
		}
		var b bytes.Buffer
		console.WriteStandings(&b, tour, out.Standings, true, false)
		if inconclusive {
			if st.Decision != arbiter.Continue || st.AtCap || out.Summary().Status != "inconclusive" {
				t.Errorf("at_cap=inconclusive: %+v, status %s", st, out.Summary().Status)
			}
			if !strings.Contains(b.String(), "was inconclusive after 4 game pairs") {
				t.Errorf("at_cap=inconclusive: the last lines do not say so:\n%s", b.String())
			}
			continue
		}
		want := cfg.SPRT.Test().Conclude(st.Pentanomial, 4)
		if !st.AtCap || st.Decision == arbiter.Continue || st.Decision != want.Decision || st.Threshold != want.Threshold {
			t.Fatalf("SPRT %+v, want the decision at the cap of %+v", st, want)
		}
		sum := out.Summary()
		if sum.Status != st.Decision.String() || !sum.SPRT.DecidedAtCap || sum.SPRT.Threshold == nil || *sum.SPRT.Threshold != st.Threshold ||
			sum.SPRT.Decision != st.Decision.String() {
			t.Errorf("summary %+v, SPRT %+v: want the decision at the cap", sum, sum.SPRT)
		}
		if !strings.Contains(b.String(), " was accepted at its cap, after 4 game pairs: LLR ") ||
			!strings.Contains(b.String(), " the final threshold ") {
			t.Errorf("the last lines do not say the test decided at its cap:\n%s", b.String())
		}
		// The same records, resumed: the run is complete, and decides the same.
		again, err := fakeTournament(t, withOut(cfg, tour.Config().Out)).Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if again.SPRT == nil || again.SPRT.Decision != st.Decision || !again.SPRT.AtCap || again.Tally.Games != 8 {
			t.Errorf("resumed: %+v after %d games, want %v at the cap after 8", again.SPRT, again.Tally.Games, st.Decision)
		}
	}
}

func withOut(cfg arbiter.Config, out string) arbiter.Config {
	cfg.Out = out
	return cfg
}
