package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
)

const sprtCalcUsage = `sprt-calc (-ptnml LL,LD,WL+DD,WD,WW | -wdl W,D,L) -elo0 E -elo1 E [-alpha A] [-beta B] [-model normalized|logistic]

Computes the log-likelihood ratio of an SPRT, its bounds and the Elo lines from counts: game-pair
counts (pentanomial, as fishtest and fastchess report them) or game counts (trinomial).`

func runSPRTCalc(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sprt-calc", sprtCalcUsage, stderr)
	ptnmlText := fs.String("ptnml", "", "pair counts LL,LD,WL+DD,WD,WW")
	wdlText := fs.String("wdl", "", "game counts W,D,L")
	elo0 := fs.Float64("elo0", 0, "H0: the Elo difference is at most elo0")
	elo1 := fs.Float64("elo1", 5, "H1: the Elo difference is at least elo1")
	alpha := fs.Float64("alpha", 0.05, "false positive rate")
	beta := fs.Float64("beta", 0.05, "false negative rate")
	modelText := fs.String("model", "normalized", "normalized or logistic (pentanomial and trinomial); bayesian, cutechess, legacy (trinomial)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*ptnmlText == "") == (*wdlText == "") {
		return usageError{errors.New("give exactly one of -ptnml and -wdl")}
	}
	model, err := elo.ParseModel(*modelText)
	if err != nil {
		return usageError{err}
	}
	test := elo.SPRT{Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta, Model: model}
	if err := test.Validate(); err != nil {
		return usageError{err}
	}
	lower, upper := test.Bounds()
	var llr float64
	p := &results.PairingTally{First: "first", Second: "second"}
	if *ptnmlText != "" {
		counts, err := parseCounts(*ptnmlText, 5)
		if err != nil {
			return usageError{fmt.Errorf("-ptnml: %w", err)}
		}
		if !model.Pentanomial() {
			return usageError{fmt.Errorf("the %s model is trinomial only: give -wdl", model)}
		}
		ptnml := elo.Pentanomial{counts[0], counts[1], counts[2], counts[3], counts[4]}
		if ptnml.Pairs() == 0 {
			return usageError{errors.New("-ptnml: every count is 0: there is nothing to compute from")}
		}
		llr = test.LLR(ptnml)
		est := elo.PentanomialEstimate(ptnml)
		fmt.Fprintln(stdout, results.EloLine(est, ptnml.Games()))
		pairsRatio := fmt.Sprintf("%.2f", ptnml.PairsRatio())
		if math.IsInf(ptnml.PairsRatio(), 1) {
			pairsRatio = "inf" // as the result block writes it
		}
		fmt.Fprintf(stdout, "LOS: %.2f %%, DrawRatio: %.2f %%, PairsRatio: %s\n", 100*est.LOS, 100*ptnml.DrawRatio(), pairsRatio)
		fmt.Fprintf(stdout, "Pairs: %d, Points: %.1f (%.2f %%)\n", ptnml.Pairs(), ptnml.Points(), 100*ptnml.Score())
		fmt.Fprintf(stdout, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4])
	} else {
		counts, err := parseCounts(*wdlText, 3)
		if err != nil {
			return usageError{fmt.Errorf("-wdl: %w", err)}
		}
		p.WDL = elo.WDL{Wins: counts[0], Draws: counts[1], Losses: counts[2]}
		if p.WDL.Games() == 0 {
			return usageError{errors.New("-wdl: every count is 0: there is nothing to compute from")}
		}
		llr = test.LLRTrinomial(p.WDL)
		est := elo.TrinomialEstimate(p.WDL)
		fmt.Fprintln(stdout, results.EloLine(est, p.WDL.Games()))
		fmt.Fprintf(stdout, "LOS: %.2f %%, DrawRatio: %.2f %%\n", 100*est.LOS, 100*p.WDL.DrawRatio())
		fmt.Fprintf(stdout, "Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
			p.WDL.Games(), p.WDL.Wins, p.WDL.Losses, p.WDL.Draws, p.WDL.Points(), 100*p.WDL.Score())
	}
	fmt.Fprintf(stdout, "LLR: %.4f (%.1f%%) (%.4f, %.4f) [%.2f, %.2f] %s\n", llr, 100*test.Progress(llr), lower, upper, test.Elo0, test.Elo1, test.Model)
	switch test.Status(llr) {
	case elo.AcceptH1:
		fmt.Fprintln(stdout, "H1 accepted")
	case elo.AcceptH0:
		fmt.Fprintln(stdout, "H0 accepted")
	default:
		fmt.Fprintln(stdout, "no decision yet")
	}
	return nil
}

// parseCounts reads n comma-separated non-negative whole numbers.
func parseCounts(s string, n int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d comma-separated counts, got %d", n, len(parts))
	}
	counts := make([]int, n)
	for i, p := range parts {
		c, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || c < 0 {
			return nil, fmt.Errorf("%q is not a count", p)
		}
		counts[i] = c
	}
	return counts, nil
}
