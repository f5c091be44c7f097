package hivebot

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/enginekit/ugiserver"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/rules"
)

// ugiSession is hivebot run by Main on pipes, spoken to in UGI.
type ugiSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	exit  chan int
	log   strings.Builder
}

func newUGISession(t *testing.T, args ...string) *ugiSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &ugiSession{t: t, in: inW, lines: make(chan string, 100), exit: make(chan int, 1)}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		code := Main(ctx, args, inR, outW, io.Discard)
		outW.Close()
		s.exit <- code
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		for range s.lines {
		}
	})
	return s
}

func (s *ugiSession) send(line string) {
	s.t.Helper()
	s.log.WriteString("> " + line + "\n")
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("sending %q: %v", line, err)
	}
}

// until reads lines up to and including the first that starts with prefix.
func (s *ugiSession) until(prefix string, within time.Duration) []string {
	s.t.Helper()
	var got []string
	timeout := time.After(within)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended while waiting for %q; got %q", prefix, got)
			}
			s.log.WriteString(line + "\n")
			got = append(got, line)
			if strings.HasPrefix(line, prefix) {
				return got
			}
		case <-timeout:
			s.t.Fatalf("no %q within %v; got %q", prefix, within, got)
		}
	}
}

// measured hides what depends on the machine in the info lines of a session log.
var measured = regexp.MustCompile(`time \d+ nps \d+`)

