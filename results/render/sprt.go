package render

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// WriteSPRTCalc writes what arbiter sprt-calc computes from counts: the Elo estimate, the
// LOS and draw ratio, the counts, and the test's LLR, bounds and decision. Give either pair
// counts (ptnml) or game counts (wdl). maxPairs, when not 0, is the run's cap of game pairs
// (pair counts only): counts that reach it between the bounds are decided as a match decides
// them there (elo.SPRT Conclude). It returns the test's decision, which the command's exit code
// reports.
func WriteSPRTCalc(w io.Writer, test elo.SPRT, ptnml *elo.Pentanomial, wdl *elo.WDL, maxPairs int) (elo.Decision, error) {
	b := bufio.NewWriter(w)
	var llr float64
	if ptnml != nil {
		llr = test.LLR(*ptnml)
		est := elo.PentanomialEstimate(*ptnml)
		fmt.Fprintln(b, EloLine(est, ptnml.Games()))
		pairsRatio := fmt.Sprintf("%.2f", ptnml.PairsRatio())
		if math.IsInf(ptnml.PairsRatio(), 1) {
			pairsRatio = "inf" // as the result block writes it
		}
		fmt.Fprintf(b, "LOS: %.2f %%, DrawRatio: %.2f %%, PairsRatio: %s\n", 100*est.LOS, 100*ptnml.DrawRatio(), pairsRatio)
		fmt.Fprintf(b, "Pairs: %d, Points: %.1f (%.2f %%)\n", ptnml.Pairs(), ptnml.Points(), 100*ptnml.Score())
		fmt.Fprintf(b, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4])
	} else {
		llr = test.LLRTrinomial(*wdl)
		est := elo.TrinomialEstimate(*wdl)
		fmt.Fprintln(b, EloLine(est, wdl.Games()))
		fmt.Fprintf(b, "LOS: %.2f %%, DrawRatio: %.2f %%\n", 100*est.LOS, 100*wdl.DrawRatio())
		fmt.Fprintf(b, "Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
			wdl.Games(), wdl.Wins, wdl.Losses, wdl.Draws, wdl.Points(), 100*wdl.Score())
	}
	lower, upper := test.Bounds()
	fmt.Fprintf(b, "LLR: %.4f (%.1f%%) (%.4f, %.4f) [%.2f, %.2f] %s\n", llr, 100*test.Progress(llr), lower, upper, test.Elo0, test.Elo1, test.Model)
	decision := test.Status(llr)
	if ptnml != nil && maxPairs > 0 && decision == elo.Continue {
		c := test.Conclude(*ptnml, maxPairs)
		decision = c.Decision
		switch {
		case c.AtCap:
			side := "at or above"
			if c.Decision == elo.AcceptH0 {
				side = "below"
			}
			fmt.Fprintf(b, "At its cap of %d game pairs: the LLR %.4f is %s the final threshold %.4f, for pairs distributed as these\n", maxPairs, llr, side, c.Threshold)
		case ptnml.Pairs() < maxPairs:
			fmt.Fprintf(b, "%d of the cap's %d game pairs played\n", ptnml.Pairs(), maxPairs)
		default:
			fmt.Fprintf(b, "At its cap of %d game pairs, inconclusive as asked (at_cap=inconclusive)\n", maxPairs)
		}
	}
	fmt.Fprintln(b, SPRTConclusion(test, decision, "the first engine", "the second"))
	return decision, b.Flush()
}

// WriteSPRTCost writes what arbiter sprt-calc says of a test before it runs: its hypotheses
// in words, and at each of its expectation Elos (elo.SPRT ExpectationElos) how likely it
// accepts H1 and how many game pairs and games it is expected to play, for pairs shaped as
// shape, which assumed names ("if 10 % of games are drawn").
func WriteSPRTCost(w io.Writer, test elo.SPRT, shape [5]float64, assumed string) error {
	b := bufio.NewWriter(w)
	lower, upper := test.Bounds()
	h0, h1 := test.Hypotheses("the first engine", "the second")
	fmt.Fprintf(b, "SPRT [%g, %g] %s, alpha %g, beta %g: LLR bounds (%.2f, %.2f)\n", test.Elo0, test.Elo1, test.Model, test.Alpha, test.Beta, lower, upper)
	fmt.Fprintf(b, "H0: %s\nH1: %s\n", h0, h1)
	fmt.Fprintf(b, "Expected cost %s (Wald's approximation, as fishtest's calculator: no cap, no overshoot):\n", assumed)
	unit := "true Elo"
	if test.Model == elo.Normalized {
		unit = "true nElo"
	}
	fmt.Fprintf(b, "%10s  %14s  %10s  %10s\n", unit, "P(H1 accepted)", "game pairs", "games")
	for _, at := range test.ExpectationElos() {
		e, err := test.Expect(shape, at)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "%10.2f  %12.2f %%  %10s  %10s\n", at, 100*e.PassH1, costText(e.Pairs, 1), costText(e.Pairs, 2))
	}
	return b.Flush()
}

