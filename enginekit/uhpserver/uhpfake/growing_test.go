//go:build unix

package uhpfake

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"hivearbiter/rules"
)

// A Think search runs over by OvershootPerMove for each move of the engine's side: a little
// at its first move, eleven times as much at its eleventh; and twice that when busy processes,
// one more than there are cores, leave it short of CPU.
func TestOvershootPerMove(t *testing.T) {
	const budget, perMove = 100 * time.Millisecond, 40 * time.Millisecond
	f := start(t, Config{Think: true, OvershootPerMove: perMove})
	f.expect(t, strings.Split(banner, "\n")...)
	game := rules.NewGame(rules.BaseMLP)
	for game.Ply() < 20 { // 20 plies that do not end the game: White's eleventh move is next
		for _, m := range game.ValidMoves() {
			if after := game.Clone(); after.PlayMove(m) == nil && !after.State().IsOver() {
				game = after
				break
			}
		}
	}
	search := func() time.Duration {
		t.Helper()
		begin := time.Now()
		f.send(t, "bestmove time 00:00:00.1")
		f.line(t)
		took := time.Since(begin)
		f.expect(t, "ok")
		return took
	}
	atMove := func(n int) {
		t.Helper()
		f.send(t, "newgame "+game.GameString())
		f.line(t)
		f.expect(t, "ok")
		// The search runs over by at least its share, and not by more than twice it (and a
		// shared machine's slack).
		if took, over := search(), time.Duration(n)*perMove; took < budget+over || took > budget+2*over+500*time.Millisecond {
			t.Errorf("a search of %v at move %d took %v, want %v over, or twice that", budget, n, took, over)
		}
	}
	f.send(t, "newgame Base+MLP")
	f.line(t)
	f.expect(t, "ok")
	if took := search(); took < budget+perMove || took > budget+2*perMove+500*time.Millisecond {
		t.Errorf("a search of %v at move 1 took %v, want %v over, or twice that", budget, took, perMove)
	}
	atMove(11)

	for range runtime.NumCPU() + 1 {
		start(t, Config{Faults: []Fault{{On: "start", Then: "spin"}}}) // killed as the test ends
	}
	time.Sleep(100 * time.Millisecond) // they spin
	f.send(t, "newgame "+game.GameString())
	f.line(t)
	f.expect(t, "ok")
	if took, doubled := search(), budget+2*11*perMove; took < doubled {
		t.Errorf("a search of %v at move 11 took %v beside busy processes, want %v: its overshoot doubled", budget, took, doubled)
	}
}

// Loaded is a share of a CPU below three quarters.
func TestLoaded(t *testing.T) {
	for _, tc := range []struct {
		cpu, wall time.Duration
		loaded    bool
	}{
		{50 * time.Millisecond, 50 * time.Millisecond, false},
		{38 * time.Millisecond, 50 * time.Millisecond, false},
		{37 * time.Millisecond, 50 * time.Millisecond, true},
		{25 * time.Millisecond, 50 * time.Millisecond, true},
	} {
		if got := Loaded(tc.cpu, tc.wall); got != tc.loaded {
			t.Errorf("Loaded(%v, %v) = %v, want %v", tc.cpu, tc.wall, got, tc.loaded)
		}
	}
}
