package elo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mirrorShape is a shape of mostly mirrors: seven pairs in ten score one point.
var mirrorShape = [5]float64{0.1, 0.05, 0.7, 0.05, 0.1}

// TestTruncateSimulated checks the error rates Truncate computes against capped tests played
// on random pairs at the bounds, each decided at its cap by Decide as a match decides: the
// shipped gate's bounds at caps that stop many of its runs (200 pairs of independent games,
// 100 of mostly mirrors). The tolerance is 2.5 standard errors of 2000 runs at the rates here
// (at most 9 %: SE 0.65 points), 1.5 points, and on mostly mirrors a point more: there the
// GSPRT errs about a point more than the walk Truncate models (an early run of pairs without
// spread lifts its LLR faster; docs/experiments/gate-error-rates).
func TestTruncateSimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 8000 capped SPRTs")
	}
	gate := sprt(-50, 0, Logistic)
	const runs = 2000
	rng := rand.New(rand.NewPCG(48, 1))
	for _, tc := range []struct {
		name      string
		shape     [5]float64
		cap       int
		tolerance float64
	}{
		{"independent games, 10 % drawn", IndependentPairs(0.1), 200, 0.015},
		{"mostly mirrors", mirrorShape, 100, 0.025},
	} {
		want, err := gate.Truncate(tc.shape, tc.cap)
		if err != nil {
			t.Fatal(err)
		}
		errors := func(elo float64, wrong Decision) (rate, atCap float64) {
			pdf := gate.PairDistribution(tc.shape, elo)
			var n, capped int
			for range runs {
				run := gate.Simulate(rng, pdf, tc.cap)
				if run.Decision == Continue {
					t.Fatalf("%s: a capped test ended without a decision", tc.name)
				}
				if run.Decision == wrong {
					n++
					if run.AtCap {
						capped++
					}
				}
			}
			return float64(n) / runs, float64(capped) / runs
		}
		alpha, alphaAtCap := errors(gate.Elo0, AcceptH1)
		beta, betaAtCap := errors(gate.Elo1, AcceptH0)
		t.Logf("%s, cap %d (threshold %.3f): alpha %.4f simulated (%.4f at the cap), %.4f computed (%.4f); beta %.4f (%.4f), %.4f (%.4f)",
			tc.name, tc.cap, want.Threshold, alpha, alphaAtCap, want.Alpha, want.AlphaAtCap, beta, betaAtCap, want.Beta, want.BetaAtCap)
		if math.Abs(alpha-want.Alpha) > tc.tolerance {
			t.Errorf("%s: alpha %.4f simulated, %.4f computed", tc.name, alpha, want.Alpha)
		}
		if math.Abs(beta-want.Beta) > tc.tolerance {
			t.Errorf("%s: beta %.4f simulated, %.4f computed", tc.name, beta, want.Beta)
		}
		// The cap decides a good part of the errors here, so the threshold is tested too.
		if want.AlphaAtCap < 0.02 || want.BetaAtCap < 0.02 {
			t.Errorf("%s: the cap decides too little (%.4f, %.4f) for the test to check the threshold", tc.name, want.AlphaAtCap, want.BetaAtCap)
		}
	}
}

