package openings_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"hivearbiter/openings"
	"hivearbiter/openings/evaluate"
	"hivearbiter/rules"
)

// generate makes a book with hivebot's search at depth 1, written out.
func generate(t *testing.T, cfg openings.GenerateConfig) (*openings.Generated, string) {
	t.Helper()
	ev, err := evaluate.NewSearch(1)
	if err != nil {
		t.Fatal(err)
	}
	book, err := openings.Generate(context.Background(), cfg, ev)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := book.Write(&buf, []string{"header"}); err != nil {
		t.Fatal(err)
	}
	return book, buf.String()
}

// TestGenerateDeterministic: a seed gives one book, byte for byte; another seed another.
func TestGenerateDeterministic(t *testing.T) {
	cfg := openings.GenerateConfig{GameType: rules.BaseMLP, Plies: 4, Count: 30, Seed: 5, Band: 20, Candidates: 90}
	_, first := generate(t, cfg)
	_, again := generate(t, cfg)
	if first != again {
		t.Fatalf("the same configuration made two books:\n%s\n---\n%s", first, again)
	}
	cfg.Seed = 6
	if _, other := generate(t, cfg); other == first {
		t.Error("seeds 5 and 6 made the same book")
	}
}

// TestGenerateBook: every position of a book is reached after the plies asked, of the game
// type asked, within the band, and no two are equal up to symmetry; the first positions come
// from as many bug groups as there are.
func TestGenerateBook(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  openings.GenerateConfig
	}{
		{"Base+MLP", openings.GenerateConfig{GameType: rules.BaseMLP, Plies: 4, Count: 40, Seed: 1, Band: 15, Candidates: 150}},
		{"Base", openings.GenerateConfig{GameType: rules.Base, Plies: 4, Count: 40, Seed: 2, Band: 15, Candidates: 150}},
		{"Base+M, 6 plies", openings.GenerateConfig{GameType: mustGameType(t, "Base+M"), Plies: 6, Count: 20, Seed: 3, Band: 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			book, text := generate(t, tc.cfg)
			if len(book.Positions) != tc.cfg.Count {
				t.Fatalf("%d positions, want %d (%d distinct, %d in band)", len(book.Positions), tc.cfg.Count, book.Distinct, book.InBand)
			}
			seen := map[rules.Canonical]int{}
			groups := map[string]bool{}
			for i, p := range book.Positions {
				g, err := rules.ParseGameString(p.GameString)
				if err != nil {
					t.Fatalf("position %d: %v", i, err)
				}
				if g.GameType() != tc.cfg.GameType || g.Ply() != tc.cfg.Plies || g.State().IsOver() {
					t.Errorf("position %d %s: game type %s at ply %d, %s", i, p.GameString, g.GameType(), g.Ply(), g.State())
				}
				if j, ok := seen[g.Canonical()]; ok {
					t.Errorf("positions %d and %d are equal up to symmetry", j, i)
				}
				seen[g.Canonical()] = i
				if p.Score < -tc.cfg.Band || p.Score > tc.cfg.Band {
					t.Errorf("position %d scores %d, outside the band %d", i, p.Score, tc.cfg.Band)
				}
				if bugs, _ := openings.Describe(g.Board()); bugs != p.Bugs {
					t.Errorf("position %d: bugs %q, want %q", i, p.Bugs, bugs)
				}
				if i < min(book.Groups, len(book.Positions)) {
					if groups[p.Bugs] {
						t.Errorf("position %d repeats the bug group %s before every group had one", i, p.Bugs)
					}
					groups[p.Bugs] = true
				}
			}
			if lines := strings.Count(text, "\n"); lines != 1+len(book.Positions) {
				t.Errorf("%d lines written, want a header and %d positions", lines, len(book.Positions))
			}
		})
	}
}

// TestGenerateExhausted: asked for more candidates than exist, the draw stops and says so,
// having found every position there is: after one ply of Base, one per bug that may open.
func TestGenerateExhausted(t *testing.T) {
	book, _ := generate(t, openings.GenerateConfig{GameType: rules.Base, Plies: 1, Count: 10, Seed: 1, Band: 1000})
	distinct := map[rules.Canonical]bool{}
	for _, m := range rules.NewGame(rules.Base).ValidMoves() {
		g := rules.NewGame(rules.Base)
		if err := g.PlayMove(m); err != nil {
			t.Fatal(err)
		}
		distinct[g.Canonical()] = true
	}
	if !book.Exhausted || book.Distinct != len(distinct) || len(book.Positions) != len(distinct) {
		t.Errorf("exhausted %v, %d distinct, %d positions; want true, %d, %d", book.Exhausted, book.Distinct, len(book.Positions), len(distinct), len(distinct))
	}
}

// scores is an evaluator that scores positions by their order: White, White, Black, draw,
// White, ...
type scores struct{ n int }

func (s *scores) Evaluate(context.Context, *rules.Game) (int, error) {
	s.n++
	return [4]int{100, 100, -100, 0}[s.n%4], nil
}
func (s *scores) Describe() string { return "fixed" }

// TestGenerateBalance: a balanced book has as many positions scored for White as for Black,
// one more at most at every prefix; an unbalanced one has them as evaluated.
func TestGenerateBalance(t *testing.T) {
	for _, balanced := range []bool{false, true} {
		cfg := openings.GenerateConfig{GameType: rules.BaseMLP, Plies: 3, Count: 40, Seed: 1, Band: 100, Candidates: 80, Balance: balanced}
		book, err := openings.Generate(context.Background(), cfg, &scores{})
		if err != nil {
			t.Fatal(err)
		}
		white, black, worst := 0, 0, 0
		for _, p := range book.Positions {
			if p.Score > 0 {
				white++
			} else if p.Score < 0 {
				black++
			}
			worst = max(worst, white-black, black-white)
		}
		if balanced && (worst > 1 || len(book.Positions) != cfg.Count) {
			t.Errorf("balanced: %d positions, White %d and Black %d apart at worst; want %d, 1", len(book.Positions), worst, worst, cfg.Count)
		}
		if !balanced && worst < 5 {
			t.Errorf("unbalanced: White and Black at most %d apart, but the evaluator favours White 2:1", worst)
		}
	}
}

// TestGenerateErrors: a configuration that cannot make a book is an ErrGenerateConfig, and an
// evaluator's failure names the position.
func TestGenerateErrors(t *testing.T) {
	for _, cfg := range []openings.GenerateConfig{
		{GameType: rules.Base, Plies: 0, Count: 1},
		{GameType: rules.Base, Plies: 4, Count: 0},
		{GameType: rules.Base, Plies: 4, Count: 1, Band: -1},
	} {
		if _, err := openings.Generate(context.Background(), cfg, &scores{}); !errors.Is(err, openings.ErrGenerateConfig) {
			t.Errorf("%+v: %v, want ErrGenerateConfig", cfg, err)
		}
	}
	if _, err := evaluate.NewSearch(0); !errors.Is(err, openings.ErrGenerateConfig) {
		t.Errorf("depth 0: %v, want ErrGenerateConfig", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ev, _ := evaluate.NewSearch(1)
	if _, err := openings.Generate(ctx, openings.GenerateConfig{GameType: rules.Base, Plies: 2, Count: 1}, ev); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

func mustGameType(t *testing.T, s string) rules.GameType {
	t.Helper()
	gt, err := rules.ParseGameType(s)
	if err != nil {
		t.Fatal(err)
	}
	return gt
}
