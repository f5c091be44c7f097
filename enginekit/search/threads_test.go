package search

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

// TestThreadsFindSameMates: with two threads, the search plays the one move that forces a
// win in each of Mzinga's puzzles, as one thread does, and proves the same mate.
func TestThreadsFindSameMates(t *testing.T) {
	one := New(Options{HashMB: 16})
	two := New(Options{HashMB: 16, Threads: 2})
	for _, p := range rulestest.ReadPuzzles(t, filepath.Join(corpus, "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")) {
		if testing.Short() && p.Depth > 4 {
			continue
		}
		g := rulestest.MustParseGame(t, p.GameString)
		want, err := g.ParseMove(p.BestMove)
		if err != nil {
			t.Fatalf("line %d: %v", p.Line, err)
		}
		_, res1 := solve(t, one, g, p.Depth)
		got, res2 := solve(t, two, g, p.Depth)
		if res2.Move != want {
			t.Errorf("line %d: depth %d, two threads: got %s (score %d), want %s", p.Line, p.Depth, got, res2.Score, p.BestMove)
		}
		plies1, mate1 := IsMate(res1.Score)
		plies2, mate2 := IsMate(res2.Score)
		if mate1 != mate2 || plies1 != plies2 || res2.Score < 0 {
			t.Errorf("line %d: depth %d: two threads score %d, one thread %d", p.Line, p.Depth, res2.Score, res1.Score)
		}
	}
}

// TestThreadsAnswerLegally: two- and four-thread searches stopped by a node budget, a
// cancelled context or a short deadline return a legal move, leave the board as it was, and
// count the helpers' nodes.
func TestThreadsAnswerLegally(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 4
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, threads := range []int{2, 4} {
		s := New(Options{HashMB: 4, Threads: threads})
		for _, gs := range rulestest.RandomPositions(t, rand.New(rand.NewPCG(23, 99)), n, 4, 64) {
			g := rulestest.MustParseGame(t, gs)
			for _, run := range []func(*rules.Board) Result{
				func(b *rules.Board) Result { return s.Search(done, b, Limits{}) },
				func(b *rules.Board) Result { return s.Search(context.Background(), b, Limits{Nodes: 20_000}) },
				func(b *rules.Board) Result {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
					defer cancel()
					return s.Search(ctx, b, Limits{})
				},
				func(b *rules.Board) Result { return s.Search(context.Background(), b, Limits{Depth: 3}) },
			} {
				b := g.Board()
				h := b.Hash()
				res := run(b)
				if !slices.Contains(g.ValidMoves(), res.Move) {
					t.Fatalf("threads %d: %s: got %x, not a legal move", threads, gs, res.Move)
				}
				if b.Hash() != h {
					t.Fatalf("threads %d: %s: board changed by the search", threads, gs)
				}
				if len(res.PV) == 0 || res.PV[0] != res.Move {
					t.Fatalf("threads %d: %s: PV %x does not start with the move %x", threads, gs, res.PV, res.Move)
				}
			}
		}
	}
}

// TestThreadsShareWork: a two-thread search of a mid-game position to a fixed depth hands a
// real share of its nodes to the helper (Young Brothers Wait splits nodes while a thread is
// idle), and a one-thread search hands none.
func TestThreadsShareWork(t *testing.T) {
	g := rulestest.MustParseGame(t, midgame)
	for _, threads := range []int{1, 2} {
		s := New(Options{HashMB: 16, Threads: threads})
		res := s.Search(context.Background(), g.Board(), Limits{Depth: 4})
		helpers := res.Nodes - s.main.nodes
		share := float64(helpers) / float64(res.Nodes)
		t.Logf("threads %d: %d nodes, %.0f%% by helpers", threads, res.Nodes, 100*share)
		switch {
		case threads == 1 && helpers != 0:
			t.Errorf("one thread: helpers searched %d nodes", helpers)
		case threads == 2 && share < 0.1:
			t.Errorf("two threads: helpers searched %d of %d nodes (%.1f%%); want at least 10%%", helpers, res.Nodes, 100*share)
		}
	}
}
