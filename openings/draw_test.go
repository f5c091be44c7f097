package openings

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/rules"
)

func canonicalOf(t *testing.T, gs string) rules.Canonical {
	t.Helper()
	g, err := rules.ParseGameString(gs)
	if err != nil {
		t.Fatalf("opening %q: %v", gs, err)
	}
	return g.Canonical()
}

// TestRandomOpeningsDifferUpToSymmetry draws more pairs than there are positions at small ply
// counts (16 after 2 plies of Base, 160 after 3, 49 after 2 of Base+MLP: counted in rules'
// tests), and fewer at 4 plies: every position is used once before any repeats, and the
// warnings name the count.
func TestRandomOpeningsDifferUpToSymmetry(t *testing.T) {
	for _, tc := range []struct {
		gt              rules.GameType
		plies, pairs    int
		distinct        int
		warningMentions string
	}{
		{rules.Base, 2, 20, 16, "only 16 positions differ up to symmetry, so 4 of 20 game pairs repeat one"},
		{rules.Base, 3, 160, 160, ""},
		{rules.BaseMLP, 2, 60, 49, "only 49 positions"},
		{rules.BaseMLP, 4, 300, 300, ""},
	} {
		b, err := Load(Config{RandomPlies: tc.plies}, tc.gt, 7)
		if err != nil {
			t.Fatal(err)
		}
		first := map[rules.Canonical]int{}
		for p := range tc.pairs {
			gs, _ := b.At(p)
			c := canonicalOf(t, gs)
			if q, ok := first[c]; ok && p < tc.distinct {
				t.Errorf("%s, %d plies: pair %d repeats pair %d (%s)", tc.gt, tc.plies, p, q, gs)
			}
			if _, ok := first[c]; !ok {
				first[c] = p
			}
		}
		if len(first) != tc.distinct {
			t.Errorf("%s, %d plies: %d distinct openings in %d pairs, want %d", tc.gt, tc.plies, len(first), tc.pairs, tc.distinct)
		}
		warnings := strings.Join(b.Warnings(), "\n")
		if tc.warningMentions == "" && warnings != "" || !strings.Contains(warnings, tc.warningMentions) {
			t.Errorf("%s, %d plies: warnings %q, want one that says %q", tc.gt, tc.plies, warnings, tc.warningMentions)
		}
	}
}

// TestRandomOpeningsAreDeterministic asks for the openings of two books with the same seed in
// different orders, and at once from several goroutines: the same openings, pair by pair.
func TestRandomOpeningsAreDeterministic(t *testing.T) {
	const pairs = 200
	for _, plies := range []int{2, 4} {
		in := func() *Book {
			b, err := Load(Config{RandomPlies: plies}, rules.BaseMLP, 11)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		a, b := in(), in()
		want := make([]string, pairs)
		for p := range pairs {
			want[p], _ = a.At(p)
		}
		var wg sync.WaitGroup
		got := make([]string, pairs)
		for _, p := range rand.New(rand.NewPCG(1, 2)).Perm(pairs) {
			wg.Go(func() { got[p], _ = b.At(p) })
		}
		wg.Wait()
		for p := range pairs {
			if got[p] != want[p] {
				t.Fatalf("%d plies, pair %d: %q one time, %q another", plies, p, want[p], got[p])
			}
		}
	}
}

// TestRandomOpeningsKeepNewDraws checks that a pair whose first draw is new to the run gets
// it, as it did before repeats were looked for: pair 0 always does.
func TestRandomOpeningsKeepNewDraws(t *testing.T) {
	b, err := Load(Config{RandomPlies: 4}, rules.BaseMLP, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 0^0x9e3779b97f4a7c15))
	if got, _ := b.At(0); got != RandomGame(rules.BaseMLP, 4, rng).GameString() {
		t.Errorf("pair 0 got %q, not its first draw", got)
	}
}

func TestOpeningFileRepeatsNameTheirLines(t *testing.T) {
	content := strings.Join([]string{
		"Base;InProgress;White[2];wS1;bS1 wS1-",
		"# the same, mirrored and rotated",
		"Base;InProgress;White[2];wS1;bS1 -wS1",
		"Base;InProgress;White[2];wS1;bG1 wS1-",
		"Base;InProgress;White[2];wS1;bS1 wS1/",
		"Base;InProgress;White[2];wS1;bG1 \\wS1",
		"Base;InProgress;White[2];wG1;bS1 wG1-",
	}, "\n")
	path := writeFile(t, "book.txt", content)
	b, err := Load(Config{File: path}, rules.Base, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 6 {
		t.Errorf("%d openings, want all 6 kept", b.Len())
	}
	got := strings.ReplaceAll(strings.Join(b.Warnings(), "\n")+"\n", path, "book.txt")
	golden.Check(t, "testdata/openings-repeats.golden", []byte(got))
}

// BenchmarkRandomOpenings draws the default openings (4 random plies) for 1000 pairs, as the
// arbiter drew them before it looked for repeats ("first-draws") and as it does now, and
// reports how many pairs repeat an earlier pair's position exactly and up to symmetry. (There
// are 14045 positions after 4 plies of Base+MLP up to symmetry, and 2000 of Base.)
func BenchmarkRandomOpenings(b *testing.B) {
	for _, gt := range []rules.GameType{rules.BaseMLP, rules.Base} {
		b.Run(gt.String(), func(b *testing.B) { benchmarkRandomOpenings(b, gt) })
	}
}

func benchmarkRandomOpenings(b *testing.B, gt rules.GameType) {
	const pairs = 1000
	repeats := func(openings []string) (exact, symmetric int) {
		seenText, seenForm := map[string]bool{}, map[rules.Canonical]bool{}
		for _, gs := range openings {
			g, _ := rules.ParseGameString(gs)
			if seenText[gs] {
				exact++
			}
			if seenForm[g.Canonical()] {
				symmetric++
			}
			seenText[gs], seenForm[g.Canonical()] = true, true
		}
		return exact, symmetric
	}
	for _, tc := range []struct {
		name string
		draw func(seed uint64) []string
	}{
		{"first-draws", func(seed uint64) []string {
			out := make([]string, pairs)
			for p := range out {
				rng := rand.New(rand.NewPCG(seed, uint64(p)^0x9e3779b97f4a7c15))
				out[p] = RandomGame(gt, 4, rng).GameString()
			}
			return out
		}},
		{"without-repeats", func(seed uint64) []string {
			book, _ := Load(Config{RandomPlies: 4}, gt, int64(seed))
			out := make([]string, pairs)
			for p := range out {
				out[p], _ = book.At(p)
			}
			return out
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var exact, symmetric, runs int
			for b.Loop() {
				e, s := repeats(tc.draw(uint64(runs)))
				exact, symmetric, runs = exact+e, symmetric+s, runs+1
			}
			b.ReportMetric(float64(exact)/float64(runs), "exact-repeats/1000")
			b.ReportMetric(float64(symmetric)/float64(runs), "symmetric-repeats/1000")
		})
	}
}
