package elo

import (
	"fmt"
	"math"
	"strings"
)

// Model selects how an SPRT turns its Elo bounds into distributions of results.
type Model int

const (
	// Normalized constrains the normalized Elo, t = (μ-½)/σ per game, to the bounds: the
	// default of fastchess and fishtest, and OpenBench's PentanomialSPRT. Its bounds do not
	// depend on the draw rate, so they mean the same for every opening book and time control.
	Normalized Model = iota
	// Logistic constrains the expected score to ScoreFromElo of the bounds (fishtest
	// LLR_logistic, fastchess model=logistic).
	Logistic
	// Bayesian is fastchess's model=bayesian: the bounds are BayesElo, converted to expected
	// scores with the draw Elo of the sample, then tested like Logistic. Trinomial only.
	Bayesian
	// Cutechess is cutechess-cli's SPRT: a BayesElo model with half a game added to each
	// count (Jeffreys prior) and the bounds divided by the draw-Elo scale, which makes them
	// effectively logistic Elo. Trinomial only.
	Cutechess
	// BayesEloLegacy is fishtest's LLRlegacy and OpenBench's TrinomialSPRT: the bounds are
	// BayesElo, the draw Elo is estimated from the sample. Trinomial only.
	BayesEloLegacy
)

var modelNames = [...]string{
	Normalized:     "normalized",
	Logistic:       "logistic",
	Bayesian:       "bayesian",
	Cutechess:      "cutechess",
	BayesEloLegacy: "legacy",
}

// String returns the model's name as ParseModel accepts it.
func (m Model) String() string {
	if m < 0 || int(m) >= len(modelNames) {
		return fmt.Sprintf("Model(%d)", int(m))
	}
	return modelNames[m]
}

