package elo

import (
	"fmt"
	"math"
	"strconv"
)

// IsRegressionTest reports whether the test is a gate against a regression: its H0 says the
// first engine is weaker (Elo0 < 0), so accepting H0 rejects the change, as a CI gate fails
// a build. A test whose H0 is "no gain" (Elo0 ≥ 0) is a gain test: accepting its H0 says only
// that the change did not show the gain asked of it.
func (s SPRT) IsRegressionTest() bool { return s.Elo0 < 0 }

// Unit is the name of the test's Elo scale, as its bounds are read: "Elo" (logistic, and
// cutechess's effectively logistic bounds), "normalized Elo" or "BayesElo".
func (s SPRT) Unit() string {
	switch s.Model {
	case Normalized:
		return "normalized Elo"
	case Bayesian, BayesEloLegacy:
		return "BayesElo"
	}
	return "Elo"
}

// Hypotheses states H0 (elo ≤ Elo0) and H1 (elo ≥ Elo1) as sentences about the engines
// first and second, each true of the signs of its bound: for [-50, 0] logistic, "new is
// weaker than old by 50 Elo or more" and "new is no weaker than old"; for [2, 7], "new gains
// at most 2 normalized Elo over old" and "new gains at least 7 normalized Elo over old".
func (s SPRT) Hypotheses(first, second string) (h0, h1 string) {
	unit := s.Unit()
	switch {
	case s.Elo0 < 0:
		h0 = fmt.Sprintf("%s is weaker than %s by %s %s or more", first, second, amount(s.Elo0), unit)
	case s.Elo0 == 0:
		h0 = fmt.Sprintf("%s is no stronger than %s", first, second)
	default:
		h0 = fmt.Sprintf("%s gains at most %s %s over %s", first, amount(s.Elo0), unit, second)
	}
	switch {
	case s.Elo1 < 0:
		h1 = fmt.Sprintf("%s loses at most %s %s to %s", first, amount(s.Elo1), unit, second)
	case s.Elo1 == 0:
		h1 = fmt.Sprintf("%s is no weaker than %s", first, second)
	default:
		h1 = fmt.Sprintf("%s gains at least %s %s over %s", first, amount(s.Elo1), unit, second)
	}
	return h0, h1
}

// amount is the size of a bound, without its sign: "50", "1.75".
func amount(elo float64) string {
	return strconv.FormatFloat(math.Abs(elo), 'f', -1, 64)
}
