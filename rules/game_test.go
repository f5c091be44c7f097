package rules

import (
	"strings"
	"testing"
)

func TestGameStringErrorSaysItsPackageOnce(t *testing.T) {
	_, err := ParseGameString("Base;InProgress;White[2];wS1;")
	if err == nil || strings.Count(err.Error(), "rules:") != 1 {
		t.Errorf("got %v; want one error that names its package once", err)
	}
}

// A Game generates a position's valid moves once for all the checks of that position: playing
// a move or undoing one must forget them.
func TestGameChecksForgetTheValidMovesOfAnotherPosition(t *testing.T) {
	g := NewGame(Base)
	if err := g.Play("wS1"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.ParseMove("bS1 wS1-"); err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(1); err != nil {
		t.Fatal(err)
	}
	if _, err := g.ParseMove("bS1 wS1-"); err == nil {
		t.Fatal("after an undo, Black's move was accepted on White's turn")
	}
	for _, mv := range []string{"wS1", "bS1 wS1-"} {
		if err := g.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.ParseMove("bS1 wS1-"); err == nil {
		t.Fatal("after a play, the move just played was accepted again")
	}
}

// LoadGameString reads what ParseGameString reads, into a game that was any other: of the same
// type or not, further on or not; a GameString it refuses leaves the game usable.
func TestLoadGameString(t *testing.T) {
	g := NewGame(BaseMLP)
	for _, s := range []string{
		"Base+MLP;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1/",
		"Base;InProgress;White[2];wS1;bG1 -wS1",
		"Base",
		"Base;NotStarted;White[1]",
		"Base+MLP;InProgress;White[2];wL;bL wL-",
	} {
		want, err := ParseGameString(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.LoadGameString(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if g.GameString() != want.GameString() || g.Hash() != want.Hash() || g.CanonicalKey() != want.CanonicalKey() {
			t.Errorf("loaded %s; ParseGameString reads %s", g.GameString(), want.GameString())
		}
		for _, bad := range []string{"Base;InProgress", "Base;Won;White[1]", "Base;InProgress;White[0]", "Nope;InProgress;White[1]"} {
			_, perr := ParseGameString(bad)
			if lerr := g.LoadGameString(bad); lerr == nil || perr == nil || lerr.Error() != perr.Error() {
				t.Errorf("%s: LoadGameString %v, ParseGameString %v", bad, lerr, perr)
			}
			if g.GameString() != want.GameString() {
				t.Errorf("%s, refused, changed the game to %s", bad, g.GameString())
			}
		}
	}
}
