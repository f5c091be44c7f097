package uhpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/golden"
)

// serve runs a whole session on input and returns the output.
func serve(t *testing.T, h Handler, input string) string {
	t.Helper()
	var out bytes.Buffer
	if err := NewServer(h).Serve(t.Context(), strings.NewReader(input), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return out.String()
}

// commandLines returns the input lines that get a reply, as Mzinga counts them: not blank
// (spaces and tabs only), up to "exit", which gets none and is returned apart.
func commandLines(input string) (commands []string, exit string) {
	for line := range strings.Lines(input) {
		line = strings.TrimRight(line, "\r\n")
		word, _, _ := strings.Cut(strings.TrimLeft(line, " \t"), " ")
		word, _, _ = strings.Cut(word, "\t")
		switch {
		case word == "":
			continue
		case strings.EqualFold(word, "exit"):
			return commands, line
		}
		commands = append(commands, line)
	}
	return commands, ""
}

// transcript pairs each command with its reply: the banner first, then "> command" and the
// lines up to its "ok".
func transcript(input, output string) string {
	var b strings.Builder
	commands, exit := commandLines(input)
	for line := range strings.Lines(output) {
		b.WriteString(line)
		if line == "ok\n" && len(commands) > 0 {
			b.WriteString("> " + commands[0] + "\n")
			commands = commands[1:]
		}
	}
	for _, c := range commands {
		b.WriteString("> " + c + "\n(no reply)\n")
	}
	if exit != "" {
		b.WriteString("> " + exit + "\n")
	}
	return b.String()
}

// TestTranscripts checks whole conversations against testdata/NAME.golden: every command,
// every error path, remote play, and a handler without the optional interfaces.
func TestTranscripts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler func() Handler
	}{
		{"commands", func() Handler { return &fakeHandler{} }},
		{"errors", func() Handler { return &fakeHandler{} }},
		{"remote", func() Handler { return &fakeHandler{} }},
		{"plain", func() Handler { return plain{&fakeHandler{}} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join("testdata", tc.name+".uhp"))
			if err != nil {
				t.Fatal(err)
			}
			got := transcript(string(input), serve(t, tc.handler(), string(input)))
			golden.Check(t, filepath.Join("testdata", tc.name+".golden"), []byte(got))
		})
	}
}

// brokenInfo is a handler whose Info panics or names no expansion.
type brokenInfo struct {
	fakeHandler
	panics bool
}

func (h *brokenInfo) Info() Info {
	if h.panics {
		panic(errors.New("no id yet"))
	}
	return Info{ID: "bare"}
}

