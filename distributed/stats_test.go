package distributed

import (
	"math"
	"testing"
)

// TestChiSquareP checks the test against values computed by hand: identical rows, and rows of
// 50 games each that differ by (30,10,10) against (10,10,30): chi-square 20 on 2 degrees of
// freedom, p = exp(-10); with draws absent from both rows, 1 degree of freedom.
func TestChiSquareP(t *testing.T) {
	tests := []struct {
		a, b [3]int
		want float64
	}{
		{[3]int{10, 10, 10}, [3]int{20, 20, 20}, 1},
		{[3]int{30, 10, 10}, [3]int{10, 10, 30}, math.Exp(-10)},
		// 2x2: (30,0,20) against (20,0,30): chi-square 4, p = erfc(sqrt(2)) = 0.0455.
		{[3]int{30, 0, 20}, [3]int{20, 0, 30}, 0.04550026},
	}
	for _, tc := range tests {
		if got := chiSquareP(tc.a, tc.b); math.Abs(got/tc.want-1) > 1e-6 {
			t.Errorf("chiSquareP(%v, %v) = %g, want %g", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestJudgeFlagsTheOddWorker: three workers with like results and one whose engine wins every
// game: only that one is flagged; a worker with too few games is not judged.
func TestJudgeFlagsTheOddWorker(t *testing.T) {
	workers := []*WorkerStats{
		{Name: "a", Wins: 30, Draws: 40, Losses: 30},
		{Name: "b", Wins: 28, Draws: 44, Losses: 28},
		{Name: "c", Wins: 33, Draws: 37, Losses: 30},
		{Name: "cheat", Wins: 60, Draws: 0, Losses: 0},
		{Name: "new", Wins: 5, Draws: 0, Losses: 0},
	}
	for _, w := range workers {
		w.Games = w.Wins + w.Draws + w.Losses
	}
	judge(workers)
	for _, w := range workers {
		if w.Flagged != (w.Name == "cheat") {
			t.Errorf("worker %s: flagged %v (p = %g)", w.Name, w.Flagged, w.PValue)
		}
	}
	if workers[4].PValue != 1 {
		t.Errorf("a worker with %d games was judged: p = %g", workers[4].Games, workers[4].PValue)
	}
}