// WriteSPRTCapCost writes what arbiter sprt-calc -cap says of a test capped at maxPairs game
// pairs before it runs, for pairs shaped as shape, which assumed names: the final threshold on
// the LLR at the cap, the error rates and the expected length the cap leaves (elo.SPRT
// Truncate), the shortest cap that keeps both error rates within a point of their design
// (elo.SPRT CapFor), and at each of the test's expectation Elos how likely it accepts H1 and
// how many game pairs it plays, cap and threshold included.
func WriteSPRTCapCost(w io.Writer, test elo.SPRT, shape [5]float64, assumed string, maxPairs int) error {
	tr, err := test.Truncate(shape, maxPairs)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(w)
	lower, upper := test.Bounds()
	h0, h1 := test.Hypotheses("the first engine", "the second")
	fmt.Fprintf(b, "SPRT [%g, %g] %s, alpha %g, beta %g: LLR bounds (%.2f, %.2f)\n", test.Elo0, test.Elo1, test.Model, test.Alpha, test.Beta, lower, upper)
	fmt.Fprintf(b, "H0: %s\nH1: %s\n", h0, h1)
	fmt.Fprintf(b, "Capped at %d game pairs, %s: at the cap, H1 is accepted if the LLR is %.2f or more, H0 if it is less\n", maxPairs, assumed, tr.Threshold)
	fmt.Fprintf(b, "  alpha (H1 accepted at %g): %.2f %% (%.2f %% at the cap), designed %.2f %%\n", test.Elo0, 100*tr.Alpha, 100*tr.AlphaAtCap, 100*test.Alpha)
	fmt.Fprintf(b, "  beta (H0 accepted at %g): %.2f %% (%.2f %% at the cap), designed %.2f %%\n", test.Elo1, 100*tr.Beta, 100*tr.BetaAtCap, 100*test.Beta)
	fmt.Fprintf(b, "  expected game pairs: %.1f at %g (%.2f %% reach the cap), %.1f at %g (%.2f %%)\n",
		tr.Pairs0, test.Elo0, 100*tr.Capped0, tr.Pairs1, test.Elo1, 100*tr.Capped1)
	const tolerance = 0.01
	limit := max(4*maxPairs, 20000)
	if within, ok, err := test.CapFor(shape, tolerance, limit); err != nil {
		return err
	} else if ok {
		fmt.Fprintf(b, "The shortest cap within a point of alpha and beta: %d game pairs (alpha %.2f %%, beta %.2f %%; expected %.1f and %.1f game pairs)\n",
			within.Cap, 100*within.Alpha, 100*within.Beta, within.Pairs0, within.Pairs1)
	} else {
		fmt.Fprintf(b, "No cap of up to %d game pairs keeps alpha and beta within a point\n", limit)
	}
	unit := "true Elo"
	if test.Model == elo.Normalized {
		unit = "true nElo"
	}
	fmt.Fprintf(b, "Expected cost with the cap (the LLR played pair by pair, its threshold at the cap):\n")
	fmt.Fprintf(b, "%10s  %14s  %10s  %10s  %13s\n", unit, "P(H1 accepted)", "game pairs", "games", "reach the cap")
	for _, at := range test.ExpectationElos() {
		e, err := test.ExpectCapped(tr, at)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "%10.2f  %12.2f %%  %10s  %10s  %11.2f %%\n", at, 100*e.PassH1, costText(e.Pairs, 1), costText(e.Pairs, 2), 100*e.Capped)
	}
	return b.Flush()
}

// costText is an expected number of pairs times per, to a tenth.
func costText(pairs, per float64) string {
	if math.IsInf(pairs, 0) || math.IsNaN(pairs) {
		return "endless"
	}
	return fmt.Sprintf("%.1f", pairs*per)
}

// ExpectedLength says what an SPRT is expected to cost if H0 holds (the difference is elo0)
// and if H1 does (elo1), for pairs shaped as shape (see elo.SPRT.Expect), which assumed
// names: "expected 97 game pairs if H0 holds, 93 if H1 does, if 10 % of games are drawn".
// maxPairs, when not 0, is the run's cap: a cap below either expectation is said.
func ExpectedLength(test elo.SPRT, shape [5]float64, assumed string, maxPairs int) string {
	h0, err0 := test.Expect(shape, test.Elo0)
	h1, err1 := test.Expect(shape, test.Elo1)
	if err0 != nil || err1 != nil {
		return "its expected length unknown"
	}
	s := fmt.Sprintf("expected %s game pairs if H0 holds, %s if H1 does, %s", pairsText(h0.Pairs), pairsText(h1.Pairs), assumed)
	if maxPairs > 0 && max(h0.Pairs, h1.Pairs) > float64(maxPairs) {
		s += fmt.Sprintf(": more than the cap of %d pairs", maxPairs)
	}
	return s
}

