package elo

import "math/rand/v2"

// A SimulatedRun is how one simulated test ended: its decision, the game pairs it played, and
// whether it decided at its cap (by the final threshold) rather than at a bound.
type SimulatedRun struct {
	Decision Decision
	Pairs    int
	AtCap    bool
}

// Simulate runs the test once on game pairs drawn at random from pdf (the probabilities of a
// pair scoring 0, ½, 1, 1½ and 2 points), deciding after every pair as a match does, for at
// most maxPairs pairs (0: no cap). At the cap it decides as a match does (Decide): by the
// final threshold, or not at all (Continue) when the test is InconclusiveAtCap. Experiments
// use it to measure a test's error rates and length, which Expect and Truncate compute.
func (s SPRT) Simulate(rng *rand.Rand, pdf [5]float64, maxPairs int) SimulatedRun {
	var counts Pentanomial
	for n := 1; maxPairs <= 0 || n <= maxPairs; n++ {
		u, i := rng.Float64(), 0
		for ; i < 4 && u >= pdf[i]; i++ {
			u -= pdf[i]
		}
		counts[i]++
		if d := s.Status(s.LLR(counts)); d != Continue {
			return SimulatedRun{Decision: d, Pairs: n}
		}
	}
	d := s.Decide(counts, maxPairs)
	return SimulatedRun{Decision: d, Pairs: maxPairs, AtCap: d != Continue}
}
