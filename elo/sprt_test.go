package elo

import (
	"fmt"
	"testing"
)

// llrTol is the tolerance §3.7 sets on LLRs; values printed with 4 decimals are within 5e-5.
const llrTol = 1e-4

func sprt(elo0, elo1 float64, m Model) SPRT {
	return SPRT{Elo0: elo0, Elo1: elo1, Alpha: 0.05, Beta: 0.05, Model: m}
}

// TestPentanomialLLR checks the pentanomial vectors table of §3.7.
func TestPentanomialLLR(t *testing.T) {
	tests := []struct {
		name                          string
		norm05, logi05, norm02, logi3 float64
	}{
		{"P1", 2.28238, 2.24292, 1.22701, 6.44766},
		{"P2", 1.97733, -11.90599, 2.94550, 27.26020},
		{"P3", 0.33990, 0.51870, 0.14551, 0.53492},
		{"P4", -9.44498, -18.40844, -3.45857, -10.11435},
		{"P5", 0.12722, 0.22592, 0.05312, 0.21769},
		{"P6", -0.39380, -0.51301, -0.14064, -0.28805},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := vector(t, tt.name).Pentanomial()
			near(t, "normalized [0,5]", sprt(0, 5, Normalized).LLR(p), tt.norm05, llrTol)
			near(t, "logistic [0,5]", sprt(0, 5, Logistic).LLR(p), tt.logi05, llrTol)
			near(t, "normalized [0,2]", sprt(0, 2, Normalized).LLR(p), tt.norm02, llrTol)
			near(t, "logistic [-3,1]", sprt(-3, 1, Logistic).LLR(p), tt.logi3, llrTol)
		})
	}
}

// TestTrinomialLLR checks the trinomial table of the same vectors, [0,5]. Columns printed with
// four decimals are checked to 1e-4.
func TestTrinomialLLR(t *testing.T) {
	tests := []struct {
		name                                 string
		norm, logi, cute, legacy, fcBayesian float64
	}{
		{"P1", 1.98137, 1.88263, 1.8823, 1.9784, 1.9782},
		{"P2", 1.85064, -11.62198, -11.6339, 2.4211, 2.4203},
		{"P3", 0.32229, 0.47126, 0.4712, 0.3268, 0.3257},
		{"P4", -8.66570, -15.04370, -15.0778, -8.7512, -8.7344},
		{"P5", 0.10609, 0.16129, 0.1600, 0.1068, 0.1060},
		{"P6", -0.36834, -0.43581, -0.4363, -0.4047, -0.4046},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := vector(t, tt.name).WDL()
			checkTrinomialModels(t, c, tt.norm, tt.logi, tt.cute, tt.legacy, tt.fcBayesian)
		})
	}
}

// TestTrinomialOnlyLLR checks the LLR columns of the trinomial-only table of §3.7, [0,5].
func TestTrinomialOnlyLLR(t *testing.T) {
	tests := []struct {
		name                                 string
		wdl                                  WDL
		norm, logi, cute, legacy, fcBayesian float64
	}{
		{"60/40/100", WDL{Wins: 60, Losses: 40, Draws: 100}, 0.3864, 0.5349, 0.5399, 0.4106, 0.4053},
		{"1200/1100/2700", WDL{Wins: 1200, Losses: 1100, Draws: 2700}, 1.6042, 2.0034, 2.0038, 1.6521, 1.6512},
		{"25/25/50", WDL{Wins: 25, Losses: 25, Draws: 50}, -0.0104, -0.0207, -0.0209, -0.0116, -0.0116},
		{"300/200/0", WDL{Wins: 300, Losses: 200}, 1.3873, 1.3873, 1.3886, 1.3873, 1.3873},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkTrinomialModels(t, tt.wdl, tt.norm, tt.logi, tt.cute, tt.legacy, tt.fcBayesian)
		})
	}
}

func checkTrinomialModels(t *testing.T, c WDL, norm, logi, cute, legacy, fcBayesian float64) {
	t.Helper()
	near(t, "normalized", sprt(0, 5, Normalized).LLRTrinomial(c), norm, llrTol)
	near(t, "logistic", sprt(0, 5, Logistic).LLRTrinomial(c), logi, llrTol)
	near(t, "cutechess", sprt(0, 5, Cutechess).LLRTrinomial(c), cute, llrTol)
	near(t, "legacy", sprt(0, 5, BayesEloLegacy).LLRTrinomial(c), legacy, llrTol)
	near(t, "fastchess bayesian", sprt(0, 5, Bayesian).LLRTrinomial(c), fcBayesian, llrTol)
}

