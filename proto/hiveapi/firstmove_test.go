//go:build unix

package hiveapi

import (
	"testing"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/results"
)

// The check before the first game judges a module's first turn as a game does: a turn it was
// not offered is an illegal move (it was named a time loss: the preflight took every failed
// search for one), a Forfeit while it has turns an illegal pass, a crash a crash, and only a
// late answer a time loss, each in the game's words.
func TestPreflightJudgesTheFirstMoveAsAGame(t *testing.T) {
	tests := []struct {
		scenario, transport string
		reason              results.Reason
		detail              string
	}{
		{"random", TransportStdio, "", ""},
		{"cheat-far", TransportStdio, results.ReasonIllegalMove, "White may not place a piece at 40,0"},
		{"cheat-far", TransportIPC, results.ReasonIllegalMove, "White may not place a piece at 40,0"},
		{"cheat-far", TransportTCP, results.ReasonIllegalMove, "White may not place a piece at 40,0"},
		{"cheat-cell", TransportStdio, results.ReasonIllegalMove, `"1,0" is not a cell`},
		{"forfeit", TransportIPC, results.ReasonIllegalPass, "White (first) passed although it had 7 legal moves"},
		{"slow-first", TransportStdio, results.ReasonTimeForfeit, "White (first) loses on time"},
		{"crash", TransportStdio, results.ReasonCrash, "TypeError: cannot read property"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.transport, func(t *testing.T) {
			arbitertest.JudgesFirstMoveAsAGame(t, fakeEngine(t, "first", tt.transport, tt.scenario), tt.reason, tt.detail)
		})
	}
}
