package render

import (
	"strings"
	"testing"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// TestCapErrorRates: the rates a cap leaves a test, beside its design, and how often a test
// asked to end inconclusive at its cap does.
func TestCapErrorRates(t *testing.T) {
	gate := elo.SPRT{Elo0: -50, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: elo.Logistic}
	inconclusive := gate
	inconclusive.InconclusiveAtCap = true
	shape := elo.IndependentPairs(results.AssumedDrawRatio)
	for _, tc := range []struct {
		test elo.SPRT
		cap  int
		want string
	}{
		{gate, 100, "at the cap of 100 pairs alpha 14.3 % and beta 14.3 %, designed 5 % and 5 %"},
		{gate, 400, "at the cap of 400 pairs alpha 4.8 % and beta 4.8 %, designed 5 % and 5 %"},
		{inconclusive, 100, "at the cap of 100 pairs alpha 2.3 % and beta 2.4 %, designed 5 % and 5 %, inconclusive there 50.4 % of the time if H0 holds, 48.5 % if H1 does"},
		{elo.SPRT{Elo0: -50, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: elo.Bayesian}, 100, ""},
	} {
		if got := CapErrorRates(tc.test, shape, tc.cap); got != tc.want {
			t.Errorf("%+v at %d pairs: %q, want %q", tc.test, tc.cap, got, tc.want)
		}
	}
}

// TestWriteSPRTVerdict: the verdict of records' SPRT is said in the words of a match's last
// lines, each decision, with what it says of the engines.
func TestWriteSPRTVerdict(t *testing.T) {
	test := elo.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	for _, tc := range []struct {
		llr  float64
		want elo.Decision
		line string
	}{
		{3, elo.AcceptH1, "SPRT ([0.00, 10.00], normalized) completed - H1 was accepted after 12 game pairs\nH1 accepted: "},
		{-3, elo.AcceptH0, "SPRT ([0.00, 10.00], normalized) completed - H0 was accepted after 12 game pairs\nH0 accepted: "},
		{0.5, elo.Continue, "SPRT ([0.00, 10.00], normalized) has no decision yet after 12 game pairs\nno decision yet: "},
	} {
		var b strings.Builder
		s := &results.Summary{SPRT: &results.SPRTSummary{LLR: tc.llr, Pairs: 12}, Pairings: []results.PairingSummary{{First: "new", Second: "old"}}}
		if d := WriteSPRTVerdict(&b, test, s); d != tc.want || !strings.HasPrefix(b.String(), tc.line) || !strings.Contains(b.String(), "new") {
			t.Errorf("LLR %g: %v\n%s", tc.llr, d, b.String())
		}
	}
}

// TestRecordsSPRT: records played to one test are tested with it, said on a line, with the
// run's cap; records of runs played to different tests are tested only with -sprt, and the
// warning says so in results' words, without the package's name; records of no test, none.
func TestRecordsSPRT(t *testing.T) {
	gainTest := elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	gain := results.NewTest(gainTest, 20000)
	gate := results.NewTest(elo.SPRT{Elo0: -5, Elo1: 0, Alpha: 0.05, Beta: 0.1, Model: elo.Logistic}, 400)
	for _, tc := range []struct {
		name     string
		recs     []results.Record
		test     *elo.SPRT
		maxPairs int
		said     string
	}{
		{"one test", []results.Record{{Game: 0, Test: gain}, {Game: 1, Test: gain}}, &gainTest, 10000,
			"SPRT of the records' run: " + gain.String() + " (-sprt tests them otherwise)\n"},
		{"two tests", []results.Record{{Game: 0, Test: gain}, {Game: 1, Test: gate}}, nil, 0,
			"Warning: the records carry different tests (" + gain.String() + "; " + gate.String() + "): -sprt says which to apply\n"},
		{"no test", []results.Record{{Game: 0}}, nil, 0, ""},
	} {
		var out strings.Builder
		test, maxPairs := RecordsSPRT(&out, tc.recs)
		if (test == nil) != (tc.test == nil) || test != nil && *test != *tc.test || maxPairs != tc.maxPairs || out.String() != tc.said {
			t.Errorf("%s: got %v, %d and %q, want %v, %d and %q", tc.name, test, maxPairs, out.String(), tc.test, tc.maxPairs, tc.said)
		}
	}
}
