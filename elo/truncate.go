package elo

import (
	"fmt"
	"math"
)

// A Truncation is how a capped SPRT decides at its cap, and what the cap costs: a test that
// has played its cap of game pairs without reaching a bound accepts H1 if its LLR is at least
// Threshold and H0 otherwise. Alpha and Beta are the test's error rates with the cap, bounds
// and threshold included: the probability of accepting H1 when the difference is Elo0, and
// of accepting H0 when it is Elo1. See [SPRT.Truncate].
type Truncation struct {
	Cap       int     // the cap, in game pairs
	Threshold float64 // the LLR at or above which H1 is accepted at the cap
	// Alpha and Beta are the error rates with the cap; AlphaAtCap and BetaAtCap the parts of
	// them decided at the cap.
	Alpha, Beta           float64
	AlphaAtCap, BetaAtCap float64
	// Pairs0 and Pairs1 are the game pairs expected when the difference is Elo0 and Elo1,
	// Capped0 and Capped1 the probabilities that the test then reaches its cap.
	Pairs0, Pairs1   float64
	Capped0, Capped1 float64
	Shape            [5]float64 // the pair distribution the rates were computed for (see Expect)
	GridSteps        int        // steps of the grid of LLRs between the bounds the rates were computed on (see Truncate)
}

// A CappedExpectation is what a capped test is expected to do when the true difference is
// Elo: an Expectation whose PassH1 and Pairs count the cap and its threshold, and how likely
// the test is to reach its cap.
type CappedExpectation struct {
	Expectation
	Capped float64 // the probability of reaching the cap undecided by the bounds
}

// Truncate returns the final threshold of the test capped at maxPairs game pairs, for pairs
// shaped as shape (see Expect: shape is moved to Elo0 and to Elo1 as PairDistribution moves
// it), and the error rates and lengths it leaves. The threshold is the one that keeps the
// larger of Alpha/α and Beta/β smallest: both error rates as near their design as the cap
// allows, in proportion to it.
//
// The LLR is modelled as Expect models it (the random walk of ln(p1ᵢ/p0ᵢ) over pairs drawn
// from the true distribution, p0 and p1 its tilts to Elo0 and Elo1), but played pair by pair
// to the cap on a grid of LLRs between the bounds rather than by Wald's Brownian formula: the
// overshoot of a bound and the discreteness of a short test are counted. Each pair's step is
// split between the two grid points around where it lands, which keeps its mean and adds at
// most step²/4 to its variance; the grid step is at most a sixth of the LLR's deviation per
// pair (where 1500 steps between the bounds allow it), so the added variance is under 1 % of
// the walk's. The GSPRT's LLR is computed from the sample's own tilts, not the true
// distribution's: simulated capped tests agree with this walk within a point on independent
// games, and err about a point more where most pairs are mirrors, whose early samples can
// have no spread at all (docs/experiments/gate-error-rates). It is deterministic and takes
// milliseconds for caps of hundreds of pairs (O(cap · grid)).
func (s SPRT) Truncate(shape [5]float64, maxPairs int) (Truncation, error) {
	if err := s.capped(maxPairs); err != nil {
		return Truncation{}, err
	}
	w0, w1 := s.walks(shape)
	for range maxPairs {
		w0.step()
		w1.step()
	}
	return s.truncation(w0, w1, maxPairs), nil
}

// CapFor returns the smallest cap, at most limit pairs, whose truncation (see Truncate) keeps
// each error rate at most tolerance above its design (tolerance 0.01: within a point), and
// whether there is one.
func (s SPRT) CapFor(shape [5]float64, tolerance float64, limit int) (Truncation, bool, error) {
	if err := s.capped(max(limit, 1)); err != nil {
		return Truncation{}, false, err
	}
	w0, w1 := s.walks(shape)
	for n := 1; n <= limit; n++ {
		w0.step()
		w1.step()
		if t := s.truncation(w0, w1, n); t.Alpha <= s.Alpha+tolerance && t.Beta <= s.Beta+tolerance {
			return t, true, nil
		}
	}
	return Truncation{}, false, nil
}

// ExpectCapped is Expect for the test capped at maxPairs with the final threshold of t (of
// Truncate): the probability of accepting H1, by a bound or at the cap, and the game pairs
// expected, when the true difference is elo.
func (s SPRT) ExpectCapped(t Truncation, elo float64) (CappedExpectation, error) {
	if err := s.capped(t.Cap); err != nil {
		return CappedExpectation{}, err
	}
	w := s.walk(t.Shape, elo, t.GridSteps)
	for range t.Cap {
		w.step()
	}
	e := CappedExpectation{Expectation: Expectation{Elo: elo, PassH1: w.h1 + w.survivingAbove(t.Threshold), Pairs: w.played},
		Capped: w.surviving()}
	return e, nil
}

