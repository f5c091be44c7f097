package elo

import (
	"fmt"
	"math"
)

// An Expectation is what an SPRT is expected to do when the true difference is Elo: how
// likely it accepts H1, and how many game pairs it plays to decide, with no cap on them.
type Expectation struct {
	Elo    float64 // the true difference, in the test's units (normalized Elo for Normalized)
	PassH1 float64 // the probability of accepting H1 (the test's operating characteristic)
	Pairs  float64 // the expected number of game pairs to a decision; +Inf when it never comes
}

// IndependentPairs is the pentanomial distribution of pairs of two independent games
// between equal engines, each drawn with probability draws: the shape
// [SPRT.Expect] assumes when nothing better is known, as fishtest's calculator assumes with
// an RMS bias of 0.
func IndependentPairs(draws float64) [5]float64 {
	d := math.Min(math.Max(draws, 0), 1)
	w := (1 - d) / 2 // a win, or a loss
	return [5]float64{w * w, 2 * w * d, 2*w*w + d*d, 2 * w * d, w * w}
}

// Expect returns the test's expected outcome when pairs are distributed as shape moved to
// the true difference elo (in the test's units): shape tilted, as the SPRT tilts its sample,
// to the score L(elo) (Logistic) or to the t-value of elo (Normalized). Its answer is
// Wald's, in the Brownian approximation fishtest's SPRT calculator makes (Van den Bergh,
// "sprta.pdf"): an LLR that moves by μ per pair with variance σ² reaches the upper bound b
// before the lower a with probability (1-e^(-ha))/(e^(-hb)-e^(-ha)), h = 2μ/σ², after
// (b·P + a·(1-P))/μ pairs, and after -a·b/σ² pairs when μ = 0; the LLR's overshoot of its
// bound is not counted. μ and σ² are those of ln(p1ᵢ/p0ᵢ) under the true distribution, where
// p0 and p1 are the distributions of H0 and H1 the test's LLR tends to. A trinomial-only model
// has no pair model: it returns an error.
func (s SPRT) Expect(shape [5]float64, elo float64) (Expectation, error) {
	if !s.Model.Pentanomial() {
		return Expectation{}, fmt.Errorf("elo: the %s model is trinomial only: no expected length of game pairs", s.Model)
	}
	if err := s.Validate(); err != nil {
		return Expectation{}, err
	}
	pdf := proportions(shape)
	truth := s.moved(pdf, elo)
	p0, p1 := s.moved(truth, s.Elo0), s.moved(truth, s.Elo1)
	var mu, m2 float64
	for i, q := range truth {
		x := math.Log(p1[i] / p0[i])
		mu += q * x
		m2 += q * x * x
	}
	variance := math.Max(m2-mu*mu, 0)
	lower, upper := s.Bounds()
	e := Expectation{Elo: elo}
	switch {
	case variance < 1e-12 && math.Abs(mu) < 1e-12: // nothing is learned
		e.PassH1, e.Pairs = math.NaN(), math.Inf(1)
	case variance < 1e-12 && mu > 0: // the LLR walks straight up
		e.PassH1, e.Pairs = 1, upper/mu
	case variance < 1e-12:
		e.PassH1, e.Pairs = 0, lower/mu
	case math.Abs(mu*(upper-lower)/variance) < 1e-6: // h·(b-a) ≈ 0: no drift to speak of
		e.PassH1, e.Pairs = -lower/(upper-lower), -lower*upper/variance
	default:
		h := 2 * mu / variance
		if h > 0 { // the same, multiplied by e^(ha), which cannot overflow
			e.PassH1 = math.Expm1(h*lower) / math.Expm1(h*(lower-upper))
		} else {
			e.PassH1 = -math.Expm1(-h*lower) / (math.Expm1(-h*upper) - math.Expm1(-h*lower))
		}
		e.Pairs = (upper*e.PassH1 + lower*(1-e.PassH1)) / mu
	}
	return e, nil
}

// ExpectationElos are the true differences at which a test's cost is worth knowing before it
// runs: its bounds, their midpoint, and one bound-width beyond each bound.
func (s SPRT) ExpectationElos() []float64 {
	w := s.Elo1 - s.Elo0
	return []float64{s.Elo0 - w, s.Elo0, (s.Elo0 + s.Elo1) / 2, s.Elo1, s.Elo1 + w}
}

// PairDistribution is shape (see Expect) moved to the true difference elo in the test's
// units: the probabilities of a pair scoring 0, ½, 1, 1½ and 2 points that Expect assumes.
func (s SPRT) PairDistribution(shape [5]float64, elo float64) [5]float64 {
	var p [5]float64
	copy(p[:], s.moved(proportions(shape), elo))
	return p
}

// moved returns pdf tilted to the difference elo in the test's units.
func (s SPRT) moved(pdf []float64, elo float64) []float64 {
	if s.Model == Normalized {
		return mleTValue(pentanomialScores, pdf, math.Sqrt2*elo/eloPerNatural)
	}
	return mleExpected(pentanomialScores, pdf, ScoreFromElo(elo), 0)
}

// proportions is shape as probabilities, each zero made a millionth: a tilt moves only what
// has some probability, as the LLR's regularised counts do.
func proportions(shape [5]float64) []float64 {
	var sum float64
	for _, c := range shape {
		sum += max(c, 0)
	}
	pdf := make([]float64, len(shape))
	var n float64
	for i, c := range shape {
		pdf[i] = max(c, 0) / sum
		if !(pdf[i] > 1e-6) {
			pdf[i] = 1e-6
		}
		n += pdf[i]
	}
	for i := range pdf {
		pdf[i] /= n
	}
	return pdf
}
