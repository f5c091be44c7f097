package elo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLLRMonotonic checks on random counts that a better result never lowers the LLR in the
// GSPRT models: turning a loss or a draw into a win, or moving a pair up one half point. Counts
// stay positive, so that the 0.001 regularisation of empty cells plays no part. The BayesElo
// models do not have this property, as they re-estimate the draw Elo from the counts.
func TestLLRMonotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		elo0 := rng.Float64()*10 - 5
		s := SPRT{Elo0: elo0, Elo1: elo0 + 0.5 + rng.Float64()*5, Alpha: 0.05, Beta: 0.05}
		scale := []int{5, 50, 5000}[trial%3]
		c := WDL{Wins: 1 + rng.IntN(scale), Draws: 2 + rng.IntN(scale), Losses: 2 + rng.IntN(scale)}
		var p Pentanomial
		for i := range p {
			p[i] = 1 + rng.IntN(scale)
		}
		k := rng.IntN(4)
		p[k]++
		better := p
		better[k]--
		better[k+1]++
		for _, m := range []Model{Normalized, Logistic} {
			s.Model = m
			base := s.LLRTrinomial(c)
			win := c
			win.Losses--
			win.Wins++
			if got := s.LLRTrinomial(win); got < base-1e-9 {
				t.Errorf("%v %+v: a loss turned into a win lowers the LLR from %v to %v", m, c, base, got)
			}
			win = c
			win.Draws--
			win.Wins++
			if got := s.LLRTrinomial(win); got < base-1e-9 {
				t.Errorf("%v %+v: a draw turned into a win lowers the LLR from %v to %v", m, c, base, got)
			}
			if lo, hi := s.LLR(p), s.LLR(better); hi < lo-1e-9 {
				t.Errorf("%v %v -> %v: LLR falls from %v to %v", m, p, better, lo, hi)
			}
		}
	}
}

// TestLLRSymmetry checks that swapping the engines and mirroring the bounds negates the LLR
// in the exactly solved models.
func TestLLRSymmetry(t *testing.T) {
	for _, v := range pentanomialVectors {
		c := v.pairs
		p := c.Pentanomial()
		mirror := Pentanomial{p[4], p[3], p[2], p[1], p[0]}
		for _, m := range []Model{Normalized, Logistic} {
			s := sprt(0, 5, m)
			r := sprt(-5, 0, m)
			near(t, v.name+" "+m.String()+" penta", r.LLR(mirror), -s.LLR(p), 1e-9)
			near(t, v.name+" "+m.String()+" tri", r.LLRTrinomial(c.WDL().Swap()), -s.LLRTrinomial(c.WDL()), 1e-9)
		}
	}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// FuzzStatistics checks that no count, however lopsided, makes a statistic NaN or infinite.
func FuzzStatistics(f *testing.F) {
	f.Add(uint16(0), uint16(0), uint16(0), uint16(0), uint16(0))
	f.Add(uint16(10), uint16(0), uint16(0), uint16(0), uint16(0))
	f.Add(uint16(0), uint16(0), uint16(7), uint16(0), uint16(0))
	f.Add(uint16(0), uint16(0), uint16(0), uint16(0), uint16(1))
	f.Add(uint16(43), uint16(61), uint16(144), uint16(55), uint16(37))
	f.Fuzz(func(t *testing.T, a, b, c, d, e uint16) {
		p := Pentanomial{int(a), int(b), int(c), int(d), int(e)}
		w := WDL{Wins: int(a), Draws: int(b), Losses: int(c)}
		for _, est := range []Estimate{PentanomialEstimate(p), OpenBenchEstimate(p), TrinomialEstimate(w), CutechessEstimate(w)} {
			lo, hi := est.Interval()
			if !finite(est.Score, est.StdErr, est.Elo, est.ErrorMargin, est.LOS, est.NormalizedElo, est.NormalizedErrorMargin, lo, hi) {
				t.Fatalf("non-finite estimate %+v for %v / %+v", est, p, w)
			}
			if est.LOS < 0 || est.LOS > 1 || est.ErrorMargin < 0 || lo > est.Elo || hi < est.Elo {
				t.Fatalf("inconsistent estimate %+v for %v / %+v", est, p, w)
			}
		}
		if n, m := FishtestNormalizedElo(p); !finite(n, m) {
			t.Fatalf("FishtestNormalizedElo(%v) = %v, %v", p, n, m)
		}
		for m := Normalized; m <= BayesEloLegacy; m++ {
			s := sprt(-2, 3, m)
			if l := s.LLR(p); !finite(l) {
				t.Fatalf("%v LLR(%v) = %v", m, p, l)
			}
			if l := s.LLRTrinomial(w); !finite(l) {
				t.Fatalf("%v LLRTrinomial(%+v) = %v", m, w, l)
			}
		}
	})
}

// FuzzParseModel checks that ParseModel either fails or returns a model whose name parses
// back to it.
func FuzzParseModel(f *testing.F) {
	for _, name := range modelNames {
		f.Add(name)
	}
	f.Add("NORMALIZED")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseModel(s)
		if err != nil {
			return
		}
		again, err := ParseModel(m.String())
		if err != nil || again != m {
			t.Fatalf("ParseModel(%q) = %v, but its name parses to %v, %v", s, m, again, err)
		}
	})
}

