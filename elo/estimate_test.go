package elo

import (
	"math"
	"testing"
)

// The vectors of docs/reference/STATISTICS.md §3.7, as pair cells (LL, LD, WL, DD, WD, WW).
var pentanomialVectors = []struct {
	name  string
	pairs PairCounts
}{
	{"P1", PairCounts{100, 1500, 600, 2400, 1600, 120}},
	{"P2", PairCounts{379, 10170, 1000, 20828, 10640, 343}},
	{"P3", PairCounts{5, 40, 20, 70, 50, 8}},
	{"P4", PairCounts{150, 1700, 700, 2300, 1500, 90}},
	{"P5", PairCounts{0, 10, 5, 15, 15, 0}},
	{"P6", PairCounts{43, 61, 119, 25, 55, 37}},
}

func vector(t *testing.T, name string) PairCounts {
	t.Helper()
	for _, v := range pentanomialVectors {
		if v.name == name {
			return v.pairs
		}
	}
	t.Fatalf("no vector %s", name)
	return PairCounts{}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f ± %g", what, got, want, tol)
	}
}

func TestPairCountsDerived(t *testing.T) {
	tests := []struct {
		name  string
		ptnml Pentanomial
		wdl   WDL
	}{
		{"P1", Pentanomial{100, 1500, 3000, 1600, 120}, WDL{Wins: 2440, Losses: 2300, Draws: 7900}},
		{"P2", Pentanomial{379, 10170, 21828, 10640, 343}, WDL{Wins: 12326, Losses: 11928, Draws: 62466}},
		{"P3", Pentanomial{5, 40, 90, 50, 8}, WDL{Wins: 86, Losses: 70, Draws: 230}},
		{"P4", Pentanomial{150, 1700, 3000, 1500, 90}, WDL{Wins: 2380, Losses: 2700, Draws: 7800}},
		{"P5", Pentanomial{0, 10, 20, 15, 0}, WDL{Wins: 20, Losses: 15, Draws: 55}},
		{"P6", Pentanomial{43, 61, 144, 55, 37}, WDL{Wins: 248, Losses: 266, Draws: 166}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := vector(t, tt.name)
			if got := c.Pentanomial(); got != tt.ptnml {
				t.Errorf("Pentanomial() = %v, want %v", got, tt.ptnml)
			}
			if got := c.WDL(); got != tt.wdl {
				t.Errorf("WDL() = %+v, want %+v", got, tt.wdl)
			}
			if c.Pentanomial().Games() != tt.wdl.Games() {
				t.Errorf("games differ: %d vs %d", c.Pentanomial().Games(), tt.wdl.Games())
			}
			near(t, "score", c.Pentanomial().Score(), tt.wdl.Score(), 1e-12)
		})
	}
}

