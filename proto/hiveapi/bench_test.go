package hiveapi

import (
	"math/rand/v2"
	"testing"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

// BenchmarkChooseTurnRequest measures what the arbiter adds to each move of a module: the
// game state with its possible turns, encoded, for a position 40 plies into a Base+MLP game.
func BenchmarkChooseTurnRequest(b *testing.B) {
	gs := rulestest.RandomPositions(b, rand.New(rand.NewPCG(16, 4)), 1, 40, 41, rules.BaseMLP)[0]
	g, err := LoadGame(gs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		g.offered = nil // as after a move
		data, err := encode(ChooseTurnRequest{RequestType: ChooseTurn, RequestID: "r1", GameState: g.State()})
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "bytes/request")
}
