package ugi_test

import (
	"testing"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/proto/ugi"
	"hivearbiter/results"
)

// The check before the first game judges a UGI engine's first move as a game does: an
// illegal move is an illegal move, a pass an illegal pass, an exit a crash, and only a late
// answer a time loss, each in the game's words.
func TestPreflightJudgesTheFirstMoveAsAGame(t *testing.T) {
	tests := []struct {
		scenario string
		reason   results.Reason
		detail   string
	}{
		{"good", "", ""},
		{"illegal", results.ReasonIllegalMove, `White (illegal) played the illegal move "wQ"`},
		{"pass", results.ReasonIllegalPass, "White (pass) passed although it had"},
		{"slow", results.ReasonTimeForfeit, "White (slow) loses on time"},
		{"crash", results.ReasonCrash, "out of cheese"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			e := arbitertest.TestBinaryEngine(tt.scenario, ugi.Name, fakeEnv+"="+tt.scenario)
			arbitertest.JudgesFirstMoveAsAGame(t, e, tt.reason, tt.detail)
		})
	}
}
