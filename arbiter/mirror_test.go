package arbiter

import (
	"strings"
	"testing"

	"hivearbiter/results"
	"hivearbiter/rules"
)

func mustGame(t *testing.T, gs string) *rules.Game {
	t.Helper()
	g, err := rules.ParseGameString(gs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A GameString with an empty move entry (a trailing ";") is malformed output, not a game that
// differs from the referee's.
func TestMirrorTrailingSemicolonIsMalformed(t *testing.T) {
	ref := mustGame(t, "Base;InProgress;White[2];wS1;bS1 wS1-")
	for _, m := range []*mirror{{}, {moves: []string{"wS1"}, game: mustGame(t, "Base;InProgress;Black[1];wS1")}} {
		d := m.verify(ref.GameString()+";", ref, false)
		if d == nil || d.reason != results.ReasonProtocol || !strings.Contains(d.detail, "malformed GameString") || strings.Contains(d.detail, "rules:") {
			t.Errorf("got %+v; want a malformed GameString", d)
		}
	}
}

// nokamute and Hivemind claim a draw by threefold repetition, which Mzinga's rules have not:
// the detail says so, and how the arbiter can adjudicate such games.
func TestMirrorFalseRepetitionClaimIsExplained(t *testing.T) {
	const moves = `wS1;bB1 wS1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\`
	ref := mustGame(t, "Base;InProgress;White[7];"+moves)
	var m mirror
	d := m.verify("Base;Draw;White[7];"+moves, ref, false)
	if d == nil || d.reason != results.ReasonFalseClaim {
		t.Fatalf("got %+v; want a false claim", d)
	}
	for _, want := range []string{"occurred 3 times", "-repetitions 3"} {
		if !strings.Contains(d.detail, want) {
			t.Errorf("%q does not say %s", d.detail, want)
		}
	}
}