// ParseModel returns the model named s: "normalized", "logistic", "bayesian" (the three
// fastchess names), "cutechess" or "legacy", in any case.
func ParseModel(s string) (Model, error) {
	for m, name := range modelNames {
		if strings.EqualFold(s, name) {
			return Model(m), nil
		}
	}
	return 0, fmt.Errorf("elo: unknown SPRT model %q (want one of %s)", s, strings.Join(modelNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler.
func (m Model) MarshalText() ([]byte, error) {
	if m < 0 || int(m) >= len(modelNames) {
		return nil, fmt.Errorf("elo: invalid SPRT model %d", int(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseModel.
func (m *Model) UnmarshalText(text []byte) error {
	parsed, err := ParseModel(string(text))
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// Pentanomial reports whether the model is defined on game-pair counts. The BayesElo models
// are trinomial only.
func (m Model) Pentanomial() bool { return m == Normalized || m == Logistic }

// Decision is the state of a sequential test.
type Decision int

const (
	// Continue means the log-likelihood ratio lies between the bounds: play on.
	Continue Decision = iota
	// AcceptH0 means the LLR reached the lower bound: the Elo difference is at most Elo0.
	AcceptH0
	// AcceptH1 means the LLR reached the upper bound: the Elo difference is at least Elo1.
	AcceptH1
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// ParseDecision is the Decision whose String is s: "continue", "H0" or "H1", as a summary
// records it.
func ParseDecision(s string) (Decision, error) {
	for _, d := range []Decision{Continue, AcceptH0, AcceptH1} {
		if s == d.String() {
			return d, nil
		}
	}
	return Continue, fmt.Errorf("elo: unknown SPRT decision %q (want continue, H0 or H1)", s)
}

// SPRT is a sequential probability ratio test of H0: Elo ≤ Elo0 against H1: Elo ≥ Elo1, with
// false positive rate Alpha and false negative rate Beta, e.g. {0, 5, 0.05, 0.05, Normalized}.
// The meaning of Elo0 and Elo1 depends on Model.
//
// A test capped at a number of game pairs decides at its cap by a final threshold on the LLR
// (see Decide and Truncate), unless InconclusiveAtCap is set: then it ends there without a
// decision, as a plain SPRT does.
type SPRT struct {
	Elo0, Elo1        float64
	Alpha, Beta       float64
	Model             Model
	InconclusiveAtCap bool
}

// Validate reports whether the test is well defined: Elo0 < Elo1, 0 < Alpha, 0 < Beta,
// Alpha + Beta < 1, a known model, and bounds of at most 1000 Elo.
func (s SPRT) Validate() error {
	switch {
	case !(s.Elo0 < s.Elo1):
		return &SPRTError{fmt.Sprintf("SPRT elo0 (%g) must be less than elo1 (%g)", s.Elo0, s.Elo1)}
	case math.Abs(s.Elo0) > 1000 || math.Abs(s.Elo1) > 1000:
		return &SPRTError{"SPRT bounds must lie within ±1000 Elo"}
	case !(s.Alpha > 0 && s.Alpha < 1), !(s.Beta > 0 && s.Beta < 1):
		return &SPRTError{fmt.Sprintf("SPRT alpha (%g) and beta (%g) must lie in (0, 1)", s.Alpha, s.Beta)}
	case s.Alpha+s.Beta >= 1:
		return &SPRTError{"SPRT alpha + beta must be less than 1"}
	case s.Model < 0 || int(s.Model) >= len(modelNames):
		return &SPRTError{fmt.Sprintf("invalid SPRT model %d", int(s.Model))}
	}
	return nil
}

// SPRTError says why an SPRT cannot be run (see Validate).
type SPRTError struct {
	Msg string // the reason, without the package's name
}

// Error is the reason after the package's name.
func (e *SPRTError) Error() string { return "elo: " + e.Msg }

// Message is the error without the package's name.
func (e *SPRTError) Message() string { return e.Msg }

// Bounds returns Wald's stopping bounds for the LLR: ln(β/(1-α)) and ln((1-β)/α), about
// ∓2.944 for α = β = 0.05.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Status returns the decision for a log-likelihood ratio: AcceptH1 at or above the upper
// bound, AcceptH0 at or below the lower one, Continue in between.
func (s SPRT) Status(llr float64) Decision {
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// Progress returns how far the LLR has gone towards the bound in its direction, as the
// fraction fastchess and cutechess print as a percentage: llr/upper if llr ≥ 0, llr/lower
// otherwise.
func (s SPRT) Progress(llr float64) float64 {
	lower, upper := s.Bounds()
	if llr >= 0 {
		return llr / upper
	}
	return llr / lower
}

// LLR returns the log-likelihood ratio of H1 to H0 for game-pair counts, with the
// generalized SPRT of fishtest and fastchess: each zero count is replaced by 0.001, and the
// LLR is pairs·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ) with p0 and p1 the maximum-likelihood distributions under the
// two hypotheses. Without pairs it is 0. For a trinomial-only model (see Model.Pentanomial)
// it is 0 as well: such a test never ends, so callers should reject that combination up front.
func (s SPRT) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 || !s.Model.Pentanomial() {
		return 0
	}
	return s.gsprt(pentanomialScores, p.counts(), math.Sqrt2)
}

// LLRTrinomial returns the log-likelihood ratio of H1 to H0 for game counts under the test's
// model. Without games it is 0. The BayesElo models follow their tools: Bayesian and
// BayesEloLegacy return 0 while there are no wins or no losses, as the draw Elo is then
// infinite; Cutechess needs no such rule thanks to its prior.
func (s SPRT) LLRTrinomial(c WDL) float64 {
	if c.Games() == 0 {
		return 0
	}
	switch s.Model {
	case Cutechess:
		return s.cutechessLLR(c)
	case BayesEloLegacy:
		return s.legacyLLR(c)
	case Bayesian:
		if c.Wins == 0 || c.Losses == 0 {
			return 0
		}
		n, pdf := regularizedPDF(c.counts())
		drawElo := drawEloFromFrequencies(pdf[2], pdf[0])
		s0 := bayesEloScore(s.Elo0, drawElo)
		s1 := bayesEloScore(s.Elo1, drawElo)
		return llrExpected(trinomialScores, pdf, n, s0, s1, fastchessThetaTolerance)
	}
	return s.gsprt(trinomialScores, c.counts(), 1)
}

// gsprt computes the Normalized or Logistic LLR; tScale converts the normalized Elo of one
// game to the t-value of one counting unit (√2 for pairs).
func (s SPRT) gsprt(scores, counts []float64, tScale float64) float64 {
	n, pdf := regularizedPDF(counts)
	if s.Model == Normalized {
		t0 := tScale * s.Elo0 / eloPerNatural
		t1 := tScale * s.Elo1 / eloPerNatural
		p0 := mleTValue(scores, pdf, t0)
		p1 := mleTValue(scores, pdf, t1)
		return llr(pdf, n, p0, p1)
	}
	return llrExpected(scores, pdf, n, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1), 0)
}

// llrExpected returns the LLR of expected score s1 against s0, solving for the tilts
// with the given tolerance (0 for exact).
func llrExpected(scores, pdf []float64, n, s0, s1, tolerance float64) float64 {
	return llr(pdf, n, mleExpected(scores, pdf, s0, tolerance), mleExpected(scores, pdf, s1, tolerance))
}

func llr(pdf []float64, n float64, p0, p1 []float64) float64 {
	var sum float64
	for i, p := range pdf {
		sum += p * math.Log(p1[i]/p0[i])
	}
	return n * sum
}

// fastchessThetaTolerance is how precisely fastchess solves for the tilt θ of its
// expectation-constrained distributions. The Bayesian model, which only fastchess has, uses it
// so that its LLRs match fastchess's to 1e-4; solved exactly they differ by up to 6e-4.
const fastchessThetaTolerance = 1e-3

// mleExpected returns the distribution closest in likelihood to pdf on scores whose
// expectation is s (Van den Bergh, Proposition 1.1): pᵢ = p̂ᵢ/(1 + θ(aᵢ - s)).
func mleExpected(scores, pdf []float64, s, tolerance float64) []float64 {
	phi := make([]float64, len(scores))
	for i, a := range scores {
		phi[i] = a - s
	}
	return tilt(pdf, phi, secular(pdf, phi, tolerance))
}

// mleTValue returns the distribution closest in likelihood to pdf on scores whose
// (μ-½)/σ is t, by the fixed-point iteration of Van den Bergh's section 4.1 as fishtest runs
// it: at most 10 rounds, stopping when no probability moves by 1e-9.
func mleTValue(scores, pdf []float64, t float64) []float64 {
	p := make([]float64, len(pdf))
	for i := range p {
		p[i] = 1 / float64(len(p))
	}
	phi := make([]float64, len(pdf))
	for range 10 {
		mu, v := meanVariance(scores, p)
		sigma := math.Sqrt(v)
		for i, a := range scores {
			d := (a - mu) / sigma
			phi[i] = a - 0.5 - t*sigma*(1+d*d)/2
		}
		next := tilt(pdf, phi, secular(pdf, phi, 0))
		var moved float64
		for i := range p {
			moved = max(moved, math.Abs(next[i]-p[i]))
		}
		p = next
		if moved < 1e-9 {
			break
		}
	}
	return p
}

func tilt(pdf, phi []float64, theta float64) []float64 {
	p := make([]float64, len(pdf))
	for i := range pdf {
		p[i] = pdf[i] / (1 + theta*phi[i])
	}
	return p
}

// secular solves Σ p̂ᵢφᵢ/(1 + θφᵢ) = 0 for θ in (-1/max φ, -1/min φ), where the left side
// falls strictly from +∞ to -∞. With tolerance 0 it bisects down to adjacent floating-point
// numbers (fishtest solves exactly); otherwise it stops, like fastchess, once an ITP search has
// bracketed θ within ±tolerance. When the φᵢ do not change sign there is no root and it returns
// 0, leaving pdf unchanged.
func secular(pdf, phi []float64, tolerance float64) float64 {
	minPhi, maxPhi := math.Inf(1), math.Inf(-1)
	for _, f := range phi {
		minPhi, maxPhi = min(minPhi, f), max(maxPhi, f)
	}
	if !(minPhi < 0 && maxPhi > 0) {
		return 0
	}
	// g is the negated left side, so that it rises from -∞ at lo to +∞ at hi.
	g := func(x float64) float64 {
		var sum float64
		for i, p := range pdf {
			sum -= p * phi[i] / (1 + x*phi[i])
		}
		return sum
	}
	lo, hi := -1/maxPhi, -1/minPhi
	if tolerance > 0 {
		return itp(g, lo, hi, tolerance)
	}
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if g(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// itp finds the root of g, increasing on (a, b) from -∞ to +∞, to within ±eps by the ITP
// method (Oliveira and Takahashi, "An Enhancement of the Bisection Method Average Performance
// Preserving Minmax Optimality", ACM TOMS 47(1), 2021), with the parameters fastchess uses:
// κ1 = 0.1, κ2 = 2, n0 = 0.99. While an end of the bracket still has an infinite value the
// interpolation step is a plain bisection.
func itp(g func(float64) float64, a, b, eps float64) float64 {
	const k1, k2, n0 = 0.1, 2.0, 0.99
	ga, gb := math.Inf(-1), math.Inf(1)
	nMax := math.Ceil(math.Log2((b-a)/(2*eps))) + n0
	for j := 0.0; b-a > 2*eps; j++ {
		half := (a + b) / 2
		r := eps*math.Pow(2, nMax-j) - (b-a)/2
		delta := k1 * math.Pow(b-a, k2)
		// Interpolate (regula falsi), truncate towards the midpoint, project into the
		// minmax ball around it.
		falsi := half
		if !math.IsInf(ga, 0) && !math.IsInf(gb, 0) {
			falsi = (gb*a - ga*b) / (gb - ga)
		}
		sigma := 0.0
		switch {
		case half > falsi:
			sigma = 1
		case half < falsi:
			sigma = -1
		}
		x := half
		if delta <= math.Abs(half-falsi) {
			x = falsi + sigma*delta
		}
		if math.Abs(x-half) > r {
			x = half - sigma*r
		}
		switch gx := g(x); {
		case gx > 0:
			b, gb = x, gx
		case gx < 0:
			a, ga = x, gx
		default:
			a, b = x, x
		}
	}
	return (a + b) / 2
}

// drawEloFromFrequencies returns BayesElo's draw Elo for win and loss frequencies w and l.
func drawEloFromFrequencies(w, l float64) float64 {
	return 200 * math.Log10((1-l)/l*(1-w)/w)
}

// bayesEloProbabilities returns the probabilities of a loss, a draw and a win under the
// BayesElo model, in the order of their scores.
func bayesEloProbabilities(bayesElo, drawElo float64) []float64 {
	win := 1 / (1 + math.Pow(10, (drawElo-bayesElo)/400))
	loss := 1 / (1 + math.Pow(10, (drawElo+bayesElo)/400))
	return []float64{loss, 1 - win - loss, win}
}

// bayesEloScore returns the expected score under the BayesElo model.
func bayesEloScore(bayesElo, drawElo float64) float64 {
	p := bayesEloProbabilities(bayesElo, drawElo)
	return p[2] + p[1]/2
}

func (s SPRT) cutechessLLR(c WDL) float64 {
	counts := c.counts()
	var n float64
	for i := range counts {
		counts[i] += 0.5
		n += counts[i]
	}
	drawElo := drawEloFromFrequencies(counts[2]/n, counts[0]/n)
	x := math.Pow(10, -drawElo/400)
	scale := 4 * x / ((1 + x) * (1 + x))
	p0 := bayesEloProbabilities(s.Elo0/scale, drawElo)
	p1 := bayesEloProbabilities(s.Elo1/scale, drawElo)
	var sum float64
	for i, k := range counts {
		sum += k * math.Log(p1[i]/p0[i])
	}
	return sum
}

func (s SPRT) legacyLLR(c WDL) float64 {
	if c.Wins == 0 || c.Losses == 0 {
		return 0
	}
	n := float64(c.Games())
	drawElo := drawEloFromFrequencies(float64(c.Wins)/n, float64(c.Losses)/n)
	p0 := bayesEloProbabilities(s.Elo0, drawElo)
	p1 := bayesEloProbabilities(s.Elo1, drawElo)
	var sum float64
	for i, k := range c.counts() {
		if k > 0 {
			sum += k * math.Log(p1[i]/p0[i])
		}
	}
	return sum
}
