package uhpengine

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fakeHandler is a scripted engine: enough game to exercise every path of the protocol.
type fakeHandler struct {
	moves  []string
	hash   string
	search chan struct{} // closed when a bestmove starts waiting for its context
}

func (h *fakeHandler) Info() Info {
	return Info{ID: "fake v1.2.3", Capabilities: []string{"Mosquito", "Ladybug", "Pillbug"}}
}

func (h *fakeHandler) gameString() string {
	return strings.Join(append([]string{"Base", "InProgress", fmt.Sprintf("White[%d]", 1+len(h.moves)/2)}, h.moves...), ";")
}

func (h *fakeHandler) NewGame(ctx context.Context, arg string) (string, error) {
	switch {
	case arg == "" || arg == "Base":
		h.moves = nil
		return "Base;NotStarted;White[1]", nil
	case arg == "boom":
		panic("handler exploded")
	}
	return "", &Error{Message: fmt.Sprintf("Unable to parse '%s' in GameString. (Parameter 'gameStr')", arg)}
}

func (h *fakeHandler) Play(ctx context.Context, move string) (string, error) {
	if move == "wQ" {
		return "", &InvalidMoveError{Message: "You can't play your Queen Bee on your first turn."}
	}
	h.moves = append(h.moves, move)
	return h.gameString(), nil
}

func (h *fakeHandler) ValidMoves(ctx context.Context) (string, error) { return "wS1;wB1;wG1;wA1", nil }

func (h *fakeHandler) BestMove(ctx context.Context, l Limit) (string, error) {
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("wA1 (depth %d)", l.Depth), nil
	case l.Time > 0:
		return fmt.Sprintf("wG1 (time %v)", l.Time), nil
	}
	if h.search != nil {
		close(h.search)
	}
	<-ctx.Done()
	return "wS1 (interrupted)", nil
}

func (h *fakeHandler) Undo(ctx context.Context, n int) (string, error) {
	if n < 1 || n > len(h.moves) {
		return "", &Error{Message: fmt.Sprintf("Unable to undo %d moves.", n)}
	}
	h.moves = h.moves[:len(h.moves)-n]
	return h.gameString(), nil
}

func (h *fakeHandler) Options() []Option {
	return []Option{{Name: "Hash", Type: "int", Value: h.hashValue(), Default: "16", Extra: []string{"1", "1024"}}}
}

func (h *fakeHandler) hashValue() string {
	if h.hash == "" {
		return "16"
	}
	return h.hash
}

func (h *fakeHandler) GetOption(name string) (Option, error) {
	if name != "Hash" {
		return Option{}, &Error{Message: fmt.Sprintf("The option \"%s\" is not valid.", name)}
	}
	return h.Options()[0], nil
}

func (h *fakeHandler) SetOption(name, value string) (Option, error) {
	if _, err := h.GetOption(name); err != nil {
		return Option{}, err
	}
	h.hash = value
	return h.Options()[0], nil
}

func (h *fakeHandler) Perft(ctx context.Context, depth int, line func(string)) error {
	for d := 0; d <= depth; d++ {
		line(fmt.Sprintf("perft(%d) = %d", d, 1<<d))
	}
	return nil
}

// transcript runs a session and returns input and output interleaved reply by reply.
func transcript(t *testing.T, input string) string {
	t.Helper()
	var out strings.Builder
	if err := NewServer(&fakeHandler{}).Serve(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestGoldenSessions(t *testing.T) {
	sessions := map[string]string{
		"commands": "info\nnewgame\nplay wS1\nPLAY   bS1   wS1-\npass\nvalidmoves\nbestmove depth 3\nbestmove time 00:00:01.5\n" +
			"undo\nundo 2\noptions\noptions get Hash\noptions set Hash 64\nperft 2\nhelp\nhelp bestmove\n\n   \nexit\nnever read\n",
		"errors": "frobnicate\nnewgame Base+X\nnewgame boom\nplay\nplay wQ\npass now\nvalidmoves x\nbestmove depth\nbestmove depth 0\n" +
			"bestmove time 1s\nbestmove time 00:61:00\nbestmove nodes 5\nundo x\nundo 9\nundo 1 2\noptions get Nope\noptions set Hash\n" +
			"options frob\nhelp nope\nperft x\ninfo extra\n",
	}
	for name, input := range sessions {
		t.Run(name, func(t *testing.T) {
			got := transcript(t, input)
			path := filepath.Join("testdata", name+".golden")
			if *update {
				os.WriteFile(path, []byte(got), 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n%s", path, got)
			}
		})
	}
}

// TestEveryReplyEndsWithOK checks the framing: one "ok" per command, plus the banner's.
func TestEveryReplyEndsWithOK(t *testing.T) {
	input := "info\nnewgame\nfoo\nplay wQ\nbestmove depth 2\n\nundo 5\n"
	got := transcript(t, input)
	if n := strings.Count(got, "ok\n"); n != 7 {
		t.Errorf("%d ok lines, want 7 (banner + 6 commands):\n%s", n, got)
	}
}

func TestBestMoveInterrupted(t *testing.T) {
	h := &fakeHandler{search: make(chan struct{})}
	s := NewServer(h)
	pr, pw := io.Pipe()
	var out strings.Builder
	done := make(chan error)
	go func() { done <- s.Serve(context.Background(), pr, &out) }()
	pw.Write([]byte("bestmove\n"))
	<-h.search
	s.Interrupt()
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "wS1 (interrupted)\nok\n") {
		t.Errorf("output %q", out.String())
	}
}

func TestServeEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	h := &fakeHandler{search: make(chan struct{})}
	pr, pw := io.Pipe()
	defer pw.Close()
	var out strings.Builder
	done := make(chan error)
	go func() { done <- NewServer(h).Serve(ctx, pr, &out) }()
	pw.Write([]byte("bestmove\n"))
	<-h.search
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve did not end with its context")
	}
}

func TestOverLongLine(t *testing.T) {
	got := transcript(t, strings.Repeat("x", MaxLineBytes+10)+"\ninfo\n")
	if !strings.Contains(got, "err Line too long.\nok\nid fake v1.2.3") {
		t.Errorf("output %q", got[:min(len(got), 300)])
	}
}

func TestParseTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"00:00:01", time.Second, true},
		{"00:00:00.25", 250 * time.Millisecond, true},
		{"01:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"1s", 0, false}, {"00:60:00", 0, false}, {"00:00:60", 0, false}, {"-1:00:00", 0, false}, {"a:b:c", 0, false},
	} {
		got, ok := ParseTime(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("ParseTime(%q) = %v, %v", tc.in, got, ok)
		}
	}
}

func FuzzServe(f *testing.F) {
	for _, s := range []string{"info\n", "newgame\nplay wS1\nundo\n", "bestmove depth 2\n", "options set Hash 1\n", "\x00\n\r\n", "play wQ\nnewgame boom\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		if strings.Contains(input, "bestmove") && !strings.Contains(input, "depth") && !strings.Contains(input, "time") {
			return // a bare bestmove waits for an interrupt
		}
		var out strings.Builder
		if err := NewServer(&fakeHandler{}).Serve(context.Background(), strings.NewReader(input), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(out.String(), "ok\n") {
			t.Fatalf("output does not end with ok: %q", out.String())
		}
	})
}
