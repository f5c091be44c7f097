package random

import (
	"math/rand/v2"
	"testing"

	"hivearbiter/rules"
)

// TestOpening: an opening has its plies, is not decided, is the same for the same rng state
// whatever the game held before, and differs for another seed.
func TestOpening(t *testing.T) {
	for _, gt := range []rules.GameType{rules.Base, rules.BaseMLP} {
		for _, plies := range []int{0, 1, 4, 12} {
			fresh := rules.NewGame(gt)
			Opening(fresh, plies, rand.New(rand.NewPCG(7, 1)))
			if fresh.Ply() != plies || fresh.State().IsOver() {
				t.Errorf("%s, %d plies: %q (%d plies, over %v)", gt, plies, fresh.GameString(), fresh.Ply(), fresh.State().IsOver())
			}
			used := rules.NewGame(gt)
			Opening(used, 20, rand.New(rand.NewPCG(99, 99)))
			Opening(used, plies, rand.New(rand.NewPCG(7, 1)))
			if used.GameString() != fresh.GameString() {
				t.Errorf("%s, %d plies: on a used game %q, on a fresh one %q", gt, plies, used.GameString(), fresh.GameString())
			}
		}
		a, b := rules.NewGame(gt), rules.NewGame(gt)
		Opening(a, 8, rand.New(rand.NewPCG(1, 1)))
		Opening(b, 8, rand.New(rand.NewPCG(2, 1)))
		if a.GameString() == b.GameString() {
			t.Errorf("%s: seeds 1 and 2 drew the same opening %q", gt, a.GameString())
		}
	}
}
