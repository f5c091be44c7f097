package elo

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestHypotheses(t *testing.T) {
	tests := []struct {
		test   SPRT
		h0, h1 string
	}{
		{sprt(-50, 0, Logistic), "NEW is weaker than RELEASED by 50 Elo or more", "NEW is no weaker than RELEASED"},
		{sprt(2, 7, Logistic), "NEW gains at most 2 Elo over RELEASED", "NEW gains at least 7 Elo over RELEASED"},
		{sprt(0, 5, Normalized), "NEW is no stronger than RELEASED", "NEW gains at least 5 normalized Elo over RELEASED"},
		{sprt(-1.75, 0.25, Normalized), "NEW is weaker than RELEASED by 1.75 normalized Elo or more", "NEW gains at least 0.25 normalized Elo over RELEASED"},
		{sprt(-20, -10, Logistic), "NEW is weaker than RELEASED by 20 Elo or more", "NEW loses at most 10 Elo to RELEASED"},
		{sprt(0, 5, BayesEloLegacy), "NEW is no stronger than RELEASED", "NEW gains at least 5 BayesElo over RELEASED"},
	}
	for _, tt := range tests {
		h0, h1 := tt.test.Hypotheses("NEW", "RELEASED")
		if h0 != tt.h0 || h1 != tt.h1 {
			t.Errorf("[%g, %g] %s:\n H0 %q, want %q\n H1 %q, want %q", tt.test.Elo0, tt.test.Elo1, tt.test.Model, h0, tt.h0, h1, tt.h1)
		}
	}
	if !sprt(-50, 0, Logistic).IsRegressionTest() || sprt(0, 5, Normalized).IsRegressionTest() || sprt(2, 7, Logistic).IsRegressionTest() {
		t.Error("IsRegressionTest: want true for elo0 < 0 only")
	}
}

// TestExpectWald checks Expect against Wald's closed forms where they are exact for a
// Brownian LLR: at the bounds the test accepts H1 with probability α and 1-β (up to the tilt's
// approximation of the distributions), at the midpoint with a/(a-b), and it is symmetric.
func TestExpectWald(t *testing.T) {
	for _, test := range []SPRT{sprt(-50, 0, Logistic), sprt(0, 5, Normalized), sprt(2, 7, Logistic)} {
		shape := IndependentPairs(0.4)
		at := func(elo float64) Expectation {
			e, err := test.Expect(shape, elo)
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		near(t, test.Model.String()+" P(H1) at elo0", at(test.Elo0).PassH1, test.Alpha, 0.01)
		near(t, test.Model.String()+" P(H1) at elo1", at(test.Elo1).PassH1, 1-test.Beta, 0.01)
		near(t, test.Model.String()+" P(H1) at the midpoint", at((test.Elo0+test.Elo1)/2).PassH1, 0.5, 0.01)
		e0, e1 := at(test.Elo0), at(test.Elo1)
		if math.Abs(e0.Pairs-e1.Pairs) > 0.1*e0.Pairs {
			t.Errorf("%v: %.1f pairs at elo0, %.1f at elo1: want about the same", test, e0.Pairs, e1.Pairs)
		}
		mid := at((test.Elo0 + test.Elo1) / 2)
		if !(mid.Pairs > e0.Pairs && e0.Pairs > at(2*test.Elo0-test.Elo1).Pairs) {
			t.Errorf("%v: the test should be longest at the midpoint and shorter away from the bounds", test)
		}
	}
	if _, err := sprt(0, 5, Bayesian).Expect(IndependentPairs(0.4), 0); err == nil {
		t.Error("a trinomial model: want an error")
	}
}

// TestExpectSimulated checks Expect against the test played on random pairs: the shipped
// gate's bounds, at each of its expectation Elos. Wald's approximation leaves out the LLR's
// overshoot of its bound, so the simulated test runs a little longer than expected, and
// errs a little less.
func TestExpectSimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 4000 SPRTs")
	}
	gate := sprt(-50, 0, Logistic)
	shape := IndependentPairs(0.3)
	rng := rand.New(rand.NewPCG(41, 1))
	const runs = 800
	for _, elo := range gate.ExpectationElos() {
		want, err := gate.Expect(shape, elo)
		if err != nil {
			t.Fatal(err)
		}
		pdf := gate.PairDistribution(shape, elo)
		passed, pairs := 0, 0
		for range runs {
			run := gate.Simulate(rng, pdf, 0)
			if run.Decision == AcceptH1 {
				passed++
			}
			pairs += run.Pairs
		}
		gotPass, gotPairs := float64(passed)/runs, float64(pairs)/runs
		t.Logf("Elo %+4.0f: P(H1) %.3f simulated, %.3f expected; pairs %.1f simulated, %.1f expected", elo, gotPass, want.PassH1, gotPairs, want.Pairs)
		if math.Abs(gotPass-want.PassH1) > 0.05 {
			t.Errorf("Elo %g: P(H1) %.3f simulated, %.3f expected", elo, gotPass, want.PassH1)
		}
		if gotPairs < 0.85*want.Pairs || gotPairs > 1.3*want.Pairs {
			t.Errorf("Elo %g: %.1f pairs simulated, %.1f expected (want within -15%%..+30%%)", elo, gotPairs, want.Pairs)
		}
	}
}