// A Conclusion is a test's decision on the pair counts of a capped run, and how it was
// reached: at a bound of the LLR, or at the cap by the final threshold (AtCap).
type Conclusion struct {
	Decision  Decision
	LLR       float64
	AtCap     bool    // decided at the cap: H1 if LLR >= Threshold, else H0
	Threshold float64 // the final threshold, when AtCap
}

// Conclude returns the test's decision on pair counts p of a run capped at maxPairs game
// pairs (0: no cap): the decision of its LLR's bounds (Status), or, once p holds maxPairs
// pairs without reaching either, the decision of the final threshold that Truncate computes
// for pairs distributed as p. A test with InconclusiveAtCap set, or of a model without pairs,
// stays at Continue there. It is a pure function of the test, the cap and the counts, so that
// the records of a run decide as the run did.
func (s SPRT) Conclude(p Pentanomial, maxPairs int) Conclusion {
	c := Conclusion{LLR: s.LLR(p)}
	c.Decision = s.Status(c.LLR)
	if c.Decision != Continue || maxPairs <= 0 || p.Pairs() < maxPairs || s.InconclusiveAtCap {
		return c
	}
	t, err := s.Truncate(p.shape(), maxPairs)
	if err != nil {
		return c
	}
	c.AtCap, c.Threshold, c.Decision = true, t.Threshold, AcceptH0
	if c.LLR >= t.Threshold {
		c.Decision = AcceptH1
	}
	return c
}

// Decide is Conclude's decision.
func (s SPRT) Decide(p Pentanomial, maxPairs int) Decision { return s.Conclude(p, maxPairs).Decision }

// shape is the counts as a pair distribution for Truncate.
func (p Pentanomial) shape() [5]float64 {
	var shape [5]float64
	for i, c := range p {
		shape[i] = float64(c)
	}
	return shape
}