// TestTruncateBalances checks the threshold's rule: both error rates as near the design as
// the cap allows, in proportion to it. Moving the threshold either way must make the worse of
// the two rates worse, and the rates ExpectCapped gives at the bounds are Truncate's.
func TestTruncateBalances(t *testing.T) {
	for _, test := range []SPRT{
		sprt(-50, 0, Logistic),
		{Elo0: -50, Elo1: 0, Alpha: 0.02, Beta: 0.1, Model: Logistic},
		sprt(0, 20, Normalized),
	} {
		cap := 150
		if test.Model == Normalized {
			cap = 600
		}
		tr, err := test.Truncate(IndependentPairs(0.1), cap)
		if err != nil {
			t.Fatal(err)
		}
		worst := func(threshold float64) float64 {
			moved := tr
			moved.Threshold = threshold
			at0, err := test.ExpectCapped(moved, test.Elo0)
			if err != nil {
				t.Fatal(err)
			}
			at1, err := test.ExpectCapped(moved, test.Elo1)
			if err != nil {
				t.Fatal(err)
			}
			return max(at0.PassH1/test.Alpha, (1-at1.PassH1)/test.Beta)
		}
		at0, _ := test.ExpectCapped(tr, test.Elo0)
		at1, _ := test.ExpectCapped(tr, test.Elo1)
		if math.Abs(at0.PassH1-tr.Alpha) > 1e-9 || math.Abs(1-at1.PassH1-tr.Beta) > 1e-9 {
			t.Errorf("%+v: ExpectCapped gives %.6f and %.6f at the bounds, Truncate %.6f and %.6f", test, at0.PassH1, 1-at1.PassH1, tr.Alpha, tr.Beta)
		}
		if math.Abs(at0.Pairs-tr.Pairs0) > 1e-9 || math.Abs(at0.Capped-tr.Capped0) > 1e-9 {
			t.Errorf("%+v: ExpectCapped gives %.3f pairs (%.4f capped), Truncate %.3f (%.4f)", test, at0.Pairs, at0.Capped, tr.Pairs0, tr.Capped0)
		}
		best := worst(tr.Threshold)
		lower, upper := test.Bounds()
		step := (upper - lower) / float64(tr.GridSteps)
		for _, d := range []float64{-5, -1, 1, 5} {
			if w := worst(tr.Threshold + d*step); w < best-1e-12 {
				t.Errorf("%+v: threshold %.4f leaves the worse rate at %.4f of its design, %.4f at %.4f", test, tr.Threshold, best, w, tr.Threshold+d*step)
			}
		}
		t.Logf("%+v at cap %d: threshold %.4f, alpha %.4f, beta %.4f", test, cap, tr.Threshold, tr.Alpha, tr.Beta)
		// Unequal designs are kept in proportion.
		if r := (tr.Alpha / test.Alpha) / (tr.Beta / test.Beta); r < 0.9 || r > 1.1 {
			t.Errorf("%+v: alpha %.4f and beta %.4f are not in the proportion of their design", test, tr.Alpha, tr.Beta)
		}
	}
}

// TestTruncateCap: a longer cap errs less, a cap far beyond the test's length leaves its
// uncapped rates (Wald's, to a point: Wald leaves out the overshoot), and CapFor's cap is the
// first within the tolerance.
func TestTruncateCap(t *testing.T) {
	gate := sprt(-50, 0, Logistic)
	shape := IndependentPairs(0.1)
	var last Truncation
	for i, cap := range []int{50, 100, 200, 400} {
		tr, err := gate.Truncate(shape, cap)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !(tr.Alpha < last.Alpha && tr.Beta < last.Beta && tr.Capped0 < last.Capped0) {
			t.Errorf("cap %d errs no less than cap %d: %+v, %+v", cap, last.Cap, tr, last)
		}
		last = tr
	}
	long, _ := gate.Truncate(shape, 3000)
	h0, _ := gate.Expect(shape, gate.Elo0)
	h1, _ := gate.Expect(shape, gate.Elo1)
	if long.Capped0 > 1e-4 || math.Abs(long.Alpha-h0.PassH1) > 0.01 || math.Abs(long.Beta-(1-h1.PassH1)) > 0.01 {
		t.Errorf("a cap of 3000 pairs: %+v, where Wald says alpha %.4f and beta %.4f", long, h0.PassH1, 1-h1.PassH1)
	}
	if math.Abs(long.Pairs0-h0.Pairs) > 0.05*h0.Pairs {
		t.Errorf("a cap of 3000 pairs: %.1f pairs expected at Elo0, Wald says %.1f", long.Pairs0, h0.Pairs)
	}
	found, ok, err := gate.CapFor(shape, 0.01, 2000)
	if err != nil || !ok {
		t.Fatalf("CapFor: %v, %v", ok, err)
	}
	if found.Alpha > 0.06 || found.Beta > 0.06 {
		t.Errorf("CapFor's cap %d: alpha %.4f, beta %.4f", found.Cap, found.Alpha, found.Beta)
	}
	before, _ := gate.Truncate(shape, found.Cap-1)
	if before.Alpha <= 0.06 && before.Beta <= 0.06 {
		t.Errorf("CapFor gave %d, but %d is within the tolerance: %+v", found.Cap, found.Cap-1, before)
	}
	if _, ok, _ := gate.CapFor(shape, 0.01, 20); ok {
		t.Error("CapFor found a cap of at most 20 pairs within a point")
	}
}

