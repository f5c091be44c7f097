package elo

import (
	"math"
	"testing"
)

// MeanSD against hand-computed values: the sample deviation of 2, 4, 4, 4, 5, 5, 7, 9 is
// sqrt(32/7) (its population deviation would be 2).
func TestMeanSD(t *testing.T) {
	for _, tt := range []struct {
		name     string
		xs       []float64
		mean, sd float64
	}{
		{"eight", []float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7)},
		{"one", []float64{3}, 3, 0},
		{"two", []float64{1, 3}, 2, math.Sqrt2},
	} {
		mean, sd := MeanSD(tt.xs)
		if math.Abs(mean-tt.mean) > 1e-12 || math.Abs(sd-tt.sd) > 1e-12 {
			t.Errorf("%s: MeanSD = %v, %v; want %v, %v", tt.name, mean, sd, tt.mean, tt.sd)
		}
	}
	if mean, sd := MeanSD(nil); !math.IsNaN(mean) || !math.IsNaN(sd) {
		t.Errorf("MeanSD(nil) = %v, %v; want NaN, NaN", mean, sd)
	}
}
