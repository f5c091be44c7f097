package gamestring_test

import (
	"os"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
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
			e := driver.EngineConfig{Name: tt.scenario, Protocol: gamestring.Name, Command: []string{os.Args[0]},
				Env:  []string{fakeEnv + "=" + tt.scenario},
				Time: driver.TimeControl{MoveTime: 300 * time.Millisecond}, Margin: 200 * time.Millisecond}
			preflight, game := arbitertest.FirstMove(t, e)
			arbitertest.SameJudgement(t, preflight, game, tt.reason, tt.detail)
			if preflight != nil {
				t.Logf("preflight: %v", preflight)
			}
		})
	}
}
