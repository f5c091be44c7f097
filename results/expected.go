package results

import (
	"fmt"
	"math"
	"strconv"

	"hivearbiter/elo"
)

// AssumedDrawRatio is the share of drawn games an SPRT's cost is estimated with before a run
// has played any: about what hivebot draws against itself (one game in ten; on a clock two
// pairs in five are won or lost twice). arbiter sprt-calc -draw-ratio sets another.
const AssumedDrawRatio = 0.1

// AssumedShape names the pair distribution of AssumedDrawRatio, as ExpectedLength says it.
const AssumedShape = "if 10 % of games are drawn"

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
