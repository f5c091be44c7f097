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
