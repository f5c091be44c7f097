package rules_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

// TestPieceAndAbilityMovesPartitionMovements checks the two doors against the generator: over
// random positions of every game type, the moves of the pieces in play (own movement and
// special abilities together) are exactly GenerateMoves' moves that are not placements.
func TestPieceAndAbilityMovesPartitionMovements(t *testing.T) {
	n := abilityPositions
	if testing.Short() {
		n = min(n, 400)
	}
	rng := rand.New(rand.NewPCG(16, 1))
	abilities := 0
	for _, gs := range rulestest.RandomPositions(t, rng, n, 6, 60) {
		b := rulestest.MustParseGame(t, gs).Board()
		var want []rules.Move
		for _, m := range b.GenerateMoves(nil) {
			if !m.IsPass() && !b.InHand(m.Piece()) {
				want = append(want, m)
			}
		}
		var got []rules.Move
		for p := range rules.Piece(rules.NumPieces) {
			got = b.PieceMoves(got, p)
			before := len(got)
			got = b.AbilityMoves(got, p)
			abilities += len(got) - before
		}
		slices.Sort(want)
		slices.Sort(got)
		got = slices.Compact(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: piece and ability moves %v, want the generator's %v", gs, got, want)
		}
	}
	if abilities == 0 {
		t.Errorf("no special ability moves in %d positions: the test does not test them", n)
	}
}
