package results

import (
	"testing"

	"hivearbiter/elo"
)

// TestCapErrorRates: the rates a cap leaves a test, beside its design, and how often a test
// asked to end inconclusive at its cap does.
func TestCapErrorRates(t *testing.T) {
	gate := elo.SPRT{Elo0: -50, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: elo.Logistic}
	inconclusive := gate
	inconclusive.InconclusiveAtCap = true
	shape := elo.IndependentPairs(AssumedDrawRatio)
	for _, tc := range []struct {
		test elo.SPRT
		cap  int
		want string
	}{
		{gate, 100, "at the cap of 100 pairs alpha 14.3 % and beta 14.3 %, designed 5 % and 5 %"},
		{gate, 400, "at the cap of 400 pairs alpha 4.8 % and beta 4.8 %, designed 5 % and 5 %"},
		{inconclusive, 100, "at the cap of 100 pairs alpha 2.3 % and beta 2.4 %, designed 5 % and 5 %, inconclusive there 50.4 % of the time if H0 holds, 48.5 % if H1 does"},
		{elo.SPRT{Elo0: -50, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: elo.Bayesian}, 100, ""},
	} {
		if got := CapErrorRates(tc.test, shape, tc.cap); got != tc.want {
			t.Errorf("%+v at %d pairs: %q, want %q", tc.test, tc.cap, got, tc.want)
		}
	}
}
