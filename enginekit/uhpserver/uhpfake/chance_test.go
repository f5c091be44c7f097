//go:build unix

package uhpfake

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// struck plays a game of plies moves (the fake's own salted choices) and returns the plies at
// which the fault of cfg would strike a bestmove.
func struck(t *testing.T, cfg Config, plies int) []int {
	t.Helper()
	h := NewHandler(cfg)
	var at []int
	for ply := range plies {
		if h.find("bestmove", "depth 1", false) != nil {
			at = append(at, ply)
		}
		moves := h.game.ValidMoveStrings()
		if len(moves) == 0 || h.game.State().IsOver() {
			break
		}
		if err := h.game.Play(moves[(ply*7)%len(moves)]); err != nil {
			t.Fatal(err)
		}
	}
	return at
}

// TestChance: a fault with a Chance strikes in about that share of the positions, in the same
// positions for the same seed whichever handler (process) plays them, and in others for
// another seed.
func TestChance(t *testing.T) {
	fault := Fault{On: "bestmove", Chance: 0.25, Then: "silent"}
	const plies = 120
	a := struck(t, Config{Seed: 7, Faults: []Fault{fault}}, plies)
	b := struck(t, Config{Seed: 7, Faults: []Fault{fault}}, plies)
	c := struck(t, Config{Seed: 8, Faults: []Fault{fault}}, plies)
	if !slices.Equal(a, b) {
		t.Errorf("seed 7 struck at plies %v, then at %v: not reproducible", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 both struck at plies %v", a)
	}
	// 120 draws at 1/4: 30 expected, 4.7 standard deviations; 12 to 48 is beyond 3.8 of them.
	if n := len(a); n < 12 || n > 48 {
		t.Errorf("struck %d times in %d positions at a chance of 1/4", n, plies)
	}
	if got := struck(t, Config{Seed: 7, Faults: []Fault{{On: "bestmove", Then: "silent"}}}, 10); len(got) != 10 {
		t.Errorf("a fault without a Chance struck at plies %v, want every one of 10", got)
	}
}

// TestLeak: each time a leaking fault applies, the engine keeps Leak more bytes, written.
func TestLeak(t *testing.T) {
	h := NewHandler(Config{Faults: []Fault{{On: "validmoves", Leak: 1 << 20}}})
	for range 3 {
		if _, err := h.ValidMoves(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(h.leaked) != 3 {
		t.Fatalf("%d leaks kept, want 3", len(h.leaked))
	}
	for _, b := range h.leaked {
		if len(b) != 1<<20 || slices.Contains(b, 0) {
			t.Fatalf("a leak of %d bytes, or not written: want 1 MiB, no zero byte", len(b))
		}
	}
}

// TestFaultLog: every fault that applies, and only those, appends its name and moment.
func TestFaultLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "faults")
	f := start(t, Config{FaultLog: log, Faults: []Fault{
		{Name: "loud", On: "validmoves", Print: []string{"# loud"}},
		{On: "undo", Print: []string{"# undo"}},
	}})
	f.expect(t, strings.Split(banner, "\n")...)
	f.send(t, "validmoves", "play wS1", "validmoves", "undo", "exit")
	f.exit(t)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), "loud validmoves 0\nloud validmoves 1\n1 undo 1\n"; got != want {
		t.Errorf("fault log %q, want %q", got, want)
	}
}