// TestFastchessUnitTests checks the cases of fastchess's app/tests/sprt_test.cpp, which
// §3.7 uses to validate its vectors, with fastchess's own relative tolerance of 1%, and the
// three of them that §3.7 quotes to four decimals with 1e-4.
func TestFastchessUnitTests(t *testing.T) {
	tests := []struct {
		model      Model
		elo0, elo1 float64
		pairs      *PairCounts // nil for a trinomial case
		wdl        WDL
		want, tol  float64
	}{
		{Normalized, 0, 2, nil, WDL{Wins: 36433, Losses: 36027, Draws: 68692}, 0.92, 0.01},
		{Normalized, -1.75, 0.25, nil, WDL{Wins: 10871, Losses: 10650, Draws: 20431}, 2.30, 0.01},
		{Normalized, 0, 10, nil, WDL{Wins: 4250}, 120.56, 0.01},
		{Logistic, 0.5, 2.5, nil, WDL{Wins: 21404, Losses: 21184, Draws: 40708}, -1.57, 0.01},
		{Logistic, 0, 2, nil, WDL{Wins: 57433, Losses: 57030, Draws: 106593}, -2.59, 0.01},
		{Bayesian, 0, 2, nil, WDL{Wins: 68965, Losses: 68526, Draws: 128429}, -1.26, 0.01},
		{Bayesian, 0, 2, nil, WDL{Wins: 68965, Losses: 68526, Draws: 128429}, -1.2626, llrTol},
		{Bayesian, 0.5, 2.5, nil, WDL{Wins: 21629, Losses: 21484, Draws: 41111}, -1.13, 0.01},
		{Normalized, 0, 2, &PairCounts{365, 16618, 36029, 200, 16974, 390}, WDL{}, 2.25, 0.01},
		{Normalized, 0, 2, &PairCounts{365, 16618, 36029, 200, 16974, 390}, WDL{}, 2.2504, llrTol},
		{Normalized, -1.75, 0.25, &PairCounts{127, 4883, 10311, 401, 5150, 104}, WDL{}, 3.01, 0.01},
		{Normalized, 0, 5, &PairCounts{WW: 5550}, WDL{}, 111.82, 0.01},
		{Logistic, 0.5, 2.5, &PairCounts{223, 9863, 20279, 1000, 10037, 246}, WDL{}, -3.07, 0.01},
		{Logistic, 0, 2, &PairCounts{871, 26175, 55003, 980, 26678, 821}, WDL{}, -4.98, 0.01},
		{Normalized, 0, 2, &PairCounts{379, 10170, 1000, 20828, 10640, 343}, WDL{}, 2.945495, 1e-6},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%v [%g,%g] %+v", tt.model, tt.elo0, tt.elo1, tt.wdl)
		if tt.pairs != nil {
			name = fmt.Sprintf("%v [%g,%g] %+v", tt.model, tt.elo0, tt.elo1, *tt.pairs)
		}
		t.Run(name, func(t *testing.T) {
			s := sprt(tt.elo0, tt.elo1, tt.model)
			var got float64
			if tt.pairs != nil {
				got = s.LLR(tt.pairs.Pentanomial())
			} else {
				got = s.LLRTrinomial(tt.wdl)
			}
			tol := tt.tol
			if tol == 0.01 {
				tol *= max(1, abs(tt.want)) // doctest's Approx().epsilon is relative
			}
			near(t, "LLR", got, tt.want, tol)
		})
	}
}

