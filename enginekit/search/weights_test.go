package search

import (
	"context"
	"testing"

	"hivearbiter/rules/rulestest"
)

// TestParams: every tunable weight reads and writes its own field of Weights, its default is
// DefaultWeights' value and lies in its range, Set clamps to the range, and names are unique
// and found in any case.
func TestParams(t *testing.T) {
	seen := map[string]bool{}
	for i, p := range Params() {
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		if q, ok := ParamByName(p.Name); !ok || q.Name != p.Name {
			t.Errorf("ParamByName(%q) = %q, %v", p.Name, q.Name, ok)
		}
		def := DefaultWeights()
		if d := p.Default(); d != p.Get(&def) || d < p.Min || d > p.Max || p.Min != 0 || p.Max < 40 {
			t.Errorf("%s: default %d, range %d..%d", p.Name, d, p.Min, p.Max)
		}
		w := DefaultWeights()
		p.Set(&w, p.Default()+1001)
		if p.Get(&w) != p.Max {
			t.Errorf("%s: set above the range gives %d, want %d", p.Name, p.Get(&w), p.Max)
		}
		p.Set(&w, -5)
		if p.Get(&w) != p.Min {
			t.Errorf("%s: set below the range gives %d, want %d", p.Name, p.Get(&w), p.Min)
		}
		// Only this parameter's field changed: every other one still has its default.
		for j, q := range Params() {
			if j != i && q.Get(&w) != q.Default() {
				t.Errorf("setting %s changed %s to %d", p.Name, q.Name, q.Get(&w))
			}
		}
	}
	if _, ok := ParamByName("inplayant"); !ok {
		t.Error("ParamByName is case-sensitive")
	}
	if _, ok := ParamByName("Nonsense"); ok {
		t.Error("ParamByName found Nonsense")
	}
	if len(seen) != 30 {
		t.Errorf("%d parameters, want 30", len(seen))
	}
}

// TestWeightsPerSearcher: a Searcher searches with its own weights, on one thread and on two:
// raising the tempo term by 50 lowers a 3-ply search's exact score by 50 (every leaf has the
// opponent to move, and nothing ends within 3 plies of this opening), and a Searcher with the
// defaults, searching between the changes, keeps its score.
func TestWeightsPerSearcher(t *testing.T) {
	g := rulestest.MustParseGame(t, "Base+MLP;InProgress;White[3];wG1;bG1 -wG1;wQ wG1/;bQ \\bG1")
	for _, threads := range []int{1, 2} {
		plain := New(Options{HashMB: 4, Threads: threads})
		tempo := New(Options{HashMB: 4, Threads: threads})
		w := tempo.Weights()
		w.Tempo += 50
		tempo.SetWeights(w)
		search := func(s *Searcher) int {
			s.Clear()
			return s.Search(context.Background(), g.Board(), Limits{Depth: 3}).Score
		}
		base := search(plain)
		if got := search(tempo); got != base-50 {
			t.Errorf("%d threads: tempo+50 scores %d, defaults %d: want %d", threads, got, base, base-50)
		}
		if got := search(plain); got != base {
			t.Errorf("%d threads: the default searcher scores %d after the other's change, before %d", threads, got, base)
		}
		tempo.SetWeights(DefaultWeights())
		if got := search(tempo); got != base {
			t.Errorf("%d threads: back to the defaults scores %d, want %d", threads, got, base)
		}
	}
}

// TestEvaluateDefaults: Evaluate is the evaluation with DefaultWeights.
func TestEvaluateDefaults(t *testing.T) {
	g := rulestest.MustParseGame(t, "Base+MLP;InProgress;White[3];wG1;bG1 -wG1;wQ wG1/;bQ \\bG1")
	w := DefaultWeights()
	if Evaluate(g.Board()) != evaluate(g.Board(), &w, DefaultAggression) {
		t.Error("Evaluate differs from evaluate with the default weights")
	}
}
