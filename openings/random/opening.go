package random

import (
	"fmt"
	"math/rand/v2"

	"hivearbiter/rules"
)

// Opening plays a random opening of plies plies on g, from the start of its game type (g is
// taken back to its start first): random legal plies, and a position that is already decided
// is drawn again, or backed off from a ply at a time once 100 draws have been decided. The same
// rng state gives the same opening.
func Opening(g *rules.Game, plies int, rng *rand.Rand) {
	for attempt := 0; ; attempt++ {
		g.Reset()
		if play(g, plies, rng, attempt) {
			return
		}
	}
}

// play plays plies random legal plies on g, at its start, and reports whether the position is
// one to keep: not decided, or decided and backed off from after 100 attempts.
func play(g *rules.Game, plies int, rng *rand.Rand, attempt int) bool {
	for g.Ply() < plies && !g.State().IsOver() {
		moves := g.ValidMoves()
		if err := g.PlayMove(moves[rng.IntN(len(moves))]); err != nil {
			panic(fmt.Sprintf("random: the referee rejected its own valid move: %v", err))
		}
	}
	if !g.State().IsOver() || attempt > 100 {
		for g.State().IsOver() {
			g.Undo(1)
		}
		return true
	}
	return false
}