// gameEnds are finished games from hivebot's UHP tests: the moves are tokens, as a fen.
var gameEnds = map[string]string{
	"white wins":                   `Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1`,
	"black wins":                   `Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\;bA1 bQ\;wA2 \wQ;bA2 \bG1;wG2 wQ/;bG1 wG2\`,
	"both queens surrounded":       `Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bG1 wA1/;wQ -bQ;bA1 \wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2`,
	"white must pass":              `Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \wA1;bA1 bS1\;wQ -wA1;bA2 bQ\;wQ \wA1;bA1 \wQ;wG1 /wQ;bA2 /wG1`,
	"self-referencing and lenient": `Base;InProgress;White[3];WS1;bs1 -ws1;wQ wS1-;bQ /bS1`,
}

func fen(gameString string) string { return "fen " + ugiserver.EncodeMove(gameString) }

// TestUGISession is a golden transcript of hivebot's UGI answers: the handshake (after the UHP
// banner that UGI clients skip), the queries on a table of positions, refused positions
// (which leave the position as it was), a depth-1 search and a forced pass.
func TestUGISession(t *testing.T) {
	s := newUGISession(t, "-profile", "strong")
	s.send("ugi")
	s.until("ugiok", 5*time.Second)
	s.send("isready")
	s.until("readyok", time.Second)
	s.send("uginewgame")
	for _, pos := range []struct{ name, position string }{
		{"start", "startpos"},
		{"after wS1", "startpos moves wS1"},
		{"white wins", fen(gameEnds["white wins"])},
		{"black wins", fen(gameEnds["black wins"])},
		{"both queens surrounded", fen(gameEnds["both queens surrounded"])},
		{"the GameTypeString alone", "fen Base+MLP"},
		{"a moving piece as its own reference", "startpos moves wS1 bS1_wS1- wQ_-wS1 bQ_bS1/ wQ_wQ/"},
		{"non-canonical spellings", fen(gameEnds["self-referencing and lenient"])},
	} {
		s.log.WriteString("# " + pos.name + "\n")
		s.send("position " + pos.position)
		for _, q := range []string{"p1turn", "gameover", "result"} {
			s.send("query " + q)
			s.until("response", time.Second)
		}
	}
	s.log.WriteString("# refused: the position stays after wS1 bS1_wS1-\n")
	s.send("position startpos moves wS1 bS1_wS1-")
	for _, bad := range []string{"startpos moves wQ", "startpos moves wS1 bS1_wS1_-", "fen Base+X", "startpos moves wS1 bS1_wS1- wS2", "middle"} {
		s.send("position " + bad)
		s.until("info error", time.Second)
	}
	s.send("query p1turn")
	s.until("response", time.Second)
	s.send("go depth 1")
	s.until("bestmove", 5*time.Second)
	s.log.WriteString("# a forced pass\n")
	s.send("position " + fen(gameEnds["white must pass"]))
	s.send("go depth 3")
	s.until("bestmove", 5*time.Second)
	s.send("position " + fen(gameEnds["white wins"]))
	s.send("go depth 1")
	s.until("bestmove", time.Second)
	s.send("query q")
	s.until("info error", time.Second)
	s.send("xyzzy")
	s.until("info error", time.Second)
	s.send("quit")
	select {
	case code := <-s.exit:
		if code != 0 {
			t.Errorf("exit status %d", code)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("quit did not end hivebot")
	}
	golden.Check(t, "testdata/ugi.golden", []byte(measured.ReplaceAllString(s.log.String(), "time T nps N")))
}

// ugiBestMove reads a search's answer and checks it is one legal move of g, after a final info
// line with nodes, time and nps. It returns the info line's numbers.
func ugiBestMove(t *testing.T, lines []string, g *rules.Game) map[string]int64 {
	t.Helper()
	if len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-2], "info depth ") {
		t.Fatalf("no final info line before bestmove: %q", lines)
	}
	f := strings.Fields(lines[len(lines)-2])
	numbers := map[string]int64{}
	for i := 1; i+1 < len(f); i++ {
		if n, err := strconv.ParseInt(f[i+1], 10, 64); err == nil {
			numbers[f[i]] = n
		}
	}
	for _, k := range []string{"nodes", "time", "nps"} {
		if _, ok := numbers[k]; !ok {
			t.Errorf("info line %q has no %s", lines[len(lines)-2], k)
		}
	}
	words := strings.Fields(lines[len(lines)-1])
	if len(words) != 2 {
		t.Fatalf("bestmove line %q", lines[len(lines)-1])
	}
	move, err := ugiserver.DecodeMove(words[1])
	if err == nil {
		err = g.Clone().Play(move)
	}
	if err != nil {
		t.Errorf("bestmove %q: %v", words[1], err)
	}
	return numbers
}

// TestUGISearchLimits: each go form keeps to its limit.
func TestUGISearchLimits(t *testing.T) {
	const margin = 250 * time.Millisecond
	s := newUGISession(t)
	s.send("ugi")
	s.until("ugiok", 5*time.Second)
	start := rules.NewGame(rules.Base)
	afterWS1 := rules.NewGame(rules.Base)
	afterWS1.Play("wS1")

	t.Run("movetime", func(t *testing.T) {
		s.send("position startpos")
		began := time.Now()
		s.send("go movetime 100")
		ugiBestMove(t, s.until("bestmove", 2*time.Second), start)
		if took := time.Since(began); took > 100*time.Millisecond+margin {
			t.Errorf("go movetime 100 took %v", took)
		}
	})
	t.Run("nodes", func(t *testing.T) {
		s.send("position startpos moves wS1")
		s.send("go nodes 1000")
		n := ugiBestMove(t, s.until("bestmove", 5*time.Second), afterWS1)
		if n["nodes"] > 1000+2*256 { // the search looks at its budget every 256 nodes
			t.Errorf("go nodes 1000 searched %d nodes", n["nodes"])
		}
	})
	t.Run("depth", func(t *testing.T) {
		s.send("position startpos moves wS1")
		s.send("go depth 2")
		if n := ugiBestMove(t, s.until("bestmove", 5*time.Second), afterWS1); n["depth"] != 2 {
			t.Errorf("go depth 2 reached depth %d", n["depth"])
		}
	})
	// The side to move's own clock sets the budget: little time for it, plenty for the other.
	for _, c := range []struct {
		name, position, clock string
		g                     *rules.Game
	}{
		{"white's clock", "startpos", "p1time 1000 p2time 600000 p1inc 0 p2inc 0", start},
		{"black's clock", "startpos moves wS1", "p1time 600000 p2time 1000 p1inc 0 p2inc 0", afterWS1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s.send("position " + c.position)
			began := time.Now()
			s.send("go " + c.clock)
			ugiBestMove(t, s.until("bestmove", 5*time.Second), c.g)
			if took := time.Since(began); took > 500*time.Millisecond {
				t.Errorf("go %s took %v", c.clock, took)
			}
		})
	}
	t.Run("infinite", func(t *testing.T) {
		s.send("position startpos moves wS1")
		s.send("go infinite")
		time.Sleep(150 * time.Millisecond)
		began := time.Now()
		s.send("isready")
		if got := s.until("readyok", time.Second); len(got) != 1 {
			t.Errorf("before readyok: %q", got)
		}
		if took := time.Since(began); took > 100*time.Millisecond {
			t.Errorf("readyok during a search took %v", took)
		}
		s.send("stop")
		ugiBestMove(t, s.until("bestmove", time.Second), afterWS1)
		s.send("stop")
		s.send("isready")
		if got := s.until("readyok", time.Second); len(got) != 1 {
			t.Errorf("a second bestmove, or more: %q", got)
		}
	})
	t.Run("quit mid-search", func(t *testing.T) {
		s.send("go infinite")
		time.Sleep(50 * time.Millisecond)
		began := time.Now()
		s.send("quit")
		select {
		case <-s.exit:
		case <-time.After(time.Second):
			t.Fatal("quit did not end hivebot")
		}
		if took := time.Since(began); took > 300*time.Millisecond {
			t.Errorf("quit took %v", took)
		}
	})
}

// TestUGIDispatch: any first command but "ugi" is UHP.
func TestUGIDispatch(t *testing.T) {
	for first, want := range map[string]string{"ugi": "ugiok", "\n\nugi\r": "ugiok", "info": "ok", "newgame": "Base;NotStarted;White[1]"} {
		var out strings.Builder
		Main(t.Context(), nil, strings.NewReader(first+"\n"), &out, io.Discard)
		if !strings.Contains(out.String(), want) {
			t.Errorf("%q: got %q, want %q in it", first, out.String(), want)
		}
	}
}
