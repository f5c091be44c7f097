package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
	"hivearbiter/elo"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
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
	ptnmlText := fs.String("ptnml", "", "pair counts LL,LD,WL+DD,WD,WW")
	wdlText := fs.String("wdl", "", "game counts W,D,L")
	drawRatio := fs.Float64("draw-ratio", results.AssumedDrawRatio, "without counts: the share of games drawn, for the expected cost")
	elo0 := fs.Float64("elo0", 0, "H0: the Elo difference is at most elo0")
	elo1 := fs.Float64("elo1", 5, "H1: the Elo difference is at least elo1")
	alpha := fs.Float64("alpha", arbiter.DefaultSPRTAlpha, "false positive rate")
	beta := fs.Float64("beta", arbiter.DefaultSPRTBeta, "false negative rate")
	modelText := fs.String("model", "normalized", "normalized or logistic (pentanomial and trinomial); bayesian, cutechess, legacy (trinomial)")
	capPairs := fs.Int("cap", 0, "the test's cap in game pairs (0: none): its error rates and length there, or the decision of counts that reach it")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *ptnmlText != "" && *wdlText != "" {
		return cli.Usage(errors.New("give one of -ptnml and -wdl, or neither for the test's expected cost"))
	}
	model, err := elo.ParseModel(*modelText)
	if err != nil {
		return cli.Usage(err)
	}
	test := elo.SPRT{Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta, Model: model}
	if err := test.Validate(); err != nil {
		return cli.Usage(err)
	}
	if *capPairs < 0 {
		return cli.Usage(fmt.Errorf("-cap %d: want a number of game pairs, or 0 for none", *capPairs))
	}
	if *capPairs > 0 && !model.Pentanomial() {
		return cli.Usage(fmt.Errorf("the %s model is trinomial only: a cap of game pairs needs normalized or logistic", model))
	}
	if *capPairs > 0 && *wdlText != "" {
		return cli.Usage(errors.New("-cap counts game pairs: give -ptnml, not -wdl"))
	}
	if *ptnmlText == "" && *wdlText == "" {
		if !model.Pentanomial() {
			return cli.Usage(fmt.Errorf("the %s model is trinomial only: its expected cost has no pair model", model))
		}
		if !(*drawRatio >= 0 && *drawRatio < 1) {
			return cli.Usage(fmt.Errorf("-draw-ratio %g: want a share of games in [0, 1)", *drawRatio))
		}
		assumed := fmt.Sprintf("if %g %% of games are drawn", 100**drawRatio)
		if *capPairs > 0 {
			return render.WriteSPRTCapCost(stdout, test, elo.IndependentPairs(*drawRatio), assumed, *capPairs)
		}
		return render.WriteSPRTCost(stdout, test, elo.IndependentPairs(*drawRatio), assumed)
	}
	ptnml, wdl, err := configs.SPRTCounts(*ptnmlText, *wdlText, model)
	if err != nil {
		return cli.Usage(err)
	}
	d, err := render.WriteSPRTCalc(stdout, test, ptnml, wdl, *capPairs)
	if err != nil {
		return err
	}
	return decisionExit(d)
}
