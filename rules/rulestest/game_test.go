package rulestest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"hivearbiter/rules"
)

func TestMustParseGame(t *testing.T) {
	const gs = "Base;InProgress;White[2];wS1;bS1 wS1-"
	if g := MustParseGame(t, gs); g.GameString() != gs {
		t.Errorf("got %s, want %s", g.GameString(), gs)
	}
	msg := fatalMessage(t, func(tb testing.TB) { MustParseGame(tb, "Base;InProgress;White[2];wQ;bQ nowhere") })
	if !strings.Contains(msg, `loading "Base;InProgress;White[2];wQ;bQ nowhere"`) {
		t.Errorf("fatal %q", msg)
	}
}

func TestRandomGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, plies := range []int{0, 1, 30} {
		g := RandomGame(t, rng, rules.BaseMLP, plies)
		if g.Ply() != plies || g.GameType() != rules.BaseMLP {
			t.Errorf("%d plies: got %s", plies, g.GameString())
		}
	}
	// A game that ends stops there.
	ended := 0
	for range 50 {
		if g := RandomGame(t, rng, rules.Base, 300); g.State().IsOver() {
			ended++
			if g.Ply() >= 300 {
				t.Errorf("an ended game went on: %s", g.GameString())
			}
		}
	}
	if ended == 0 {
		t.Error("no random game of 300 plies ended: the test shows nothing")
	}
}

func TestRandomPositions(t *testing.T) {
	for _, tc := range []struct {
		n, minPlies, maxPlies int
		types                 []rules.GameType
	}{
		{0, 1, 2, nil},
		{16, 4, 44, nil},
		{5, 10, 11, []rules.GameType{rules.Base, rules.BaseMLP}},
		// Long games: many end, and are replaced.
		{12, 150, 200, []rules.GameType{rules.Base}},
	} {
		types := tc.types
		if types == nil {
			types = rules.GameTypes
		}
		positions := RandomPositions(t, rand.New(rand.NewPCG(7, 8)), tc.n, tc.minPlies, tc.maxPlies, tc.types...)
		if len(positions) != tc.n {
			t.Errorf("%+v: %d positions", tc, len(positions))
		}
		var seen []rules.GameType
		for _, gs := range positions {
			g := MustParseGame(t, gs)
			if g.State().IsOver() || g.Ply() < tc.minPlies || g.Ply() >= tc.maxPlies || !slices.Contains(types, g.GameType()) {
				t.Errorf("%+v: got %s", tc, gs)
			}
			if !slices.Contains(seen, g.GameType()) {
				seen = append(seen, g.GameType())
			}
		}
		if tc.n >= 2*len(types) && len(seen) != len(types) {
			t.Errorf("%+v: game types %v, want them all", tc, seen)
		}
		if again := RandomPositions(t, rand.New(rand.NewPCG(7, 8)), tc.n, tc.minPlies, tc.maxPlies, tc.types...); !slices.Equal(again, positions) {
			t.Errorf("%+v: the same seed gave other positions", tc)
		}
	}
	for _, plies := range [][2]int{{5, 5}, {-1, 3}} {
		msg := fatalMessage(t, func(tb testing.TB) { RandomPositions(tb, rand.New(rand.NewPCG(1, 1)), 1, plies[0], plies[1]) })
		if !strings.Contains(msg, "RandomPositions: plies") {
			t.Errorf("plies %v: fatal %q", plies, msg)
		}
	}
}
