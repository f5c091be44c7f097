package elo

import (
	"fmt"
	"math"
)

// eloPerNatural is 800/ln 10, the factor between normalized Elo and the t-value
// (s-½)/σ of a single game.
const eloPerNatural = 800 / math.Ln10

// z95 is Φ⁻¹(0.975), the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// scoreClamp keeps Estimate finite for perfect scores: fishtest clamps a score to
// [0.001, 0.999] before converting it to Elo, which caps it at about ±1200.
const scoreClamp = 1e-3

// EloFromScore returns the logistic Elo difference that predicts the mean score s:
// -400·log10(1/s - 1). It returns -Inf for 0, +Inf for 1 and NaN outside [0, 1].
func EloFromScore(s float64) float64 {
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo returns the expected score of a player rated elo points above its opponent:
// 1/(1 + 10^(-elo/400)).
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// clampedElo is EloFromScore with the score clamped to [scoreClamp, 1-scoreClamp].
func clampedElo(s float64) float64 {
	return EloFromScore(min(max(s, scoreClamp), 1-scoreClamp))
}

// Estimate is what a set of results says about the Elo difference between two engines, from
// the first engine's point of view.
//
// Conventions for degenerate data, chosen so that nothing is NaN or infinite: with no games the
// Score and LOS are 0.5 and every other field is 0. A score of 0 or 1 is clamped to [0.001,
// 0.999] (fishtest's clamp), so Elo stays within about ±1200. When the results have no spread
// (all draws, all wins) the standard error and the Elo margin are 0, the LOS is 1, 0 or 0.5
// according to the sign of Score - ½, and the normalized Elo is 0. These stand-ins keep
// arithmetic safe; Degeneracy says when they are not estimates, and anything shown to a person
// or a script must say what Degeneracy says rather than print them.
type Estimate struct {
	// Degeneracy is Regular for an estimate with an error bar, or says why there is none.
	Degeneracy Degeneracy
	// Score is the mean score per game in [0, 1].
	Score float64
	// StdErr is the standard error of Score.
	StdErr float64
	// Elo is the logistic Elo difference, EloFromScore(Score).
	Elo float64
	// ErrorMargin is half the width of the 95% confidence interval for Elo, the "±" figure.
	// When Unbounded, the interval reaches a score of 0 or 1 and ErrorMargin is a clamped
	// stand-in.
	ErrorMargin float64
	// Unbounded reports that the 95% interval of the score reaches 0 or 1, where Elo is
	// infinite: too few games for a finite Elo interval (fastchess prints nan there).
	Unbounded bool
	// LOS is the likelihood of superiority, the probability in [0, 1] that the first engine
	// is the stronger.
	LOS float64
	// NormalizedElo is the score excess in units of the per-game standard deviation,
	// (800/ln 10)·(Score-½)/σ.
	NormalizedElo float64
	// NormalizedErrorMargin is fastchess's 95% margin of NormalizedElo, which treats σ as
	// known: z·(800/ln 10)/√games.
	NormalizedErrorMargin float64
}

// Degeneracy says whether an Estimate is an ordinary number with an error bar, and if not, why.
type Degeneracy int

const (
	// Regular: the results have spread; every field is a finite estimate.
	Regular Degeneracy = iota
	// NoResults: there is nothing to estimate from; every figure is undefined.
	NoResults
	// AllWon: the first engine won every game. Elo and normalized Elo are +infinity (the
	// maximum-likelihood estimate); no error bar is defined.
	AllWon
	// AllLost: the first engine lost every game: Elo and normalized Elo are -infinity.
	AllLost
	// NoSpread: every game (or pair) scored alike, neither all won nor all lost. Elo is a
	// finite number, but its error bar is not defined, and the normalized Elo, (Score-½)/σ with
	// σ = 0, is infinite (or undefined when Score is ½).
	NoSpread
)

var degeneracyNames = [...]string{Regular: "regular", NoResults: "no-results", AllWon: "all-won", AllLost: "all-lost", NoSpread: "no-spread"}

// String returns the name used in JSON summaries: regular, no-results, all-won, all-lost or
// no-spread.
func (d Degeneracy) String() string {
	if d < 0 || int(d) >= len(degeneracyNames) {
		return fmt.Sprintf("Degeneracy(%d)", int(d))
	}
	return degeneracyNames[d]
}

// EloDefined reports whether Elo is a finite estimate (it is a stand-in otherwise).
func (e Estimate) EloDefined() bool {
	return e.Degeneracy == Regular || e.Degeneracy == NoSpread
}

// MarginDefined reports whether the error margins are defined: only with spread.
func (e Estimate) MarginDefined() bool { return e.Degeneracy == Regular }

// EloMarginFinite reports whether ErrorMargin is a finite estimate: defined, and not Unbounded.
func (e Estimate) EloMarginFinite() bool { return e.MarginDefined() && !e.Unbounded }

// NormalizedEloInfinity returns +1 or -1 when the normalized Elo is infinite, else 0.
func (e Estimate) NormalizedEloInfinity() int {
	switch {
	case e.Degeneracy == AllWon, e.Degeneracy == NoSpread && e.Score > 0.5:
		return 1
	case e.Degeneracy == AllLost, e.Degeneracy == NoSpread && e.Score < 0.5:
		return -1
	}
	return 0
}

// NormalizedEloDefined reports whether NormalizedElo is a finite estimate.
func (e Estimate) NormalizedEloDefined() bool { return e.Degeneracy == Regular }

// Interval returns the 95% confidence interval of the Elo difference, the images of
// Score ± z·StdErr. It is not symmetric around Elo.
func (e Estimate) Interval() (lower, upper float64) {
	return clampedElo(e.Score - z95*e.StdErr), clampedElo(e.Score + z95*e.StdErr)
}

// TrinomialEstimate estimates the Elo difference from game counts, treating games as
// independent (fastchess EloWDL, cutechess Elo, fishtest get_elo on [L, D, W]).
func TrinomialEstimate(c WDL) Estimate {
	return estimate(trinomialScores, c.counts(), 1)
}

// PentanomialEstimate estimates the Elo difference from game-pair counts, treating pairs as
// independent (fastchess EloPentanomial, fishtest get_elo on a pentanomial, OpenBench Elo).
// Its error margin is smaller than the trinomial one when the games of a pair are negatively
// correlated, as with unbalanced openings.
func PentanomialEstimate(p Pentanomial) Estimate {
	return estimate(pentanomialScores, p.counts(), 2)
}

// CutechessEstimate returns the Elo difference, error margin and LOS exactly as cutechess-cli
// prints them: its error margin uses Winitzki's approximation of Φ⁻¹, which makes it about 0.1
// smaller than TrinomialEstimate's, and its LOS ignores draws:
// ½ + ½·erf((W-L)/√(2(W+L))), 0.5 without decisive games.
func CutechessEstimate(c WDL) Estimate {
	e := TrinomialEstimate(c)
	if c.Games() == 0 {
		return e
	}
	zc := math.Sqrt2 * winitzkiErfInv(2*0.975-1)
	e.ErrorMargin = (clampedElo(e.Score+zc*e.StdErr) - clampedElo(e.Score-zc*e.StdErr)) / 2
	e.Unbounded = e.StdErr > 0 && (e.Score+zc*e.StdErr >= 1 || e.Score-zc*e.StdErr <= 0)
	e.LOS = 0.5
	if decisive := c.Wins + c.Losses; decisive > 0 {
		e.LOS = 0.5 + 0.5*math.Erf(float64(c.Wins-c.Losses)/math.Sqrt(2*float64(decisive)))
	}
	return e
}

// OpenBenchEstimate is PentanomialEstimate with OpenBench's interval: the Student t quantile
// with pairs-1 degrees of freedom replaces z, and ErrorMargin is the larger of the distances from
// Elo to the two ends of the interval. With fewer than two pairs the margin is 0, as the sample
// variance is.
func OpenBenchEstimate(p Pentanomial) Estimate {
	e := PentanomialEstimate(p)
	n := p.Pairs()
	if n < 2 {
		return e
	}
	t := studentTQuantile(0.975, float64(n-1))
	up := clampedElo(e.Score+t*e.StdErr) - e.Elo
	down := e.Elo - clampedElo(e.Score-t*e.StdErr)
	e.ErrorMargin = max(up, down)
	e.Unbounded = e.StdErr > 0 && (e.Score+t*e.StdErr >= 1 || e.Score-t*e.StdErr <= 0)
	return e
}

// FishtestNormalizedElo returns fishtest's normalized Elo of a pentanomial and the half-width of
// its 95% confidence interval by the delta method, which accounts for the uncertainty of σ:
// with t = (s-½)/σ per pair, Var(t) = 1 - t·skew + t²(kurt_excess+2)/4 and the margin is
// (800/ln 10)/√2 · z · √(Var(t)/pairs). As in fishtest, empty cells count as 0.001 pairs.
// Without pairs, or without spread, both are 0.
func FishtestNormalizedElo(p Pentanomial) (nelo, margin float64) {
	if p.Pairs() == 0 {
		return 0, 0
	}
	n, pdf := regularizedPDF(p.counts())
	mu, v := meanVariance(pentanomialScores, pdf)
	if v == 0 {
		return 0, 0
	}
	var m3, m4 float64
	for i, a := range pentanomialScores {
		d := a - mu
		m3 += pdf[i] * d * d * d
		m4 += pdf[i] * d * d * d * d
	}
	sigma := math.Sqrt(v)
	skew := m3 / (v * sigma)
	exkurt := m4/(v*v) - 3
	t := (mu - 0.5) / sigma
	varT := 1 - t*skew + t*t*(exkurt+2)/4
	return eloPerNatural / math.Sqrt2 * t, eloPerNatural / math.Sqrt2 * z95 * math.Sqrt(varT/n)
}

var (
	trinomialScores   = []float64{0, 0.5, 1}
	pentanomialScores = []float64{0, 0.25, 0.5, 0.75, 1}
)

// estimate computes an Estimate from counts of independent units (games or pairs) whose mean
// scores per game are scores; gamesPerUnit is 1 for games and 2 for pairs.
func estimate(scores, counts []float64, gamesPerUnit float64) Estimate {
	var n float64
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return Estimate{Degeneracy: NoResults, Score: 0.5, LOS: 0.5}
	}
	pdf := make([]float64, len(counts))
	for i, c := range counts {
		pdf[i] = c / n
	}
	s, v := meanVariance(scores, pdf)
	se := math.Sqrt(v / n)
	e := Estimate{
		Score:                 s,
		StdErr:                se,
		Elo:                   clampedElo(s),
		ErrorMargin:           (clampedElo(s+z95*se) - clampedElo(s-z95*se)) / 2,
		LOS:                   normalCDFRatio(s-0.5, se),
		NormalizedErrorMargin: z95 * eloPerNatural / math.Sqrt(gamesPerUnit*n),
		Unbounded:             se > 0 && (s+z95*se >= 1 || s-z95*se <= 0),
	}
	switch {
	case v > 0:
		e.NormalizedElo = eloPerNatural * (s - 0.5) / math.Sqrt(gamesPerUnit*v)
	case s == 1:
		e.Degeneracy = AllWon
	case s == 0:
		e.Degeneracy = AllLost
	default:
		e.Degeneracy = NoSpread
	}
	return e
}

// meanVariance returns the mean and the variance of the distribution pdf on scores.
func meanVariance(scores, pdf []float64) (mu, v float64) {
	for i, a := range scores {
		mu += pdf[i] * a
	}
	for i, a := range scores {
		v += pdf[i] * (a - mu) * (a - mu)
	}
	return mu, v
}

// regularizedPDF replaces zero counts by 0.001, as fishtest and fastchess do before fitting
// distributions, and returns the new total and the frequencies.
func regularizedPDF(counts []float64) (n float64, pdf []float64) {
	pdf = make([]float64, len(counts))
	for i, c := range counts {
		if c == 0 {
			c = 1e-3
		}
		pdf[i] = c
		n += c
	}
	for i := range pdf {
		pdf[i] /= n
	}
	return n, pdf
}