// CapErrorRates says what error rates a test capped at maxPairs game pairs is left with, for
// pairs shaped as shape (elo.SPRT Truncate), beside its design: "at the cap of 400 pairs alpha
// 4.8 % and beta 4.8 %, designed 5 % and 5 %". A test that ends inconclusive at its cap says
// how often it does; one that cannot be computed says nothing ("").
func CapErrorRates(test elo.SPRT, shape [5]float64, maxPairs int) string {
	t, err := test.Truncate(shape, maxPairs)
	if err != nil {
		return ""
	}
	alpha, beta := t.Alpha, t.Beta
	if test.InconclusiveAtCap {
		alpha, beta = alpha-t.AlphaAtCap, beta-t.BetaAtCap
	}
	s := fmt.Sprintf("at the cap of %d pairs alpha %s and beta %s, designed %s and %s", maxPairs, percent(alpha), percent(beta), percent(test.Alpha), percent(test.Beta))
	if test.InconclusiveAtCap {
		s += fmt.Sprintf(", inconclusive there %s of the time if H0 holds, %s if H1 does", percent(t.Capped0), percent(t.Capped1))
	}
	return s
}

// percent is a probability as a percentage to a tenth, without a needless ".0".
func percent(p float64) string {
	return strconv.FormatFloat(math.Round(1000*p)/10, 'f', -1, 64) + " %"
}

// pairsText is an expected number of pairs, rounded up to a whole pair.
func pairsText(pairs float64) string {
	if math.IsInf(pairs, 0) || math.IsNaN(pairs) {
		return "endless"
	}
	return fmt.Sprintf("%.0f", math.Ceil(pairs))
}

// SPRTConclusion is what an SPRT's decision says of the engines, in one line: the hypothesis
// accepted in the words of the test's bounds ("H0 accepted: new is weaker than old by 50 Elo
// or more"), or both hypotheses when neither is accepted yet ("no decision yet: ...", the line
// sprt-calc printed before it said more).
func SPRTConclusion(test elo.SPRT, d elo.Decision, first, second string) string {
	h0, h1 := test.Hypotheses(first, second)
	switch d {
	case elo.AcceptH1:
		return "H1 accepted: " + h1 + "."
	case elo.AcceptH0:
		return "H0 accepted: " + h0 + "."
	}
	return "no decision yet: neither H0, " + h0 + ", nor H1, " + h1 + ", is accepted."
}

// RecordsSPRT is the test the records' run was played to (results.RecordsTest), said on w as
// arbiter stats says it, or nil: records without one, or whose runs' tests differ (a warning
// says so), are tested only with -sprt. maxPairs is the run's cap in game pairs, at which the
// test decides as the run did (0 when the records do not say it).
func RecordsSPRT(w io.Writer, recs []results.Record) (test *elo.SPRT, maxPairs int) {
	carried, err := results.RecordsTest(recs)
	var differ *results.TestsDifferError
	switch {
	case errors.As(err, &differ):
		fmt.Fprintf(w, "Warning: %s: -sprt says which to apply\n", differ.Message())
		return nil, 0
	case carried == nil:
		return nil, 0
	}
	sprt, err := carried.SPRT()
	if err != nil {
		fmt.Fprintf(w, "Warning: the records' test (%s) is not one: %v; -sprt gives one\n", carried, err)
		return nil, 0
	}
	fmt.Fprintf(w, "SPRT of the records' run: %s (-sprt tests them otherwise)\n", carried)
	return &sprt, carried.MaxPairs()
}

// WriteSPRTVerdict writes what the SPRT test of records (their Summary, of WriteStats) decided,
// in the words of a match's last lines, and what that says of the engines; it returns the
// decision.
func WriteSPRTVerdict(w io.Writer, test elo.SPRT, s *results.Summary) elo.Decision {
	d := test.Status(s.SPRT.LLR)
	verdict := sprtVerdict(test, d, s.SPRT.Pairs)
	if s.SPRT.DecidedAtCap && s.SPRT.Threshold != nil {
		d = s.SPRT.Decided() // H0 or H1: a test decided at its cap is decided
		verdict = sprtVerdict(test, d, s.SPRT.Pairs) + fmt.Sprintf(" at its cap (LLR %.2f against the final threshold %.2f)", s.SPRT.LLR, *s.SPRT.Threshold)
	}
	fmt.Fprintln(w, verdict)
	if len(s.Pairings) > 0 {
		fmt.Fprintln(w, SPRTConclusion(test, d, s.Pairings[0].First, s.Pairings[0].Second))
	}
	return d
}

// sprtVerdict is the line that says what an SPRT of records decided.
func sprtVerdict(test elo.SPRT, d elo.Decision, pairs int) string {
	verdict := "has no decision yet"
	switch d {
	case elo.AcceptH1:
		verdict = "completed - H1 was accepted"
	case elo.AcceptH0:
		verdict = "completed - H0 was accepted"
	}
	return fmt.Sprintf("SPRT ([%.2f, %.2f], %s) %s after %d game pairs", test.Elo0, test.Elo1, test.Model, verdict, pairs)
}
