package rulestest

import (
	"math/rand/v2"
	"testing"

	"hivearbiter/rules"
)

// MustParseGame parses a GameString, and ends the test if it does not parse.
func MustParseGame(t testing.TB, gameString string) *rules.Game {
	t.Helper()
	g, err := rules.ParseGameString(gameString)
	if err != nil {
		t.Fatalf("loading %q: %v", gameString, err)
	}
	return g
}

// RandomGame plays up to plies random legal moves from the start of a game of the given
// type, fewer if the game ends first.
func RandomGame(t testing.TB, rng *rand.Rand, gameType rules.GameType, plies int) *rules.Game {
	t.Helper()
	g := rules.NewGame(gameType)
	for range plies {
		moves := g.ValidMoves()
		if len(moves) == 0 {
			break
		}
		if err := g.PlayMove(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatalf("%s: playing a generated move: %v", g.GameString(), err)
		}
	}
	return g
}

// RandomPositions returns the GameStrings of n unfinished random games, each minPlies plies
// long or more but shorter than maxPlies. The games cycle through the given game types, or
// through rules.GameTypes when none are given; a game that ends early is left out and its
// type's turn passes. The same rng state gives the same positions.
func RandomPositions(t testing.TB, rng *rand.Rand, n, minPlies, maxPlies int, types ...rules.GameType) []string {
	t.Helper()
	if minPlies < 0 || maxPlies <= minPlies {
		t.Fatalf("RandomPositions: plies from %d to below %d", minPlies, maxPlies)
	}
	if len(types) == 0 {
		types = rules.GameTypes
	}
	out := make([]string, 0, n)
	// Random games that end within a few dozen plies are rare; many such in a row are a bug.
	for i := 0; len(out) < n; i++ {
		if i == 100*n {
			t.Fatalf("RandomPositions: %d of %d random games ended before their last ply", i-len(out), i)
		}
		g := RandomGame(t, rng, types[i%len(types)], minPlies+rng.IntN(maxPlies-minPlies))
		if !g.State().IsOver() {
			out = append(out, g.GameString())
		}
	}
	return out
}