// TestEloLines checks the "Elo lines" table of §3.7: values printed with two decimals are
// checked to ±0.005, with one decimal to ±0.05.
func TestEloLines(t *testing.T) {
	tests := []struct {
		name                         string
		elo, pentaMargin, triMargin  float64
		nelo, neloMargin             float64
		fishtestNelo, fishtestMargin float64
		losPenta, losTri             float64 // percent
		drawRatio                    float64 // percent
		pairsRatio, wlDD             float64
	}{
		{"P1", 3.85, 3.40, 3.71, 6.86, 6.06, 6.86, 6.1, 98.68, 97.90, 47.47, 1.07, 0.25},
		{"P2", 1.59, 1.21, 1.22, 3.05, 2.31, 3.05, 2.3, 99.51, 99.47, 50.34, 1.04, 0.05},
		{"P3", 14.41, 20.99, 22.05, 23.86, 34.66, 23.86, 34.8, 91.13, 90.04, 46.63, 1.29, 0.29},
		{"P4", -8.63, 3.41, 3.77, -15.22, 6.00, -15.22, 6.0, 0.00, 0.00, 46.58, 0.86, 0.30},
		{"P5", 19.32, 37.67, 44.97, 37.04, 71.78, 37.03, 72.9, 84.41, 80.19, 44.44, 1.50, 0.33},
		{"P6", -9.20, 20.93, 22.74, -11.50, 26.11, -11.50, 26.1, 19.41, 21.35, 42.35, 0.88, 4.76},
	}
	const two, one = 0.005 + 1e-9, 0.05 + 1e-9
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := vector(t, tt.name)
			p := PentanomialEstimate(c.Pentanomial())
			near(t, "penta Elo", p.Elo, tt.elo, two)
			near(t, "penta margin", p.ErrorMargin, tt.pentaMargin, two)
			near(t, "nElo", p.NormalizedElo, tt.nelo, two)
			near(t, "nElo margin", p.NormalizedErrorMargin, tt.neloMargin, two)
			near(t, "penta LOS %", 100*p.LOS, tt.losPenta, two)
			tri := TrinomialEstimate(c.WDL())
			near(t, "tri Elo", tri.Elo, tt.elo, two)
			near(t, "tri margin", tri.ErrorMargin, tt.triMargin, two)
			near(t, "tri LOS %", 100*tri.LOS, tt.losTri, two)
			fn, fm := FishtestNormalizedElo(c.Pentanomial())
			near(t, "fishtest nElo", fn, tt.fishtestNelo, two)
			near(t, "fishtest nElo margin", fm, tt.fishtestMargin, one)
			near(t, "DrawRatio %", 100*c.Pentanomial().DrawRatio(), tt.drawRatio, two)
			near(t, "PairsRatio", c.Pentanomial().PairsRatio(), tt.pairsRatio, two)
			near(t, "WL/DD", c.WLDDRatio(), tt.wlDD, two)
		})
	}
}

// TestOpenBenchElo checks the OpenBench (Student t) line of §3.7.
func TestOpenBenchElo(t *testing.T) {
	tests := []struct {
		name        string
		elo, margin float64
	}{
		{"P1", 3.85, 3.40},
		{"P3", 14.41, 21.17},
		{"P5", 19.32, 38.99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := OpenBenchEstimate(vector(t, tt.name).Pentanomial())
			near(t, "Elo", e.Elo, tt.elo, 0.005)
			near(t, "margin", e.ErrorMargin, tt.margin, 0.005)
		})
	}
}

// TestTrinomialOnlyElo checks the Elo columns of the trinomial-only table of §3.7: fastchess's
// Elo ± (nElo ±) and LOS, and cutechess's "Elo difference" and LOS.
func TestTrinomialOnlyElo(t *testing.T) {
	tests := []struct {
		name                   string
		wdl                    WDL
		elo, margin            float64
		nelo, neloMargin, los  float64
		ceElo, ceMargin, ceLOS float64
	}{
		{"60/40/100", WDL{60, 100, 40}, 34.86, 34.16, 49.63, 48.15, 97.83, 34.9, 34.1, 97.7},
		{"1200/1100/2700", WDL{1200, 2700, 1100}, 6.95, 6.53, 10.25, 9.63, 98.15, 6.9, 6.5, 98.1},
		{"25/25/50", WDL{25, 50, 25}, 0.00, 48.46, 0.00, 68.10, 50.00, -0.0, 48.4, 50.0},
		{"300/200/0", WDL{300, 0, 200}, 70.44, 31.17, 70.92, 30.45, 100.00, 70.4, 31.1, 100.0},
	}
	const two, one = 0.005 + 1e-9, 0.05 + 1e-9
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := TrinomialEstimate(tt.wdl)
			near(t, "Elo", e.Elo, tt.elo, two)
			near(t, "margin", e.ErrorMargin, tt.margin, two)
			near(t, "nElo", e.NormalizedElo, tt.nelo, two)
			near(t, "nElo margin", e.NormalizedErrorMargin, tt.neloMargin, two)
			near(t, "LOS %", 100*e.LOS, tt.los, two)
			c := CutechessEstimate(tt.wdl)
			near(t, "cutechess Elo", c.Elo, tt.ceElo, one)
			near(t, "cutechess margin", c.ErrorMargin, tt.ceMargin, one)
			near(t, "cutechess LOS %", 100*c.LOS, tt.ceLOS, one)
		})
	}
}

