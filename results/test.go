package results

import (
	"fmt"
	"strings"

	"hivearbiter/elo"
)

// Test is the statistical test a run is played to, as each of its records carries it: the
// records alone then reproduce the run's verdict (arbiter stats), with no bounds typed again.
// Records of older arbiters, and of runs without a test, have none.
type Test struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model string  `json:"model"` // as elo.ParseModel reads it
	// MaxGames is the run's cap: the games of its whole schedule, after which it ends
	// whatever the test says; 0 when not known.
	MaxGames int `json:"max_games,omitempty"`
	// AtCap is "inconclusive" for a test that ends undecided at its cap (at_cap=inconclusive);
	// "" for one that decides there by the final threshold (elo.SPRT Conclude).
	AtCap string `json:"at_cap,omitempty"`
}

// AtCapInconclusive is Test.AtCap of a test that ends undecided at its cap.
const AtCapInconclusive = "inconclusive"

// NewTest is the Test of an SPRT played with a cap of maxGames games.
func NewTest(test elo.SPRT, maxGames int) *Test {
	t := &Test{Elo0: test.Elo0, Elo1: test.Elo1, Alpha: test.Alpha, Beta: test.Beta, Model: test.Model.String(), MaxGames: maxGames}
	if test.InconclusiveAtCap {
		t.AtCap = AtCapInconclusive
	}
	return t
}

// MaxPairs is the run's cap in game pairs, as elo.SPRT Conclude takes it: 0 when not known.
func (t Test) MaxPairs() int { return t.MaxGames / 2 }

// SPRT is the test as elo computes it; an error says why a record's test is not one (an
// unknown model, bounds that are not a test).
func (t Test) SPRT() (elo.SPRT, error) {
	model, err := elo.ParseModel(t.Model)
	if err != nil {
		return elo.SPRT{}, err
	}
	if t.AtCap != "" && t.AtCap != AtCapInconclusive {
		return elo.SPRT{}, fmt.Errorf("results: a test's at_cap is %q or absent, not %q", AtCapInconclusive, t.AtCap)
	}
	s := elo.SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: model, InconclusiveAtCap: t.AtCap == AtCapInconclusive}
	return s, s.Validate()
}

// String is the test as -sprt words give it, with its cap: "elo0=0 elo1=5 alpha=0.05
// beta=0.05 model=normalized, at most 20000 games".
func (t Test) String() string {
	s := fmt.Sprintf("elo0=%g elo1=%g alpha=%g beta=%g model=%s", t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Model)
	if t.AtCap != "" {
		s += " at_cap=" + t.AtCap
	}
	if t.MaxGames > 0 {
		s += fmt.Sprintf(", at most %d games", t.MaxGames)
	}
	return s
}

// TestsDifferError is records whose runs were played to different tests: which one decides
// is for the user to say (arbiter stats -sprt).
type TestsDifferError struct {
	Tests []Test
}

// Error returns what went wrong, as a user reads it.
func (e *TestsDifferError) Error() string { return "results: " + e.Message() }

// Message is the error without the package's name.
func (e *TestsDifferError) Message() string {
	var each []string
	for _, t := range e.Tests {
		each = append(each, t.String())
	}
	return "the records carry different tests (" + strings.Join(each, "; ") + ")"
}

// RecordsTest is the test the records carry: the one that every record carrying a test
// gives; nil when none carries one; a *TestsDifferError when they disagree.
func RecordsTest(recs []Record) (*Test, error) {
	var tests []Test
	for i := range recs {
		if t := recs[i].Test; t != nil && !containsTest(tests, *t) {
			tests = append(tests, *t)
		}
	}
	switch len(tests) {
	case 0:
		return nil, nil
	case 1:
		return &tests[0], nil
	}
	return nil, &TestsDifferError{Tests: tests}
}

func containsTest(tests []Test, t Test) bool {
	for _, u := range tests {
		if u == t {
			return true
		}
	}
	return false
}
