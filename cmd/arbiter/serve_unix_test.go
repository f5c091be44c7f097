//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"hivearbiter/rules"
)

// TestServeViewerInterrupt stops an engine's search as Mzinga's viewer does, with SIGINT to
// serve: the engine's best move so far comes back at once, and the session goes on.
func TestServeViewerInterrupt(t *testing.T) {
	args := append([]string{"-engine", "builtin=hivebot", "name=a", "-engine", "builtin=hivebot", "name=b",
		"-out", filepath.Join(t.TempDir(), "serve.jsonl")}, quietRace...)
	v := startViewer(t, args...)
	v.send("newgame Base+MLP")
	go func() {
		time.Sleep(500 * time.Millisecond)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	begin := time.Now()
	answer := v.send("bestmove time 00:00:30")
	took := time.Since(begin)
	if len(answer) == 0 || took > 10*time.Second {
		t.Fatalf("bestmove answered %q after %v; want a move soon after the interrupt", answer, took)
	}
	g := rules.NewGame(rules.BaseMLP)
	move := answer[len(answer)-1]
	if err := g.Play(move); err != nil {
		t.Fatalf("the interrupted search answered %q: %v", move, err)
	}
	if got := v.send("play " + move); len(got) != 1 || got[0] != g.GameString() {
		t.Errorf("play %s after the interrupt: %q, want %q", move, got, g.GameString())
	}
	if err := v.finish(); err != nil {
		t.Fatalf("serve: %v\n%s", err, v.stderr.String())
	}
}
