package elo

import "math"

// MeanSD returns the mean of xs and their sample standard deviation (with n-1 in the
// denominator): NaN for both when xs is empty, and a deviation of 0 for a single value.
// Experiments use it to sum up repeated runs (the games an SPRT needed, nElo per run).
func MeanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}
