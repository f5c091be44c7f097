package openings

import (
	"math/rand/v2"
	"testing"

	"hivearbiter/rules"
)

// TestReplayer: openings drawn on one game taken back to its start are those drawn on a new
// game each, and their positions read back on it are PositionKey's, across game types and
// for GameStrings it cannot replay.
func TestReplayer(t *testing.T) {
	var r Replayer
	for i, gt := range []rules.GameType{rules.BaseMLP, rules.BaseMLP, rules.Base, rules.BaseMLP} {
		for plies := range 9 {
			seed := uint64(100*i + plies)
			fresh := RandomGame(gt, plies, rand.New(rand.NewPCG(seed, 1))).GameString()
			if got := r.RandomGame(gt, plies, rand.New(rand.NewPCG(seed, 1))).GameString(); got != fresh {
				t.Fatalf("%s, %d plies: drawn on the replayer %q, on a new game %q", gt, plies, got, fresh)
			}
			if got, want := r.PositionKey(fresh), PositionKey(fresh); got != want {
				t.Errorf("%q: position %s, PositionKey %s", fresh, got, want)
			}
		}
	}
	for _, gs := range []string{"", "Base", "Base+MLP;NotStarted;White[1]", "Base+MLP;InProgress;White[2];wQ;bZ1", "Chess;x;y", "Base;InProgress;Black[1];wS1;"} {
		if got, want := r.PositionKey(gs), PositionKey(gs); got != want {
			t.Errorf("%q: position %s, PositionKey %s", gs, got, want)
		}
	}
}