func (s SPRT) capped(maxPairs int) error {
	if !s.Model.Pentanomial() {
		return fmt.Errorf("elo: the %s model is trinomial only: no error rates at a cap of game pairs", s.Model)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if maxPairs < 1 {
		return fmt.Errorf("elo: a cap of %d game pairs: want at least 1", maxPairs)
	}
	return nil
}

// truncation picks the threshold of two walks at the cap n, one at Elo0 and one at Elo1.
func (s SPRT) truncation(w0, w1 *llrWalk, n int) Truncation {
	// Accepting H1 at the cap from grid point c upwards: α(c) falls and β(c) rises with c.
	above0 := w0.tail()
	above1 := w1.tail()
	total1 := above1[1]
	best, bestWorst, bestSum := w0.cells, math.Inf(1), math.Inf(1)
	for c := 1; c <= w0.cells; c++ {
		alpha := w0.h1 + above0[c]
		beta := w1.h0 + total1 - above1[c]
		worst := max(alpha/s.Alpha, beta/s.Beta)
		if worst < bestWorst || (worst == bestWorst && alpha+beta < bestSum) {
			best, bestWorst, bestSum = c, worst, alpha+beta
		}
	}
	t := Truncation{Cap: n, Threshold: w0.lower + (float64(best)-0.5)*w0.spacing,
		AlphaAtCap: above0[best], BetaAtCap: total1 - above1[best],
		Pairs0: w0.played, Pairs1: w1.played, Capped0: w0.surviving(), Capped1: w1.surviving(),
		Shape: w0.shape, GridSteps: w0.cells}
	t.Alpha, t.Beta = w0.h1+t.AlphaAtCap, w1.h0+t.BetaAtCap
	return t
}

// walks returns the LLR's walks at Elo0 and at Elo1 on one grid, fine enough for both.
func (s SPRT) walks(shape [5]float64) (w0, w1 *llrWalk) {
	cells := max(s.gridCells(shape, s.Elo0), s.gridCells(shape, s.Elo1))
	return s.walk(shape, s.Elo0, cells), s.walk(shape, s.Elo1, cells)
}

// The LLR's grid: at least minCells steps between the bounds, at most a sixth of the LLR's
// deviation per pair each, and no more than maxCells (a finer grid costs time and changes the
// rates by less than a tenth of a point).
const (
	minCells = 300
	maxCells = 1500
)

// gridCells is the number of grid steps between the bounds that the walk at elo needs.
func (s SPRT) gridCells(shape [5]float64, elo float64) int {
	steps, probs := s.increments(shape, elo)
	var mu, m2 float64
	for i, q := range probs {
		mu += q * steps[i]
		m2 += q * steps[i] * steps[i]
	}
	sd := math.Sqrt(math.Max(m2-mu*mu, 0))
	lower, upper := s.Bounds()
	cells := minCells
	if sd > 0 {
		cells = int(math.Ceil((upper - lower) / (sd / 6)))
	}
	return min(max(cells, minCells), maxCells)
}

// increments are the LLR's step for each pair score, and their probabilities, when the
// true difference is elo (as Expect computes them).
func (s SPRT) increments(shape [5]float64, elo float64) (steps, probs [5]float64) {
	truth := s.moved(proportions(shape), elo)
	p0, p1 := s.moved(truth, s.Elo0), s.moved(truth, s.Elo1)
	for i, q := range truth {
		steps[i] = math.Log(p1[i] / p0[i])
		probs[i] = q
	}
	return steps, probs
}

// An llrWalk is the distribution of the LLR of pairs drawn at one true difference, on the
// points lower + k·spacing (k = 0 … cells): the mass at 0 or below has accepted H0 (h0), at
// cells or above H1 (h1); mass[k] is the probability of being at point k undecided. next is
// the next pair's distribution with pad points beyond each end, so that a step lands without a
// test of where; what lands beyond the ends is then counted as decided.
type llrWalk struct {
	lower, spacing float64
	cells, pad     int
	mass, next     []float64
	moves          [5]gridMove
	h0, h1         float64
	played         float64 // expected pairs played so far
	shape          [5]float64
}

// A gridMove is one pair score's step on the grid: whole steps and a fraction of one, and its
// probability.
type gridMove struct {
	whole    int
	fraction float64
	prob     float64
}

func (s SPRT) walk(shape [5]float64, elo float64, cells int) *llrWalk {
	lower, upper := s.Bounds()
	w := &llrWalk{lower: lower, spacing: (upper - lower) / float64(cells), cells: cells, mass: make([]float64, cells+1), shape: shape}
	steps, probs := s.increments(shape, elo)
	for i := range steps {
		// A step across the whole grid decides wherever it starts: no longer step is needed.
		x := math.Max(math.Min(steps[i]/w.spacing, float64(cells+1)), -float64(cells+1))
		whole := math.Floor(x)
		w.moves[i] = gridMove{whole: int(whole), fraction: x - whole, prob: probs[i]}
		w.pad = max(w.pad, int(math.Abs(whole))+2)
	}
	w.next = make([]float64, cells+1+2*w.pad)
	// The LLR starts at 0, between two grid points.
	start := -lower / w.spacing
	k := int(math.Floor(start))
	w.add(w.mass, k, 1-(start-float64(k)))
	w.add(w.mass, k+1, start-float64(k))
	return w
}

// add puts mass m at grid point k of dst, or into the decision it has reached.
func (w *llrWalk) add(dst []float64, k int, m float64) {
	switch {
	case k <= 0:
		w.h0 += m
	case k >= w.cells:
		w.h1 += m
	default:
		dst[k] += m
	}
}

// step plays one more pair.
func (w *llrWalk) step() {
	left := w.surviving()
	if left < negligible {
		return
	}
	w.played += left
	clear(w.next)
	for k := 1; k < w.cells; k++ {
		m := w.mass[k]
		if m == 0 {
			continue
		}
		at := w.pad + k
		for _, mv := range w.moves {
			q := m * mv.prob
			up := q * mv.fraction
			w.next[at+mv.whole] += q - up
			w.next[at+mv.whole+1] += up
		}
	}
	for _, m := range w.next[:w.pad+1] {
		w.h0 += m
	}
	for _, m := range w.next[w.pad+w.cells:] {
		w.h1 += m
	}
	copy(w.mass[1:w.cells], w.next[w.pad+1:w.pad+w.cells])
}

// negligible is an undecided probability too small to change a rate or a length: the walk
// stops there.
const negligible = 1e-15

// surviving is the probability of no decision yet.
func (w *llrWalk) surviving() float64 {
	var sum float64
	for _, m := range w.mass[1:w.cells] {
		sum += m
	}
	return sum
}

// tail returns, for each grid point c (1 … cells), the undecided mass at c and above.
func (w *llrWalk) tail() []float64 {
	above := make([]float64, w.cells+1)
	for k := w.cells - 1; k >= 1; k-- {
		above[k] = above[k+1] + w.mass[k]
	}
	return above
}

// survivingAbove is the undecided mass at LLRs of threshold or more.
func (w *llrWalk) survivingAbove(threshold float64) float64 {
	var sum float64
	for k := 1; k < w.cells; k++ {
		if w.lower+float64(k)*w.spacing >= threshold {
			sum += w.mass[k]
		}
	}
	return sum
}
