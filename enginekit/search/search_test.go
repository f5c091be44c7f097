package search

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

// corpus is where the referee keeps Mzinga's test files, the search tests among them.
var corpus = filepath.Join("..", "..", "rules", "testdata")

// solve searches a puzzle's position to its depth and returns the move, as Mzinga writes it.
func solve(t *testing.T, s *Searcher, g *rules.Game, depth int) (string, Result) {
	t.Helper()
	s.Clear()
	res := s.Search(context.Background(), g.Board(), Limits{Depth: depth})
	if res.Move == rules.NoMove {
		t.Fatalf("%s: no move", g.GameString())
	}
	return g.MoveString(res.Move), res
}

func TestPuzzlesOneBestMove(t *testing.T) {
	s := New(Options{HashMB: 16})
	for _, p := range rulestest.ReadPuzzles(t, filepath.Join(corpus, "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")) {
		if testing.Short() && p.Depth > 4 {
			continue
		}
		g := rulestest.MustParseGame(t, p.GameString)
		want, err := g.ParseMove(p.BestMove)
		if err != nil {
			t.Fatalf("line %d: %v", p.Line, err)
		}
		start := time.Now()
		got, res := solve(t, s, g, p.Depth)
		t.Logf("line %d (%s): depth %d, %s score %d, %d nodes in %v", p.Line, p.Section, p.Depth, got, res.Score, res.Nodes, time.Since(start))
		if res.Move != want {
			t.Errorf("line %d (%s): depth %d: got %s (score %d), want %s", p.Line, p.Section, p.Depth, got, res.Score, p.BestMove)
		}
	}
}

// winsNow returns the moves that end the game at once in the side to move's favour.
func winsNow(b *rules.Board) []rules.Move {
	us := b.ToMove()
	var wins []rules.Move
	for _, m := range b.GenerateMoves(nil) {
		b.Apply(m)
		if st := b.State(); st == rules.WhiteWins && us == rules.White || st == rules.BlackWins && us == rules.Black {
			wins = append(wins, m)
		}
		b.Undo()
	}
	return wins
}

func TestBlocksWinningMove(t *testing.T) {
	s := New(Options{HashMB: 16})
	for _, p := range rulestest.ReadPuzzles(t, filepath.Join(corpus, "GameAI_BlockWinningMoveIsBestMoveTest.csv")) {
		g := rulestest.MustParseGame(t, p.GameString)
		got, res := solve(t, s, g, p.Depth)
		if got == p.BestMove {
			continue
		}
		// Another move is as good if it leaves the opponent no win in one.
		b := g.Board()
		b.Apply(res.Move)
		if wins := winsNow(b); len(wins) > 0 {
			t.Errorf("line %d: depth %d: got %s, which lets %s win; want %s", p.Line, p.Depth, got, b.MoveString(wins[0]), p.BestMove)
		}
	}
}