// TestRealFastchessBlock checks every number of the fastchess output block quoted in fishtest
// (vector P6), and the cutechess block of §3.7 for P1 and §5.2 for 3/1/5.
func TestRealFastchessBlock(t *testing.T) {
	c := vector(t, "P6")
	p, w := c.Pentanomial(), c.WDL()
	e := PentanomialEstimate(p)
	near(t, "Elo", e.Elo, -9.20, 0.005)
	near(t, "margin", e.ErrorMargin, 20.93, 0.005)
	near(t, "nElo", e.NormalizedElo, -11.50, 0.005)
	near(t, "nElo margin", e.NormalizedErrorMargin, 26.11, 0.005)
	near(t, "LOS %", 100*e.LOS, 19.41, 0.005)
	near(t, "DrawRatio %", 100*p.DrawRatio(), 42.35, 0.005)
	near(t, "PairsRatio", p.PairsRatio(), 0.88, 0.005)
	near(t, "Points", w.Points(), 331.0, 0.05)
	near(t, "Points %", 100*w.Score(), 48.68, 0.005)
	near(t, "WL/DD", c.WLDDRatio(), 4.76, 0.005)
	if w.Games() != 680 {
		t.Errorf("games = %d, want 680", w.Games())
	}

	ce := CutechessEstimate(vector(t, "P1").WDL())
	near(t, "P1 cutechess Elo", ce.Elo, 3.8, 0.05)
	near(t, "P1 cutechess margin", ce.ErrorMargin, 3.7, 0.05)
	near(t, "P1 cutechess LOS %", 100*ce.LOS, 97.9, 0.05)
	near(t, "P1 cutechess DrawRatio %", 100*vector(t, "P1").WDL().DrawRatio(), 62.5, 0.05)

	small := WDL{Wins: 3, Losses: 1, Draws: 5}
	ce = CutechessEstimate(small)
	near(t, "3/1/5 score", small.Score(), 0.611, 0.0005)
	near(t, "3/1/5 cutechess Elo", ce.Elo, 78.5, 0.05)
	near(t, "3/1/5 cutechess margin", ce.ErrorMargin, 162.5, 0.05)
	near(t, "3/1/5 cutechess LOS %", 100*ce.LOS, 84.1, 0.05)
	near(t, "3/1/5 DrawRatio %", 100*small.DrawRatio(), 55.6, 0.05)
}

func TestEloFromScore(t *testing.T) {
	tests := []struct {
		name  string
		score float64
		elo   float64
	}{
		{"even", 0.5, 0},
		{"three to one", 0.75, 400 * math.Log10(3)},
		{"nine to one", 0.9, 400 * math.Log10(9)},
		{"field P1 70%", 0.7, 147.19},
		{"field P4 31.7%", 95.0 / 300, -133.61},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			near(t, "EloFromScore", EloFromScore(tt.score), tt.elo, 0.005)
			near(t, "ScoreFromElo", ScoreFromElo(tt.elo), tt.score, 1e-4)
		})
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Errorf("EloFromScore(1), (0) = %v, %v, want +Inf, -Inf", EloFromScore(1), EloFromScore(0))
	}
}

