package evaluate

import (
	"context"
	"errors"
	"testing"

	"hivearbiter/rules"
)

// TestPlayoutEvaluator: a playout is a pure function of the position, scores a result, and
// is a draw when the move limit is already reached.
func TestPlayoutEvaluator(t *testing.T) {
	g, err := rules.ParseGameString("Base+MLP;InProgress;White[3];wG1;bS1 wG1/;wG2 /wG1;bL bS1-")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := NewPlayout(1, 120)
	if err != nil {
		t.Fatal(err)
	}
	first, err := ev.Evaluate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := ev.Evaluate(context.Background(), g)
	if first != again || (first != PlayoutScore && first != 0 && first != -PlayoutScore) {
		t.Errorf("scores %d then %d: want one of ±%d or 0, twice", first, again, PlayoutScore)
	}
	if g.Ply() != 4 {
		t.Errorf("the playout moved the position on to ply %d", g.Ply())
	}
	limited, _ := NewPlayout(1, 4)
	if s, err := limited.Evaluate(context.Background(), g); s != 0 || err != nil {
		t.Errorf("at the move limit: %d, %v; want a draw", s, err)
	}
}

// TestBookCommand: a book's header names the command line that makes it again, with the flags
// that differ from none left out and an engine's program quoted as the shell reads it.
func TestBookCommand(t *testing.T) {
	s := BookSettings{Depth: 3}
	s.GameType, s.Plies, s.Count, s.Seed, s.Band = rules.BaseMLP, 4, 100, 1, 50
	want := "arbiter openings generate -game-type Base+MLP -plies 4 -count 100 -seed 1 -depth 3 -band 50"
	if got := s.Command(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	s.Playout, s.Balance, s.Candidates, s.Engine = true, true, 500, "./my engine"
	want += " -playout -balance -candidates 500 -engine './my engine'"
	if got := s.Command(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, _, err := GenerateBook(context.Background(), BookSettings{}); !errors.As(err, new(*SettingsError)) {
		t.Errorf("depth 0: %v; want a *SettingsError", err)
	}
}
