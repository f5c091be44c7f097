package search

import (
	"context"
	"testing"
	"time"

	"hivearbiter/rules/rulestest"
)

// midgame is a Base+MLP position from an Online Hive World Championship final, 28 plies in
// (Mzinga's Board_ValidMovesFromRealGamesTest).
const midgame = `Base+MLP;InProgress;White[15];wB1;bL /wB1;wQ wB1-;bQ -bL;wA1 \wB1;bM bQ\;wA1 bM\;bA1 /bQ;wA2 wA1-;bA1 wA2\;wM \wQ;bP /bQ;wA3 -wM;bA2 -bP;wA3 -bA2;bA3 /bP;wM wB1;bB1 -bQ;wM bL;bS1 /bA1;wP wQ\;bS1 -wA1;wB2 /wQ;bQ bB1/;wM bM;bS2 bQ/;wB2 bL;bS2 \wQ`

// BenchmarkSearch searches for one second from the start and from a mid-game position, and
// reports the speed and the deepest iteration completed.
func BenchmarkSearch(b *testing.B) {
	for _, bc := range []struct{ name, game string }{
		{"start", "Base+MLP"},
		{"midgame", midgame},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := rulestest.MustParseGame(b, bc.game)
			s := New(Options{HashMB: DefaultHashMB})
			b.ReportAllocs()
			var nodes int64
			var depth int
			var elapsed time.Duration
			for b.Loop() {
				s.Clear()
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				res := s.Search(ctx, g.Board(), Limits{})
				cancel()
				nodes += res.Nodes
				depth += res.Depth
				elapsed += res.Time
			}
			b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
			b.ReportMetric(float64(depth)/float64(b.N), "depth")
		})
	}
}

// BenchmarkEvaluate measures the static evaluation alone.
func BenchmarkEvaluate(b *testing.B) {
	board := rulestest.MustParseGame(b, midgame).Board()
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(board)
	}
}
