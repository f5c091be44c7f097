//go:build unix

package hivebot

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"hivearbiter/rules"
)

// TestMainStopsOnSIGINT: Ctrl-C during a bestmove without limits makes Main's engine answer
// with a legal move and go on serving, rather than exit.
func TestMainStopsOnSIGINT(t *testing.T) {
	s := startSession(t, "-hash", "4")
	defer s.close(t)
	s.send(t, "newgame "+midgame)
	if _, err := io.WriteString(s.in, "bestmove\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the search is running (Main's handler is registered since the banner)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	reply := s.reply(t)
	g, _ := rules.ParseGameString(midgame)
	if len(reply) != 1 || g.Play(reply[0]) != nil {
		t.Fatalf("interrupted bestmove answered %q, want one legal move", reply)
	}
	if got := s.send(t, "validmoves"); len(got) != 1 {
		t.Fatalf("after the interrupt: validmoves answered %q", got)
	}
}
