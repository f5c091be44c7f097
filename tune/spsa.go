package tune

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// Gains are a tune's SPSA gain sequences: the perturbation c_k and the step a_k of each
// iteration k, from each parameter's c_end and r_end (see the package doc). (Not a tournament's
// schedule, arbiter.Schedule, which orders its games.)
type Gains struct {
	// Iterations is N, the number of game pairs; the gains reach c_end and r_end at the last.
	Iterations int
	// A is the warm-up of a_k; Alpha and Gamma are the decay exponents of a_k and c_k.
	A, Alpha, Gamma float64
}

// Defaults of the gains, as fishtest's.
const (
	DefaultAlpha = 0.602
	DefaultGamma = 0.101
	// DefaultARatio makes A a tenth of the iterations when it is not given.
	DefaultARatio = 0.1
)

// NewGains are the gains of n iterations with fishtest's defaults.
func NewGains(n int) Gains {
	return Gains{Iterations: n, A: DefaultARatio * float64(n), Alpha: DefaultAlpha, Gamma: DefaultGamma}
}

// C is the perturbation c_k of parameter p at iteration k (1-based).
func (g Gains) C(p Param, k int) float64 {
	c := p.CEnd * math.Pow(float64(g.Iterations), g.Gamma)
	return c / math.Pow(float64(k), g.Gamma)
}

// Gain is the step gain a_k of parameter p at iteration k (1-based).
func (g Gains) Gain(p Param, k int) float64 {
	a := p.REnd * p.CEnd * p.CEnd * math.Pow(g.A+float64(g.Iterations), g.Alpha)
	return a / math.Pow(g.A+float64(k), g.Alpha)
}

// Perturbation is what iteration k sends: per parameter, the flip, c_k, and the values of the
// plus and the minus side, as computed (clamped) and as sent (integers rounded).
type Perturbation struct {
	Iteration int       `json:"iteration"`
	Flips     []int     `json:"flips"`
	C         []float64 `json:"c"`
	Plus      []float64 `json:"plus"`
	Minus     []float64 `json:"minus"`
	PlusSent  []string  `json:"plus_sent"`
	MinusSent []string  `json:"minus_sent"`
}

// iterationRand is iteration k's generator: a function of the seed and k alone, so that a
// resumed tune draws what an uninterrupted one would.
func iterationRand(seed int64, k int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(k)))
}

// Perturb draws iteration k's perturbation around theta.
func Perturb(params []Param, g Gains, seed int64, k int, theta []float64) Perturbation {
	rng := iterationRand(seed, k)
	n := len(params)
	pt := Perturbation{Iteration: k, Flips: make([]int, n), C: make([]float64, n),
		Plus: make([]float64, n), Minus: make([]float64, n), PlusSent: make([]string, n), MinusSent: make([]string, n)}
	for i, p := range params {
		pt.Flips[i] = 1
		if rng.IntN(2) == 0 {
			pt.Flips[i] = -1
		}
		pt.C[i] = g.C(p, k)
		delta := pt.C[i] * float64(pt.Flips[i])
		pt.Plus[i] = p.clamp(theta[i] + delta)
		pt.Minus[i] = p.clamp(theta[i] - delta)
	}
	for i, p := range params {
		pt.PlusSent[i] = p.send(pt.Plus[i], rng.Float64())
		pt.MinusSent[i] = p.send(pt.Minus[i], rng.Float64())
	}
	return pt
}

// send writes a value as the engine is told it: an integer parameter rounded up with the
// probability of its fraction (u is uniform in [0, 1)), then kept in range.
func (p Param) send(x float64, u float64) string {
	if !p.Int {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	r := math.Floor(x)
	if u < x-r {
		r++
	}
	r = min(max(r, math.Ceil(p.Min)), math.Floor(p.Max))
	return strconv.FormatInt(int64(r), 10)
}

// Update is theta after a pair of iteration k whose plus side scored result (wins - losses,
// -2..2): theta_i + a_k/c_k * result * flip_i, clamped. theta is not changed.
func Update(params []Param, g Gains, pt Perturbation, theta []float64, result int) []float64 {
	next := make([]float64, len(theta))
	for i, p := range params {
		step := g.Gain(p, pt.Iteration) / pt.C[i] * float64(result) * float64(pt.Flips[i])
		next[i] = p.clamp(theta[i] + step)
	}
	return next
}

// Final writes a value as the tune's answer: an integer parameter rounded to the nearest.
func (p Param) Final(x float64) string {
	if p.Int {
		return strconv.FormatInt(int64(math.Round(x)), 10)
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}