// TestEstimateDegenerate checks the documented conventions for data without spread.
func TestEstimateDegenerate(t *testing.T) {
	tests := []struct {
		name       string
		tri        WDL
		penta      Pentanomial
		los        float64
		eloSign    int
		zeroMargin bool
		degeneracy Degeneracy
	}{
		{"no games", WDL{}, Pentanomial{}, 0.5, 0, true, NoResults},
		{"all draws", WDL{Draws: 10}, Pentanomial{2: 5}, 0.5, 0, true, NoSpread},
		{"all wins", WDL{Wins: 10}, Pentanomial{4: 5}, 1, 1, true, AllWon},
		{"all losses", WDL{Losses: 10}, Pentanomial{0: 5}, 0, -1, true, AllLost},
		{"one loss", WDL{Wins: 9, Losses: 1}, Pentanomial{4: 4, 2: 1}, -1, 1, false, Regular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, e := range []Estimate{
				TrinomialEstimate(tt.tri), PentanomialEstimate(tt.penta),
				OpenBenchEstimate(tt.penta), CutechessEstimate(tt.tri),
			} {
				cutechess := i == 3 // whose LOS ignores draws and has no zero-spread limit
				for _, f := range []float64{e.Score, e.StdErr, e.Elo, e.ErrorMargin, e.LOS, e.NormalizedElo, e.NormalizedErrorMargin} {
					if math.IsNaN(f) || math.IsInf(f, 0) {
						t.Fatalf("non-finite field in %+v", e)
					}
				}
				if tt.los >= 0 && !cutechess && e.LOS != tt.los {
					t.Errorf("LOS = %v, want %v", e.LOS, tt.los)
				}
				if got := sign(e.Elo); got != tt.eloSign {
					t.Errorf("Elo = %v, want sign %d", e.Elo, tt.eloSign)
				}
				if math.Abs(e.Elo) > 1200 {
					t.Errorf("Elo = %v beyond the ±1200 clamp", e.Elo)
				}
				if tt.zeroMargin != (e.ErrorMargin == 0) {
					t.Errorf("ErrorMargin = %v", e.ErrorMargin)
				}
				// The stand-ins above must never be mistaken for estimates.
				if e.Degeneracy != tt.degeneracy {
					t.Errorf("Degeneracy = %v, want %v", e.Degeneracy, tt.degeneracy)
				}
			}
			n, m := FishtestNormalizedElo(tt.penta)
			if math.IsNaN(n) || math.IsNaN(m) || math.IsInf(n, 0) || math.IsInf(m, 0) {
				t.Errorf("FishtestNormalizedElo = %v, %v", n, m)
			}
		})
	}
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func TestStudentTQuantile(t *testing.T) {
	tests := []struct {
		p, df, want float64
	}{
		{0.975, 1, 12.706204736174698},
		{0.975, 2, 4.302652729749464},
		{0.975, 10, 2.2281388519649385},
		{0.975, 44, 2.0153675744437627},
		{0.025, 30, -2.0422724563012373},
		{0.975, 1e6, 1.9599663},
	}
	for _, tt := range tests {
		near(t, "t quantile", studentTQuantile(tt.p, tt.df), tt.want, 1e-6)
	}
	near(t, "z", -math.Sqrt2*math.Erfcinv(2*0.975), z95, 1e-12)
}

// TestEstimateUnbounded: with few results the 95% interval of the score can pass 0 or 1, where
// Elo is infinite; the clamped ErrorMargin must then be flagged, not taken for an estimate.
func TestEstimateUnbounded(t *testing.T) {
	tests := []struct {
		name      string
		penta     Pentanomial
		unbounded bool
	}{
		{"two pairs", Pentanomial{2: 1, 4: 1}, true},
		{"reference vector P3", Pentanomial{5, 40, 90, 50, 8}, false},
		{"no spread", Pentanomial{4: 5}, false},
	}
	for _, tt := range tests {
		e := PentanomialEstimate(tt.penta)
		if e.Unbounded != tt.unbounded || e.EloMarginFinite() != (tt.unbounded == false && e.Degeneracy == Regular) {
			t.Errorf("%s: Unbounded = %v, EloMarginFinite = %v; want Unbounded %v", tt.name, e.Unbounded, e.EloMarginFinite(), tt.unbounded)
		}
	}
}
