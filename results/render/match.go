// The text a match ends with, as a terminal shows it: the result block (WriteMatchBlock) and the
// figures of its cells. (Package report makes the HTML pages; the field and fault tables are in
// field.go, the cross table in crosstable.go.)

package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// MatchInfo describes the match a result block is about.
type MatchInfo struct {
	TimeControl string // "10+0.1"; "10+0.1 - st=1" when the engines differ
	GameType    string
	Openings    string // where the openings came from, e.g. "openings.txt" or "random 4 plies"
	// MoveLimit is the adjudication that ends long games, e.g. "draw at move 200"; "" for none.
	MoveLimit string
	SPRT      *SPRTLine
}

// SPRTLine is the state of an SPRT, for the LLR line of a result block.
type SPRTLine struct {
	LLR, Lower, Upper float64
	Elo0, Elo1        float64
	// Pairs counts the game pairs LLR is computed from: those up to the decision, in schedule
	// order, when the test decided (0: not said).
	Pairs int
	// AllPairs and AllLLR, when AllPairs differs from Pairs, are the pairs the block counts
	// (games in flight at the decision finish after it) and the LLR over them, which is what
	// arbiter stats -sprt computes from the records.
	AllPairs int
	AllLLR   float64
}

// WriteMatchBlock writes the result block engine authors know from fastchess: Elo and
// normalized Elo with error bars, LOS, draw and pairs ratios, game counts, the pentanomial
// counts and, in an SPRT, the LLR with its bounds. Statistics are pentanomial when there are
// complete game pairs, trinomial otherwise.
func WriteMatchBlock(w io.Writer, p *results.PairingTally, info MatchInfo) {
	const rule = "--------------------------------------------------"
	var details []string
	for _, s := range []string{info.TimeControl, info.GameType, info.Openings, info.MoveLimit} {
		if s != "" {
			details = append(details, s)
		}
	}
	fmt.Fprintln(w, rule)
	if len(details) > 0 {
		fmt.Fprintf(w, "Results of %s vs %s (%s):\n", p.First, p.Second, strings.Join(details, ", "))
	} else {
		fmt.Fprintf(w, "Results of %s vs %s:\n", p.First, p.Second)
	}
	ptnml := p.Pairs.Pentanomial()
	paired := ptnml.Pairs() > 0
	var est elo.Estimate
	if paired {
		est = elo.PentanomialEstimate(ptnml)
	} else {
		est = elo.TrinomialEstimate(p.WDL)
	}
	fmt.Fprintln(w, EloLine(est, p.WDL.Games()))
	if paired {
		fmt.Fprintf(w, "LOS: %.2f %%, DrawRatio: %.2f %%, PairsRatio: %s\n", 100*est.LOS, 100*ptnml.DrawRatio(), ratio(ptnml.PairsRatio()))
	} else {
		fmt.Fprintf(w, "LOS: %.2f %%, DrawRatio: %.2f %%\n", 100*est.LOS, 100*p.WDL.DrawRatio())
	}
	fmt.Fprintf(w, "Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
		p.WDL.Games(), p.WDL.Wins, p.WDL.Losses, p.WDL.Draws, p.WDL.Points(), 100*p.WDL.Score())
	if paired {
		fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d], WL/DD Ratio: %s\n", ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4], wlddRatio(p.Pairs))
	}
	if s := info.SPRT; s != nil {
		pct := 0.0
		if s.LLR >= 0 && s.Upper != 0 {
			pct = s.LLR / s.Upper
		} else if s.LLR < 0 && s.Lower != 0 {
			pct = s.LLR / s.Lower
		}
		fmt.Fprintf(w, "LLR: %.2f (%.1f%%) (%.2f, %.2f) [%.2f, %.2f]", s.LLR, 100*pct, s.Lower, s.Upper, s.Elo0, s.Elo1)
		if s.Pairs > 0 && s.AllPairs != s.Pairs {
			fmt.Fprintf(w, " at the decision, after %d pairs; %.2f over all %d pairs above", s.Pairs, s.AllLLR, s.AllPairs)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, rule)
}

// EloLine prints an Elo estimate from games games with its error bars, as the result block
// shows it. An estimate without spread has no error bar and may be infinite: the line says so
// ("+inf", "undefined") instead of printing the clamped stand-ins of elo.Estimate, which read
// as certainty.
func EloLine(est elo.Estimate, games int) string {
	switch est.Degeneracy {
	case elo.Regular:
		if est.Unbounded {
			return fmt.Sprintf("Elo: %.2f +/- inf, nElo: %.2f +/- %.2f (too few games for a finite Elo interval)", est.Elo, est.NormalizedElo, est.NormalizedErrorMargin)
		}
		return fmt.Sprintf("Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f", est.Elo, est.ErrorMargin, est.NormalizedElo, est.NormalizedErrorMargin)
	case elo.NoResults:
		return "Elo: undefined, nElo: undefined (no games)"
	case elo.AllWon:
		return fmt.Sprintf("Elo: +inf, nElo: +inf (all %d games won: no error bar without spread)", games)
	case elo.AllLost:
		return fmt.Sprintf("Elo: -inf, nElo: -inf (all %d games lost: no error bar without spread)", games)
	}
	return fmt.Sprintf("Elo: %.2f, nElo: %s (every result alike: no error bar without spread)", noNegativeZero(est.Elo), normalizedText(est))
}

// eloText and the functions below print one figure of an estimate for a table cell: the number,
// or what stands in its place.
func eloText(est elo.Estimate) string {
	switch {
	case est.EloDefined():
		return fixed1(est.Elo)
	case est.Degeneracy == elo.AllWon:
		return "+inf"
	case est.Degeneracy == elo.AllLost:
		return "-inf"
	}
	return "-"
}

func normalizedText(est elo.Estimate) string {
	switch {
	case est.NormalizedEloDefined():
		return fmt.Sprintf("%.2f", est.NormalizedElo)
	case est.NormalizedEloInfinity() > 0:
		return "+inf"
	case est.NormalizedEloInfinity() < 0:
		return "-inf"
	}
	return "undefined"
}

func tableNormalized(est elo.Estimate) string {
	if est.NormalizedEloDefined() {
		return fixed1(est.NormalizedElo)
	}
	if t := normalizedText(est); t != "undefined" {
		return t
	}
	return "-"
}

func eloMarginText(est elo.Estimate) string {
	if est.MarginDefined() && est.Unbounded {
		return "inf"
	}
	return marginText(est, est.ErrorMargin)
}

func marginText(est elo.Estimate, margin float64) string {
	if !est.MarginDefined() {
		return "-"
	}
	return fixed1(margin)
}

// noNegativeZero keeps a value that rounds to zero from printing as "-0.00".
func noNegativeZero(x float64) float64 {
	if math.Abs(x) < 0.005 {
		return 0
	}
	return x
}

// ratio prints a ratio that may be infinite.
func ratio(x float64) string {
	if math.IsInf(x, 1) {
		return "inf"
	}
	return fmt.Sprintf("%.2f", x)
}

// wlddRatio is fastchess's WL/DD ratio, or what stands in its place where it has no
// denominator: no pair was two draws, so there is no ratio to print (fastchess prints "inf").
func wlddRatio(c elo.PairCounts) string {
	if c.DD == 0 {
		return "- (no double draws)"
	}
	return fmt.Sprintf("%.2f", c.WLDDRatio())
}

// fixed1 prints x with one decimal, never as "-0.0".
func fixed1(x float64) string {
	s := fmt.Sprintf("%.1f", x)
	if s == "-0.0" {
		return "0.0"
	}
	return s
}