// TestFastchessLogistic checks that solving for θ with fastchess's tolerance, as the Bayesian
// model does, reproduces the logistic LLRs of the fastchess port in §3.7 to 1e-4, while the
// exact Logistic model reproduces the fishtest-exact ones (TestPentanomialLLR).
func TestFastchessLogistic(t *testing.T) {
	tests := []struct {
		name       string
		pairs      PairCounts
		elo0, elo1 float64
		want       float64
	}{
		{"fastchess logistic pentanomial 1", PairCounts{223, 9863, 20279, 1000, 10037, 246}, 0.5, 2.5, -3.0744},
		{"P1 fc", vector(t, "P1"), 0, 5, 2.24294},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, pdf := regularizedPDF(tt.pairs.Pentanomial().counts())
			got := llrExpected(pentanomialScores, pdf, n, ScoreFromElo(tt.elo0), ScoreFromElo(tt.elo1), fastchessThetaTolerance)
			near(t, "LLR", got, tt.want, llrTol)
			exact := sprt(tt.elo0, tt.elo1, Logistic).LLR(tt.pairs.Pentanomial())
			near(t, "exact LLR", exact, tt.want, 3e-4) // the difference §3.7 reports
		})
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestBounds(t *testing.T) {
	tests := []struct {
		name         string
		alpha, beta  float64
		lower, upper float64
	}{
		{"0.05/0.05", 0.05, 0.05, -2.944439, 2.944439},
		{"0.05/0.10", 0.05, 0.10, -2.251292, 2.890372},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lower, upper := SPRT{Alpha: tt.alpha, Beta: tt.beta}.Bounds()
			near(t, "lower", lower, tt.lower, 1e-6)
			near(t, "upper", upper, tt.upper, 1e-6)
		})
	}
}

// TestPrintedSPRTLines checks the LLR lines of the example blocks of §3.7 and §5.2.
func TestPrintedSPRTLines(t *testing.T) {
	s := sprt(0, 5, Normalized)
	llr := s.LLR(vector(t, "P1").Pentanomial())
	near(t, "fastchess LLR", llr, 2.28, 0.005)
	near(t, "fastchess LLR %", 100*s.Progress(llr), 77.5, 0.05)

	c := sprt(0, 5, Cutechess)
	llr = c.LLRTrinomial(vector(t, "P1").WDL())
	near(t, "cutechess llr", llr, 1.88, 0.005)
	near(t, "cutechess llr %", 100*c.Progress(llr), 63.9, 0.05)

	llr = c.LLRTrinomial(WDL{Wins: 3, Losses: 1, Draws: 5})
	near(t, "cutechess 3/1/5 llr", llr, 0.0619, 0.00005)
	near(t, "cutechess 3/1/5 llr %", 100*c.Progress(llr), 2.1, 0.05)
}

func TestStatus(t *testing.T) {
	s := sprt(0, 5, Normalized)
	tests := []struct {
		llr  float64
		want Decision
	}{
		{0, Continue},
		{2.9444, Continue},
		{2.945, AcceptH1},
		{-2.945, AcceptH0},
		{-2.9444, Continue},
		{2.28238, Continue},
	}
	for _, tt := range tests {
		if got := s.Status(tt.llr); got != tt.want {
			t.Errorf("Status(%v) = %v, want %v", tt.llr, got, tt.want)
		}
	}
}

func TestParseModel(t *testing.T) {
	for m := Normalized; m <= BayesEloLegacy; m++ {
		got, err := ParseModel(m.String())
		if err != nil || got != m {
			t.Errorf("ParseModel(%q) = %v, %v", m.String(), got, err)
		}
		var u Model
		text, err := m.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		if err := u.UnmarshalText(text); err != nil || u != m {
			t.Errorf("text round trip of %v = %v, %v", m, u, err)
		}
	}
	if m, err := ParseModel("Logistic"); err != nil || m != Logistic {
		t.Errorf("ParseModel is case sensitive: %v, %v", m, err)
	}
	if _, err := ParseModel("trinomial"); err == nil {
		t.Error("ParseModel accepted an unknown name")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		s    SPRT
		ok   bool
	}{
		{"fishtest STC", SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: Normalized}, true},
		{"reversed", SPRT{Elo0: 2, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: Normalized}, false},
		{"equal", SPRT{Elo0: 1, Elo1: 1, Alpha: 0.05, Beta: 0.05, Model: Normalized}, false},
		{"zero alpha", SPRT{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05, Model: Logistic}, false},
		{"alpha+beta", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.5, Beta: 0.5, Model: Logistic}, false},
		{"unknown model", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Model(9)}, false},
		{"huge", SPRT{Elo0: 0, Elo1: 5000, Alpha: 0.05, Beta: 0.05, Model: Logistic}, false},
	}
	for _, tt := range tests {
		if err := tt.s.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v", tt.name, err)
		}
	}
}
