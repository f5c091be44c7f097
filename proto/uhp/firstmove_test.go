//go:build unix

package uhp

import (
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
)

// The check before the first game judges a UHP engine's first move as a game does: an
// illegal move is an illegal move, a pass an illegal pass, an exit a crash, text that is no
// move the protocol violation uhpclient names, and only a late answer a time loss, each in the
// game's words.
func TestPreflightJudgesTheFirstMoveAsAGame(t *testing.T) {
	tests := []struct {
		name   string
		fault  uhpfake.Fault
		reason results.Reason
		detail string
	}{
		{"good", uhpfake.Fault{On: "newgame"}, "", ""},
		{"illegal", uhpfake.Fault{On: "bestmove", Print: uhpfake.Lines{"bS1", "ok"}, Then: "silent"}, results.ReasonIllegalMove, `White (fake) played the illegal move "bS1"`},
		{"unreadable", uhpfake.Fault{On: "bestmove", Print: uhpfake.Lines{"wX9", "ok"}, Then: "silent"}, results.ReasonProtocol, `it answered "wX9", which is not a MoveString`},
		{"pass", uhpfake.Fault{On: "bestmove", Print: uhpfake.Lines{"pass", "ok"}, Then: "silent"}, results.ReasonIllegalPass, "White (fake) passed although it had"},
		{"slow", uhpfake.Fault{On: "bestmove", Delay: time.Second}, results.ReasonTimeForfeit, "White (fake) loses on time"},
		{"crash", uhpfake.Fault{On: "bestmove", Stderr: uhpfake.Lines{"out of cheese"}, Then: "exit", Code: 3}, results.ReasonCrash, "out of cheese"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := fakeEngine(tt.name)
			cfg.Faults = []uhpfake.Fault{tt.fault}
			argv, env := uhpfake.Command(cfg)
			arbitertest.JudgesFirstMoveAsAGame(t, driver.EngineConfig{Name: "fake", Command: argv, Env: env}, tt.reason, tt.detail)
		})
	}
}
