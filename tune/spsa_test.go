package tune

import (
	"math"
	"slices"
	"strconv"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// The gains at the ends of the gain sequences, by hand: c_N = c_end, a_N = r_end*c_end^2, and at
// k = 1, c_1 = c_end*N^gamma and a_1 = a_N*((A+N)/(A+1))^alpha.
func TestGainsEnds(t *testing.T) {
	p := Param{Name: "X", CEnd: 5, REnd: 0.002}
	s := Gains{Iterations: 10, A: 1, Alpha: DefaultAlpha, Gamma: DefaultGamma}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"c_N", s.C(p, 10), 5},
		{"a_N", s.Gain(p, 10), 0.05},
		{"a_N/c_N^2 = r_end", s.Gain(p, 10) / (s.C(p, 10) * s.C(p, 10)), 0.002},
		{"c_1", s.C(p, 1), 6.309137672953353},
		{"a_1", s.Gain(p, 1), 0.13953024069665218},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want) {
			t.Errorf("%s = %.15g, want %.15g", tt.name, tt.got, tt.want)
		}
	}
	if d := NewGains(1000); d.A != 100 || d.Alpha != 0.602 || d.Gamma != 0.101 {
		t.Errorf("NewGains(1000) = %+v, want A 100, alpha 0.602, gamma 0.101", d)
	}
}

// TestReferenceSequence runs ten iterations for seed 42 with fixed pair results. The flips are
// the generator's for that seed (they must not change, or old tunes would not resume); the
// thetas were computed by fishtest's update (R = a_k/c_k^2, theta += R*c_k*result*flip,
// clipped), written out in Python from spsa_handler.py, on the same flips and results.
func TestReferenceSequence(t *testing.T) {
	params := []Param{
		{Name: "X", Int: true, Start: 50, Min: 0, Max: 100, CEnd: 5, REnd: 0.002},
		{Name: "Y", Start: 1.5, Min: 0, Max: 3, CEnd: 0.2, REnd: 0.01},
	}
	s := Gains{Iterations: 10, A: 1, Alpha: DefaultAlpha, Gamma: DefaultGamma}
	results := []int{2, -1, 0, 1, -2, 1, 1, -1, 2, 0}
	flips := [][]int{{1, 1}, {-1, 1}, {1, -1}, {-1, 1}, {1, 1}, {-1, 1}, {1, 1}, {1, -1}, {-1, -1}, {1, 1}}
	want := [][]float64{
		{50.04423116055774, 1.5088462321115486},
		{50.0628132878461, 1.5051298066538779},
		{50.0628132878461, 1.5051298066538779},
		{50.048159614270915, 1.5080605413689139},
		{50.02130015224523, 1.5026886489637765},
		{50.00883313234634, 1.5051820529435558},
		{50.02051771288339, 1.5075189690509654},
		{50.00948514789275, 1.5097254820490935},
		{49.988528255396076, 1.5055341035497596},
		{49.988528255396076, 1.5055341035497596},
	}
	theta := []float64{50, 1.5}
	for k := 1; k <= 10; k++ {
		pt := Perturb(params, s, 42, k, theta)
		if !slices.Equal(pt.Flips, flips[k-1]) {
			t.Fatalf("iteration %d: flips %v, want %v", k, pt.Flips, flips[k-1])
		}
		for i := range params {
			c := s.C(params[i], k)
			if !near(pt.Plus[i], params[i].clamp(theta[i]+c*float64(pt.Flips[i]))) || !near(pt.Minus[i], params[i].clamp(theta[i]-c*float64(pt.Flips[i]))) {
				t.Errorf("iteration %d %s: plus %g minus %g around %g with c %g", k, params[i].Name, pt.Plus[i], pt.Minus[i], theta[i], c)
			}
		}
		theta = Update(params, s, pt, theta, results[k-1])
		for i := range theta {
			if !near(theta[i], want[k-1][i]) {
				t.Errorf("iteration %d: theta[%d] = %.17g, want %.17g", k, i, theta[i], want[k-1][i])
			}
		}
	}
}

// One step by hand: a_k/c_k*result*flip, clamped at the range's edge.
func TestUpdateStepAndClamp(t *testing.T) {
	p := Param{Name: "X", Min: 0, Max: 10, CEnd: 1, REnd: 0.5}
	s := Gains{Iterations: 1, Alpha: DefaultAlpha, Gamma: DefaultGamma} // k = N = 1: c = 1, a = 0.5
	tests := []struct {
		theta  float64
		flip   int
		result int
		want   float64
	}{
		{5, 1, 2, 6},
		{5, -1, 2, 4},
		{5, 1, -1, 4.5},
		{5, 1, 0, 5},
		{9.5, 1, 2, 10},
		{0.2, -1, 2, 0},
	}
	for _, tt := range tests {
		pt := Perturbation{Iteration: 1, Flips: []int{tt.flip}, C: []float64{1}}
		if got := Update([]Param{p}, s, pt, []float64{tt.theta}, tt.result)[0]; !near(got, tt.want) {
			t.Errorf("theta %g flip %d result %d: got %g, want %g", tt.theta, tt.flip, tt.result, got, tt.want)
		}
	}
}

// Integers are rounded up with the probability of their fraction: unbiased, and never more
// than one away; they stay in range, and floats are sent as they are.
func TestSendRoundsStochastically(t *testing.T) {
	p := Param{Name: "X", Int: true, Min: 0, Max: 10}
	sum := 0
	const n = 10000
	for i := range n {
		u := (float64(i) + 0.5) / n
		v, err := strconv.Atoi(p.send(3.3, u))
		if err != nil || (v != 3 && v != 4) {
			t.Fatalf("send(3.3) = %q, want 3 or 4", p.send(3.3, u))
		}
		sum += v
	}
	if mean := float64(sum) / n; math.Abs(mean-3.3) > 0.001 {
		t.Errorf("mean of sends of 3.3 = %g, want 3.3", mean)
	}
	if got := p.send(10, 0); got != "10" {
		t.Errorf("send(10) = %q, want 10", got)
	}
	f := Param{Name: "Y", Min: 0, Max: 1}
	if got := f.send(0.25, 0.9); got != "0.25" {
		t.Errorf("float send(0.25) = %q", got)
	}
	if got := p.Final(3.5); got != "4" {
		t.Errorf("Final(3.5) = %q, want 4", got)
	}
}

// Over many iterations each parameter's flip is +1 about half the time, independently.
func TestFlipsBalanced(t *testing.T) {
	params := []Param{{Name: "A", Min: 0, Max: 1, CEnd: 0.1, REnd: 1}, {Name: "B", Min: 0, Max: 1, CEnd: 0.1, REnd: 1}}
	s := NewGains(2000)
	var plus, same int
	for k := 1; k <= 2000; k++ {
		pt := Perturb(params, s, 7, k, []float64{0.5, 0.5})
		if pt.Flips[0] == 1 {
			plus++
		}
		if pt.Flips[0] == pt.Flips[1] {
			same++
		}
	}
	if plus < 900 || plus > 1100 || same < 900 || same > 1100 {
		t.Errorf("flips: %d of 2000 plus, %d of 2000 alike; want about 1000 each", plus, same)
	}
}
