package evaluate

import (
	"context"
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