// positionsWithWin plays random games until each reaches a position where the side to move
// can win at once, and returns those positions.
func positionsWithWin(t testing.TB, seed uint64, want int) []*rules.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []*rules.Game
	for game := 0; len(out) < want && game < 50*want; game++ {
		g := rules.NewGame(rules.GameTypes[game%len(rules.GameTypes)])
		for ply := 0; ply < 300 && !g.State().IsOver(); ply++ {
			if len(winsNow(g.Board())) > 0 {
				out = append(out, g)
				break
			}
			moves := g.ValidMoves()
			if err := g.PlayMove(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(out) < want {
		t.Fatalf("only %d positions with a win in one", len(out))
	}
	return out
}

// TestFindsWinInOne searches random positions that have a winning move at depths 1 and 3:
// the search must play a win, and score it as a win next move.
func TestFindsWinInOne(t *testing.T) {
	s := New(Options{HashMB: 8})
	n := 40
	if testing.Short() {
		n = 12
	}
	for _, g := range positionsWithWin(t, 7, n) {
		wins := winsNow(g.Board())
		for _, depth := range []int{1, 3} {
			_, res := solve(t, s, g, depth)
			if !slices.Contains(wins, res.Move) || res.Score != Mate-1 {
				t.Errorf("%s: depth %d: got %s score %d; want one of %d wins, score %d", g.GameString(), depth, g.MoveString(res.Move), res.Score, len(wins), Mate-1)
			}
		}
		// With a time limit too: a proven win ends the search at once.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		res := s.Search(ctx, g.Board(), Limits{})
		cancel()
		if !slices.Contains(wins, res.Move) {
			t.Errorf("%s: timed search: got %s; want a win", g.GameString(), g.MoveString(res.Move))
		}
	}
}

// TestDeterministic: the same position searched to the same depth gives the same move, score
// and tree, whatever was searched before, once the searcher is cleared.
func TestDeterministic(t *testing.T) {
	positions := rulestest.RandomPositions(t, rand.New(rand.NewPCG(11, 99)), 6, 4, 44, rules.Base, rules.BaseMLP)
	s := New(Options{HashMB: 8})
	depth := 3
	first := make([]Result, len(positions))
	for i, gs := range positions {
		_, first[i] = solve(t, s, rulestest.MustParseGame(t, gs), depth)
	}
	other := New(Options{HashMB: 4})
	for i := len(positions) - 1; i >= 0; i-- {
		for _, srch := range []*Searcher{s, other} {
			_, res := solve(t, srch, rulestest.MustParseGame(t, positions[i]), depth)
			if res.Move != first[i].Move || res.Score != first[i].Score || res.Nodes != first[i].Nodes {
				t.Errorf("%s: depth %d: got %x/%d/%d nodes, first time %x/%d/%d", positions[i], depth,
					res.Move, res.Score, res.Nodes, first[i].Move, first[i].Score, first[i].Nodes)
			}
		}
	}
}

// TestSearchLeavesBoard: a search restores the board it was given.
func TestSearchLeavesBoard(t *testing.T) {
	s := New(Options{HashMB: 4})
	for _, gs := range rulestest.RandomPositions(t, rand.New(rand.NewPCG(13, 99)), 8, 4, 64) {
		g := rulestest.MustParseGame(t, gs)
		b := g.Board()
		h, ply := b.Hash(), b.Ply()
		s.Search(context.Background(), b, Limits{Depth: 3})
		if b.Hash() != h || b.Ply() != ply || g.MoveString(b.GenerateMoves(nil)[0]) == "" {
			t.Fatalf("%s: board changed by the search", gs)
		}
	}
}

// TestAlwaysAnswers: a search stopped before it starts, or after a few nodes, still returns
// a legal move.
func TestAlwaysAnswers(t *testing.T) {
	s := New(Options{HashMB: 4})
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, gs := range rulestest.RandomPositions(t, rand.New(rand.NewPCG(17, 99)), 10, 4, 64) {
		g := rulestest.MustParseGame(t, gs)
		for _, run := range []func() Result{
			func() Result { return s.Search(done, g.Board(), Limits{}) },
			func() Result { return s.Search(context.Background(), g.Board(), Limits{Nodes: 10}) },
		} {
			res := run()
			if !slices.Contains(g.ValidMoves(), res.Move) {
				t.Fatalf("%s: got %x, not a legal move", gs, res.Move)
			}
		}
	}
	over := rulestest.MustParseGame(t, "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\")
	if over.State() != rules.BlackWins {
		t.Fatalf("state %v", over.State())
	}
	if res := s.Search(context.Background(), over.Board(), Limits{Depth: 2}); res.Move != rules.NoMove {
		t.Fatalf("finished game: got %x, want NoMove", res.Move)
	}
}

// steppingClock is a clock for the search that advances a fixed step at every reading, so
// that a test controls how time passes however slowly the machine runs the search.
type steppingClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *steppingClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// deadlineOnly is a context with a deadline that only the search's clock can reach: it is
// never done, so the search must stop by reading the clock.
type deadlineOnly struct {
	context.Context
	deadline time.Time
}

func (c deadlineOnly) Deadline() (time.Time, bool) { return c.deadline, true }

// TestDeadline: a search with a context deadline answers by it. What the search controls is
// how often it reads the clock and what it does when the deadline comes, so the test gives it
// a clock that advances 1 ms at every reading and a context that only that clock can end:
// the search must stop on its own, and its answer must come by the deadline on that clock,
// however slowly a loaded machine runs it. With two threads, the helpers must stop too.
func TestDeadline(t *testing.T) {
	const budget, step = 150 * time.Millisecond, time.Millisecond
	const nodeCap = 5_000_000 // far more than 150 clock readings allow; a safety net only
	positions := rulestest.RandomPositions(t, rand.New(rand.NewPCG(19, 99)), 4, 4, 54, rules.BaseMLP)
	for _, threads := range []int{1, 2} {
		s := New(Options{HashMB: 16, Threads: threads})
		for _, gs := range positions {
			clock := &steppingClock{t: time.Now(), step: step}
			ctx := deadlineOnly{Context: context.Background(), deadline: clock.t.Add(budget)}
			res := s.search(ctx, rulestest.MustParseGame(t, gs).Board(), Limits{Nodes: nodeCap}, clock.now)
			if res.Time > budget {
				t.Errorf("threads %d: %s: answered after %v on the search's clock, budget %v", threads, gs, res.Time, budget)
			}
			if res.Nodes >= nodeCap {
				t.Errorf("threads %d: %s: stopped by the node cap (%d nodes in %v), not the deadline", threads, gs, res.Nodes, res.Time)
			}
			if res.Move == rules.NoMove {
				t.Errorf("threads %d: %s: no move", threads, gs)
			}
		}
	}
}

func TestMateScores(t *testing.T) {
	for _, tc := range []struct {
		score, plies int
		ok           bool
	}{{Mate - 1, 1, true}, {-(Mate - 4), 4, true}, {500, 0, false}, {-MateBound + 1, 0, false}} {
		plies, ok := IsMate(tc.score)
		if plies != tc.plies || ok != tc.ok {
			t.Errorf("IsMate(%d) = %d, %v; want %d, %v", tc.score, plies, ok, tc.plies, tc.ok)
		}
	}
	for _, score := range []int{Mate - 3, -(Mate - 7), 123, -45} {
		for _, ply := range []int{0, 1, 5} {
			if got := scoreFromTT(scoreToTT(score, ply), ply); got != score {
				t.Errorf("TT round trip of %d at ply %d: %d", score, ply, got)
			}
		}
	}
}

// TestTimeReserve: the search leaves room for its answer to travel, more for bigger budgets,
// and a tiny budget still leaves half for searching.
func TestTimeReserve(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct{ budget, want time.Duration }{
		{5 * time.Second, 100 * ms}, {time.Second, 100 * ms}, {115 * ms, 11500 * time.Microsecond},
		{40 * ms, 10 * ms}, {12 * ms, 6 * ms}, {0, 0},
	} {
		if got := timeReserve(tc.budget); got != tc.want {
			t.Errorf("timeReserve(%v) = %v, want %v", tc.budget, got, tc.want)
		}
	}
}
