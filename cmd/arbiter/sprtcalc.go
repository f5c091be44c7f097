package main

import (
	"context"
	"fmt"
	"io"

	"hivearbiter/configs"
	"hivearbiter/elo"
	"hivearbiter/internal/cli"
	"hivearbiter/results/render"
)

const sprtCalcUsage = `sprt-calc [-ptnml LL,LD,WL+DD,WD,WW | -wdl W,D,L | -draw-ratio D] -elo0 E -elo1 E [-alpha A] [-beta B] [-model normalized|logistic] [-cap N]

Computes the log-likelihood ratio of an SPRT, its bounds and the Elo lines from counts: game-pair
counts (pentanomial, as fishtest and fastchess report them) or game counts (trinomial). Exits as
arbiter match -sprt does: 0 when H1 is accepted, 3 when H0 is, 4 with no decision yet. With
-cap N (the run's cap in game pairs), pair counts that reach the cap between the bounds are
decided as a match decides them there, by the final threshold on the LLR.

Without counts it says what the test costs before it runs: its hypotheses in words and, at its
bounds, their midpoint and a bound-width beyond each, the probability that it accepts H1 and the
game pairs and games it is expected to play, from the pentanomial model of pairs of independent
games drawn at -draw-ratio (Wald's approximation, as fishtest's SPRT calculator). With -cap N
it says what the cap leaves: the final threshold, both error rates and the expected length at
the cap, and the shortest cap that keeps both error rates within a point of their design. Exits 0.`

func runSPRTCalc(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sprt-calc", sprtCalcUsage, stderr)
	c := bindSPRTCalc(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	test, err := c.Test()
	if err != nil {
		return cli.Usage(err)
	}
	if c.Cost() {
		assumed := fmt.Sprintf("if %g %% of games are drawn", 100*c.DrawRatio)
		if c.Cap > 0 {
			return render.WriteSPRTCapCost(stdout, test, elo.IndependentPairs(c.DrawRatio), assumed, c.Cap)
		}
		return render.WriteSPRTCost(stdout, test, elo.IndependentPairs(c.DrawRatio), assumed)
	}
	ptnml, wdl, err := configs.SPRTCounts(c.PTNML, c.WDL, test.Model)
	if err != nil {
		return cli.Usage(err)
	}
	d, err := render.WriteSPRTCalc(stdout, test, ptnml, wdl, c.Cap)
	if err != nil {
		return err
	}
	return decisionExit(d)
}