// TestExpectMirrors: pairs that are all mirrors (one point each) give an LLR of almost no
// variance, where Wald's exponentials overflow; the expectation must stay a number.
func TestExpectMirrors(t *testing.T) {
	gate := sprt(-50, 0, Logistic)
	for _, elo := range gate.ExpectationElos() {
		e, err := gate.Expect([5]float64{0, 0, 22, 0, 0}, elo)
		if err != nil || math.IsNaN(e.PassH1) || math.IsNaN(e.Pairs) || math.IsInf(e.Pairs, 0) {
			t.Errorf("Elo %g: %+v, %v", elo, e, err)
		}
	}
}

// fishtestCalc is fishtest's SPRT calculator (server/fishtest/static/js/sprt.js) with an RMS
// bias of 0: the probability of passing and the expected games of a test at the logistic
// Elo elo, for games drawn with probability draws.
func fishtestCalc(test SPRT, draws, elo float64) (pass, games float64) {
	variance := (1 - draws) / 4
	s0, s1 := ScoreFromElo(test.Elo0), ScoreFromElo(test.Elo1)
	if test.Model == Normalized {
		s0 = test.Elo0/eloPerNatural*math.Sqrt(variance) + 0.5
		s1 = test.Elo1/eloPerNatural*math.Sqrt(variance) + 0.5
	}
	w2 := (s1 - s0) * (s1 - s0) / variance
	la, lb := test.Bounds()
	h := (2*ScoreFromElo(elo) - (s0 + s1)) / (s1 - s0)
	if math.Abs(h*(la-lb)) < 1e-6 {
		return -la / (lb - la), -la * lb / w2
	}
	ea, eb := math.Exp(-h*la), math.Exp(-h*lb)
	pass = (1 - ea) / (eb - ea)
	return pass, 2 / h * (lb*pass + la*(1-pass)) / w2
}

// TestExpectFishtest checks Expect against fishtest's calculator, whose games are ours
// doubled (pairs): to 0.5 % for normalized bounds (both are exact for the per-game t-value
// at the bounds), and to 5 % for logistic ones, where fishtest takes the variance of a game
// at Elo 0 for every Elo and we tilt the pair distribution.
func TestExpectFishtest(t *testing.T) {
	for _, tc := range []struct {
		test      SPRT
		draws     float64
		tolerance float64
	}{
		{sprt(0, 5, Normalized), 0.1, 0.005},
		{sprt(0, 2, Normalized), 0.6, 0.005},
		{sprt(-50, 0, Logistic), 0.1, 0.05},
		{sprt(2, 7, Logistic), 0.4, 0.05},
	} {
		for _, at := range []float64{tc.test.Elo0, tc.test.Elo1} {
			e, err := tc.test.Expect(IndependentPairs(tc.draws), at)
			if err != nil {
				t.Fatal(err)
			}
			// Fishtest's Elo is logistic: the normalized bound's score, for its draw ratio.
			elo := at
			if tc.test.Model == Normalized {
				elo = EloFromScore(at/eloPerNatural*math.Sqrt((1-tc.draws)/4) + 0.5)
			}
			pass, games := fishtestCalc(tc.test, tc.draws, elo)
			near(t, "P(H1)", e.PassH1, pass, 0.01)
			if math.Abs(2*e.Pairs-games) > tc.tolerance*games {
				t.Errorf("[%g, %g] %s at %g: %.1f games, fishtest's calculator %.1f", tc.test.Elo0, tc.test.Elo1, tc.test.Model, at, 2*e.Pairs, games)
			}
		}
	}
}
