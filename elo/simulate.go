package elo

import "math/rand/v2"

// Simulate runs the test once on game pairs drawn at random from pdf (the probabilities of a
// pair scoring 0, ½, 1, 1½ and 2 points), deciding after every pair as a match does, for at
// most maxPairs pairs (0: no cap). It returns the decision (Continue at the cap) and the
// pairs played. Experiments use it to measure a test's error rates and length, which
// Expect only approximates.
func (s SPRT) Simulate(rng *rand.Rand, pdf [5]float64, maxPairs int) (Decision, int) {
	var counts Pentanomial
	for n := 1; maxPairs <= 0 || n <= maxPairs; n++ {
		u, i := rng.Float64(), 0
		for ; i < 4 && u >= pdf[i]; i++ {
			u -= pdf[i]
		}
		counts[i]++
		if d := s.Status(s.LLR(counts)); d != Continue {
			return d, n
		}
	}
	return Continue, maxPairs
}