func TestBanner(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler Handler
		want    string
	}{
		{"no capabilities", &brokenInfo{}, "id bare\n\nok\n"},
		{"panic", &brokenInfo{panics: true}, "err no id yet\nok\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := serve(t, tc.handler, "validmoves\nnewgame\nvalidmoves\n")
			want := tc.want + "err No game in progress. Try 'newgame' to start a new game.\nok\n" +
				"Base;NotStarted;White[1]\nok\nwS1;wB1;wG1;wA1\nok\n"
			if got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestInputEnds: the end of the input ends Serve with nil, after answering a last line that
// lacks its line end, and without reading on.
func TestInputEnds(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{"", ""},
		{"\n\n", ""},
		{"validmoves", "err No game in progress. Try 'newgame' to start a new game.\nok\n"},
		{"newgame\r\nexit\r\n", "Base;NotStarted;White[1]\nok\n"},
		{"exit\nnewgame\n", ""},
		{"EXIT now\nnewgame\n", ""},
		{"  \t\nnewgame\n\t", "Base;NotStarted;White[1]\nok\n"},
	} {
		in := &countingReader{r: strings.NewReader(tc.input)}
		var out bytes.Buffer
		if err := NewServer(&fakeHandler{}).Serve(t.Context(), in, &out); err != nil {
			t.Errorf("%q: Serve: %v", tc.input, err)
		}
		banner := "id fake v1.2.3\nMosquito;Ladybug;Pillbug\nok\n"
		if got := out.String(); got != banner+tc.want {
			t.Errorf("%q: got\n%s", tc.input, got)
		}
		if in.reads > 3 {
			t.Errorf("%q: %d reads: Serve reads on after the end of its input", tc.input, in.reads)
		}
	}
}

type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

type failingReader struct{ err error }

func (f failingReader) Read(p []byte) (int, error) { return 0, f.err }

type failingWriter struct{ err error }

func (f failingWriter) Write(p []byte) (int, error) { return 0, f.err }

// TestBrokenStreams: a failing input or output ends Serve with that error.
func TestBrokenStreams(t *testing.T) {
	broken := errors.New("broken pipe")
	err := NewServer(&fakeHandler{}).Serve(t.Context(), failingReader{broken}, io.Discard)
	if !errors.Is(err, broken) {
		t.Errorf("failing input: Serve returned %v", err)
	}
	err = NewServer(&fakeHandler{}).Serve(t.Context(), strings.NewReader("newgame\n"), failingWriter{broken})
	if !errors.Is(err, broken) {
		t.Errorf("failing output: Serve returned %v", err)
	}
}

func TestLongLines(t *testing.T) {
	const tooLong = "err Invalid command. A command may be at most 1048576 bytes long.\nok\n"
	invalid := "err " + ErrInvalidCommand + "\nok\n"
	for _, tc := range []struct {
		name, input, want string
	}{
		{"at the limit", strings.Repeat("x", MaxLineBytes) + "\r\nnewgame\n", invalid},
		{"over the limit", strings.Repeat("x", MaxLineBytes+1) + "\nnewgame\n", tooLong},
		{"far over the limit", strings.Repeat("y", 10*MaxLineBytes) + "\nnewgame\n", tooLong},
		{"at the end", "newgame\n" + strings.Repeat("z", MaxLineBytes+1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := serve(t, &fakeHandler{}, tc.input)
			got = strings.TrimPrefix(got, "id fake v1.2.3\nMosquito;Ladybug;Pillbug\nok\n")
			newgame := "Base;NotStarted;White[1]\nok\n"
			want := tc.want + newgame
			if tc.want == "" {
				want = newgame + tooLong
			}
			if got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// session runs Serve on pipes, for tests that talk to it while a command runs.
type session struct {
	server  *Server
	in      *io.PipeWriter
	out     *bufio.Reader
	running chan string   // what the fake handler runs until interrupted
	done    chan struct{} // closed when Serve has returned err
	err     error
}

func startSession(ctx context.Context, t *testing.T, opts ...ServerOption) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	running := make(chan string)
	s := &session{
		server:  NewServer(&fakeHandler{running: running}, opts...),
		in:      inW,
		out:     bufio.NewReader(outR),
		running: running,
		done:    make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		s.err = s.server.Serve(ctx, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		s.wait(t)
	})
	s.expect(t, "id fake v1.2.3", "Mosquito;Ladybug;Pillbug", "ok")
	return s
}

func (s *session) send(t *testing.T, lines string) {
	t.Helper()
	if _, err := io.WriteString(s.in, lines); err != nil {
		t.Fatal(err)
	}
}

// expect reads the next output lines.
func (s *session) expect(t *testing.T, want ...string) {
	t.Helper()
	for _, w := range want {
		line, err := s.out.ReadString('\n')
		if got := strings.TrimSuffix(line, "\n"); got != w || err != nil {
			t.Fatalf("read %q, %v; want %q", got, err, w)
		}
	}
}

// started waits for the handler to run command until interrupted.
func (s *session) started(t *testing.T, command string) {
	t.Helper()
	select {
	case got := <-s.running:
		if got != command {
			t.Fatalf("%s runs, want %s", got, command)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not start", command)
	}
}

// wait returns what Serve returned.
func (s *session) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-s.done:
		return s.err
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not end")
		return nil
	}
}

// TestInterrupt: an interrupt stops the running command, which answers; commands sent
// meanwhile run after it, in order; an interrupt between commands does nothing.
func TestInterrupt(t *testing.T) {
	signals := make(chan os.Signal, 1)
	for _, tc := range []struct {
		name      string
		opts      []ServerOption
		interrupt func(*Server)
	}{
		{"Interrupt", nil, (*Server).Interrupt},
		{"signal", []ServerOption{WithInterrupts(signals)}, func(*Server) { signals <- os.Interrupt }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startSession(t.Context(), t, tc.opts...)
			s.server.Interrupt() // nothing runs: ignored
			s.send(t, "newgame\nbestmove\nvalidmoves\nperft\nbestmove depth 2\n")
			s.expect(t, "Base;NotStarted;White[1]", "ok")
			s.started(t, "bestmove")
			tc.interrupt(s.server)
			s.expect(t, "wS1 (interrupted)", "ok", "wS1;wB1;wG1;wA1", "ok")
			s.expect(t, "perft(0) = 1") // printed while perft still runs
			s.started(t, "perft")
			tc.interrupt(s.server)
			s.expect(t, "ok", "wA1 (depth 2)", "ok")
			s.in.Close()
			if err := s.wait(t); err != nil {
				t.Fatalf("Serve: %v", err)
			}
		})
	}
}

// TestContextEnds: Serve ends with its context, whether a command runs (which answers
// first) or Serve waits for input, and reads nothing after.
func TestContextEnds(t *testing.T) {
	t.Run("during bestmove", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		s := startSession(ctx, t)
		s.send(t, "newgame\nbestmove\nvalidmoves\n")
		s.expect(t, "Base;NotStarted;White[1]", "ok")
		s.started(t, "bestmove")
		cancel()
		s.expect(t, "wS1 (interrupted)", "ok")
		if err := s.wait(t); !errors.Is(err, context.Canceled) {
			t.Fatalf("Serve returned %v, want context.Canceled", err)
		}
		if rest, _ := io.ReadAll(s.out); len(rest) > 0 {
			t.Errorf("output after the context ended: %q", rest)
		}
	})
	t.Run("waiting for input", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		s := startSession(ctx, t)
		cancel()
		if err := s.wait(t); !errors.Is(err, context.Canceled) {
			t.Fatalf("Serve returned %v, want context.Canceled", err)
		}
	})
}

func TestParseTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"00:00:01", time.Second, true},
		{"00:00:00.5", 500 * time.Millisecond, true},
		{"00:00:00.25", 250 * time.Millisecond, true},
		{"0:0:0.000000001", time.Nanosecond, true},
		{"00:00:00.0000000019", time.Nanosecond, true},
		{"01:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"100:59:59", 100*time.Hour + 59*time.Minute + 59*time.Second, true},
		{"00:00:00", 0, true},
		{"", 0, false},
		{"1", 0, false},
		{"1s", 0, false},
		{"00:01", 0, false},
		{"00:00:00:01", 0, false},
		{"00:60:00", 0, false},
		{"00:00:60", 0, false},
		{"00:000:00", 0, false},
		{"-1:00:00", 0, false},
		{"+1:00:00", 0, false},
		{"00:00:01.", 0, false},
		{"00:00:.5", 0, false},
		{"00:00:01.-5", 0, false},
		{"00:00:1e1", 0, false},
		{"00:00:NaN", 0, false},
		{"1000000:00:00", 0, false},
		{"a:b:c", 0, false},
		{" 00:00:01", 0, false},
	} {
		got, ok := ParseTime(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"00:00:01", "00:00:00.5", "999999:59:59.999999999", "1:2:3", "00:00:0x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseTime(s)
		if !ok {
			return
		}
		if d < 0 || d >= 1000000*time.Hour {
			t.Fatalf("ParseTime(%q) = %v", s, d)
		}
		// Written back without rounding, it reads the same.
		again := fmt.Sprintf("%02d:%02d:%02d.%09d", d/time.Hour, d%time.Hour/time.Minute,
			d%time.Minute/time.Second, d%time.Second)
		if d2, ok := ParseTime(again); !ok || d2 != d {
			t.Fatalf("ParseTime(%q) = %v, but ParseTime(%q) = %v, %v", s, d, again, d2, ok)
		}
	})
}

func TestOptionString(t *testing.T) {
	for _, tc := range []struct {
		o    Option
		want string
	}{
		{Option{Name: "MaxBranchingFactor", Type: "int", Value: "256", Default: "256", Extra: []string{"1", "512"}},
			"MaxBranchingFactor;int;256;256;1;512"},
		{Option{Name: "PonderDuringIdle", Type: "enum", Value: "Disabled", Default: "SingleThreaded",
			Extra: []string{"Disabled", "SingleThreaded", "MultiThreaded"}},
			"PonderDuringIdle;enum;Disabled;SingleThreaded;Disabled;SingleThreaded;MultiThreaded"},
		{Option{Name: "UseNullAspirationWindow", Type: "bool", Value: "True", Default: "True"},
			"UseNullAspirationWindow;bool;True;True"},
	} {
		if got := tc.o.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// FuzzServe: no input crashes the server or breaks the framing: the banner and every
// command line get exactly one reply ending in "ok".
func FuzzServe(f *testing.F) {
	for _, name := range []string{"commands", "errors", "remote", "plain"} {
		input, err := os.ReadFile(filepath.Join("testdata", name+".uhp"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(input))
	}
	f.Add("\x00\xff\n\r\n\v\nok\nnewgame \t Base;InProgress;White[2];wS1\nplay ok\n?\tplay")
	f.Add("undo 99999999999999999999\nperft 99999999999999999999\nbestmove time 99:99:99\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		if err := NewServer(&fakeHandler{}).Serve(t.Context(), strings.NewReader(input), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		oks := 0
		for line := range strings.Lines(out.String()) {
			if line == "ok\n" {
				oks++
			}
		}
		commands, _ := commandLines(input)
		if want := 1 + len(commands); oks != want || !strings.HasSuffix(out.String(), "ok\n") {
			t.Fatalf("%d replies ending in ok, want %d:\n%s", oks, want, out.String())
		}
	})
}