func TestPairCountsAddPair(t *testing.T) {
	var c PairCounts
	for _, pair := range [][2]float64{{0, 0}, {0, 0.5}, {0.5, 0}, {1, 0}, {0, 1}, {0.5, 0.5}, {1, 0.5}, {1, 1}} {
		c.AddPair(pair[0], pair[1])
	}
	want := PairCounts{LL: 1, LD: 2, WL: 2, DD: 1, WD: 1, WW: 1}
	if c != want {
		t.Errorf("AddPair counts %+v, want %+v", c, want)
	}
	if got := c.Add(c); got != (PairCounts{2, 4, 4, 2, 2, 2}) {
		t.Errorf("Add = %+v", got)
	}
	if got := c.Pentanomial().Add(c.Pentanomial()); got != (Pentanomial{2, 4, 6, 2, 2}) {
		t.Errorf("Pentanomial.Add = %v", got)
	}
	if got := (WDL{1, 2, 3}).Add(WDL{1, 1, 1}); got != (WDL{2, 3, 4}) {
		t.Errorf("WDL.Add = %+v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("AddPair(1, 2) did not panic")
		}
	}()
	c.AddPair(1, 2)
}

func TestRatios(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"no pairs won", Pentanomial{1, 0, 0, 0, 0}.PairsRatio(), 0},
		{"no pairs lost", Pentanomial{0, 0, 0, 1, 0}.PairsRatio(), math.Inf(1)},
		{"empty PairsRatio", Pentanomial{}.PairsRatio(), 0},
		{"no WL", PairCounts{DD: 3}.WLDDRatio(), 0},
		{"no DD", PairCounts{WL: 3}.WLDDRatio(), math.Inf(1)},
		{"empty DrawRatio", Pentanomial{}.DrawRatio(), 0},
		{"empty WDL DrawRatio", WDL{}.DrawRatio(), 0},
		{"empty Score", WDL{}.Score(), 0.5},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestStrings(t *testing.T) {
	tests := []struct{ got, want string }{
		{Continue.String(), "continue"},
		{AcceptH0.String(), "H0"},
		{AcceptH1.String(), "H1"},
		{Decision(7).String(), "Decision(7)"},
		{Model(7).String(), "Model(7)"},
		{(&RatingError{Players: []int{2, 3}, Reason: "no games"}).Error(), "elo: no finite ratings for players 2, 3: no games"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestParseDecision(t *testing.T) {
	for _, d := range []Decision{Continue, AcceptH0, AcceptH1} {
		if got, err := ParseDecision(d.String()); got != d || err != nil {
			t.Errorf("ParseDecision(%q) = %v, %v, want %v", d.String(), got, err, d)
		}
	}
	for _, bad := range []string{"", "h1", "H2", "Decision(7)"} {
		if got, err := ParseDecision(bad); err == nil || got != Continue {
			t.Errorf("ParseDecision(%q) = %v, %v, want Continue and an error", bad, got, err)
		}
	}
}