// TestDecide checks the decision at a cap: the bounds first, then the threshold, and no
// decision before the cap or when the test is asked to end inconclusive there.
func TestDecide(t *testing.T) {
	gate := sprt(-50, 0, Logistic)
	above := Pentanomial{45, 20, 80, 25, 30} // 200 pairs, LLR between the bounds
	below := Pentanomial{50, 20, 80, 20, 30}
	tr, _ := gate.Truncate(above.shape(), 200)
	trBelow, _ := gate.Truncate(below.shape(), 200)
	t.Logf("LLRs %.3f (threshold %.3f) and %.3f (threshold %.3f)", gate.LLR(above), tr.Threshold, gate.LLR(below), trBelow.Threshold)
	if gate.Status(gate.LLR(above)) != Continue || gate.Status(gate.LLR(below)) != Continue {
		t.Fatal("the counts of the test reach a bound")
	}
	if !(gate.LLR(above) >= tr.Threshold && gate.LLR(below) < trBelow.Threshold) {
		t.Fatal("the counts of the test are not on both sides of their thresholds")
	}
	inconclusive := gate
	inconclusive.InconclusiveAtCap = true
	for _, tc := range []struct {
		name   string
		test   SPRT
		counts Pentanomial
		cap    int
		want   Decision
	}{
		{"above the threshold at the cap", gate, above, 200, AcceptH1},
		{"below the threshold at the cap", gate, below, 200, AcceptH0},
		{"before the cap", gate, above, 201, Continue},
		{"no cap", gate, above, 0, Continue},
		{"inconclusive at the cap on request", inconclusive, above, 200, Continue},
		{"a bound before the cap", gate, Pentanomial{0, 0, 22, 0, 0}, 200, AcceptH1},
		{"a bound at the cap, against the threshold", inconclusive, Pentanomial{15, 4, 6, 0, 1}, 26, AcceptH0},
		{"a trinomial model", sprt(-50, 0, Bayesian), above, 200, Continue},
	} {
		if got := tc.test.Decide(tc.counts, tc.cap); got != tc.want {
			t.Errorf("%s: Decide(%v, %d) = %v, want %v", tc.name, tc.counts, tc.cap, got, tc.want)
		}
	}
}

func TestTruncateErrors(t *testing.T) {
	if _, err := sprt(-50, 0, Bayesian).Truncate(IndependentPairs(0.1), 100); err == nil {
		t.Error("a trinomial model has error rates at a cap of pairs")
	}
	if _, err := sprt(-50, 0, Logistic).Truncate(IndependentPairs(0.1), 0); err == nil {
		t.Error("a cap of 0 pairs has error rates")
	}
	if _, err := sprt(0, -50, Logistic).Truncate(IndependentPairs(0.1), 100); err == nil {
		t.Error("reversed bounds have error rates")
	}
}

// BenchmarkTruncate measures the decision at the shipped gate's cap: milliseconds.
func BenchmarkTruncate(b *testing.B) {
	gate := sprt(-50, 0, Logistic)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gate.Truncate(IndependentPairs(0.1), 300); err != nil {
			b.Fatal(err)
		}
	}
}
