package gamestring_test

import (
	"testing"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/proto/gamestring"
	"hivearbiter/results"
)

// The check before the first game judges a bot's first move as a game does: an illegal move
// is an illegal move, a pass an illegal pass, an exit a crash, and only a late answer a time
// loss, each in the game's words.
func TestPreflightJudgesTheFirstMoveAsAGame(t *testing.T) {
	tests := []struct {
		scenario string
		reason   results.Reason
		detail   string
	}{
		{"first", "", ""},
		{"illegal", results.ReasonIllegalMove, `White (illegal) played the illegal move "wQ"`},
		{"garbage", results.ReasonIllegalMove, `"please make a move for me" is not a MoveString`},
		{"pass", results.ReasonIllegalPass, "White (pass) passed although it had"},
		{"slow", results.ReasonTimeForfeit, "White (slow) loses on time"},
		{"crash", results.ReasonCrash, "bot: giving up"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			e := arbitertest.TestBinaryEngine(tt.scenario, gamestring.Name, fakeEnv+"="+tt.scenario)
			arbitertest.JudgesFirstMoveAsAGame(t, e, tt.reason, tt.detail)
		})
	}
}
