package ugi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/proto/ugi"
	"hivearbiter/results"
	"hivearbiter/ugiclient"
)

const grace = 300 * time.Millisecond

// start starts a fake engine with a scenario as a player of protocol "ugi", its sent lines
// logged to log (if not "").
func start(t *testing.T, scenario, log string) driver.Player {
	t.Helper()
	e := driver.EngineConfig{Name: scenario, Protocol: ugi.Name, Command: []string{os.Args[0]},
		Env: []string{fakeEnv + "=" + scenario, fakeLog + "=" + log}}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	p, err := driver.Start(ctx, e, driver.StartEnv{Grace: grace})
	if err != nil {
		t.Fatalf("starting %s: %v", scenario, err)
	}
	t.Cleanup(func() { p.Close(context.WithoutCancel(t.Context())) })
	return p
}

func side(name string, p driver.Player, tc string) arbiter.Side {
	t, err := driver.ParseTimeControl(tc)
	if err != nil {
		panic(err)
	}
	return arbiter.Side{Name: name, Player: p, Time: t, Margin: 100 * time.Millisecond}
}

func play(t *testing.T, opening string, maxPlies int, white, black arbiter.Side) *results.Record {
	t.Helper()
	rec, err := arbiter.PlayGame(t.Context(), arbiter.GameConfig{Opening: opening, CommandTimeout: 2 * time.Second,
		DepthTimeout: 2 * time.Second, Adjudication: arbiter.Adjudication{MaxPlies: maxPlies}}, white, black)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestTranscript checks the exact lines the arbiter sends UGI engines over two short games,
// one of Base (startpos) and one of Base+MLP from an opening (fen), under every kind of limit.
func TestTranscript(t *testing.T) {
	dir := t.TempDir()
	var got strings.Builder
	for _, game := range []struct {
		opening    string
		white      string // time controls
		black      string
		whiteLimit string
	}{
		{"Base", "st=0.5", "depth=3", ""},
		{"Base+MLP;InProgress;White[2];wS1;bG1 -wS1", "nodes=2000", "tc=60+0.25", ""},
	} {
		wlog, blog := filepath.Join(dir, "white.log"), filepath.Join(dir, "black.log")
		os.Remove(wlog)
		os.Remove(blog)
		white, black := start(t, "first", wlog), start(t, "first", blog)
		rec := play(t, game.opening, 6, side("white", white, game.white), side("black", black, game.black))
		if rec.Reason != results.ReasonMoveLimit {
			t.Errorf("%s: %s %s: %s", game.opening, rec.Result, rec.Reason, rec.Detail)
		}
		if len(rec.Warnings) > 0 {
			t.Errorf("warnings: %q", rec.Warnings)
		}
		for i, m := range rec.Moves {
			if m.Info == nil || m.Info.Depth != 1 || m.Info.Nodes != 10 || len(m.Info.PV) != 1 || m.Info.PV[0] != m.Move {
				t.Errorf("move %d %s: info %+v", i, m.Move, m.Info)
			}
		}
		white.Close(t.Context())
		black.Close(t.Context())
		for _, l := range []struct{ who, path string }{{"White " + game.white, wlog}, {"Black " + game.black, blog}} {
			b, err := os.ReadFile(l.path)
			if err != nil {
				t.Fatal(err)
			}
			// A clock's milliseconds depend on how long the moves took.
			text := clockDigits(string(b))
			got.WriteString("# " + game.opening + ", " + l.who + "\n" + text)
		}
	}
	golden.Check(t, "testdata/transcript.golden", []byte(got.String()))
}

// clockDigits hides the clock readings of "go p1time" lines: the initial 60000 and the
// increments stay, the rest depends on the machine.
func clockDigits(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 9 && f[1] == "p1time" {
			for _, j := range []int{2, 4} {
				if f[j] != "60000" {
					f[j] = "T"
				}
			}
			lines[i] = strings.Join(f, " ")
		}
	}
	return strings.Join(lines, "\n")
}

// TestFaults plays a misbehaving engine as White against a sound one: each fault ends the
// game against it, with the reason, in bounded time.
func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		opening  string
		reason   results.Reason
		detail   string
	}{
		{"crash", "Base", results.ReasonCrash, "out of cheese"},
		{"hang", "Base", results.ReasonTimeForfeit, "loses on time"},
		{"three-token", "Base", results.ReasonProtocol, "3 words"},
		{"bare", "Base", results.ReasonProtocol, "without a move"},
		{"null", "Base", results.ReasonIllegalMove, `"0000"`},
		{"illegal", "Base", results.ReasonIllegalMove, "Queen Bee on your first turn"},
		{"garbage", "Base", results.ReasonIllegalMove, `"~~~~"`},
		{"two-underscores", "Base", results.ReasonIllegalMove, "more than one '_'"},
		{"base-only", "Base+MLP", results.ReasonProtocol, "does not play this game (Base+MLP)"},
		{"refuse-moves", "Base", results.ReasonDesync, "I do not know that move"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			white, black := start(t, tc.scenario, ""), start(t, "first", "")
			begin := time.Now()
			rec := play(t, tc.opening, 0, side("bad", white, "st=0.3"), side("good", black, "st=0.3"))
			if took := time.Since(begin); took > 3*time.Second {
				t.Errorf("took %v", took)
			}
			if rec.Reason != tc.reason || rec.Culprit != "White" || !strings.Contains(rec.Detail, tc.detail) {
				t.Errorf("got %s %s (culprit %q): %s\nwant %s with %q", rec.Result, rec.Reason, rec.Culprit, rec.Detail, tc.reason, tc.detail)
			}
		})
	}
}

// TestNoUGIOK: an engine that never finishes its handshake fails to start within the start
// timeout, and is killed.
func TestNoUGIOK(t *testing.T) {
	e := driver.EngineConfig{Name: "mute", Protocol: ugi.Name, Command: []string{os.Args[0]}, Env: []string{fakeEnv + "=no-ugiok"}}
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := driver.Start(ctx, e, driver.StartEnv{Grace: grace})
	if err == nil || !strings.Contains(err.Error(), `no "ugiok"`) {
		t.Fatalf("got %v, want no ugiok", err)
	}
	if took := time.Since(begin); took > 2*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestFalseClaim: an engine that claims a result the rules do not give is noted, and the
// game's result stands.
func TestFalseClaim(t *testing.T) {
	white, black := start(t, "claims", ""), start(t, "first", "")
	rec := play(t, "Base", 4, side("claimer", white, "depth=1"), side("good", black, "depth=1"))
	if rec.Reason != results.ReasonMoveLimit || len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0].Text, "false claim: says the game is BlackWins, but by the rules it is InProgress") {
		t.Errorf("got %s %s, warnings %q", rec.Result, rec.Reason, rec.Warnings)
	}
}

// TestInterrupt: Interrupt sends stop, and the engine's answer is the move.
func TestInterrupt(t *testing.T) {
	p := start(t, "stop-late", "")
	if _, err := p.NewGame(t.Context(), "Base"); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		p.(driver.Interrupter).Interrupt()
	}()
	move, err := p.BestMove(t.Context(), driver.SearchLimit{Time: time.Hour})
	if err != nil || move != "wA1" {
		t.Fatalf("got %q, %v", move, err)
	}
	if info := p.(driver.SearchReporter).TakeSearchInfo(); info == nil || info.Depth != 1 {
		t.Errorf("info %+v", info)
	}
}

func TestGoCommand(t *testing.T) {
	clock := func(w, b, wi, bi time.Duration, plies int) *driver.ClockState {
		return &driver.ClockState{Remaining: [2]time.Duration{w, b}, Increment: [2]time.Duration{wi, bi}, Plies: plies}
	}
	for _, tc := range []struct {
		limit driver.SearchLimit
		want  string
	}{
		{driver.SearchLimit{Depth: 3}, "go depth 3"},
		{driver.SearchLimit{Nodes: 5000}, "go nodes 5000"},
		{driver.SearchLimit{Time: 1500 * time.Millisecond}, "go movetime 1500"},
		{driver.SearchLimit{Time: 300 * time.Microsecond}, "go movetime 1"},
		{driver.SearchLimit{Time: time.Second, Clock: clock(60*time.Second, 59500*time.Millisecond, 250*time.Millisecond, 0, 4)},
			"go p1time 60000 p2time 59500 p1inc 250 p2inc 0"},
		{driver.SearchLimit{Time: time.Second, Clock: clock(10*time.Second, 400*time.Microsecond, 0, 100*time.Millisecond, 7)},
			"go p1time 10000 p2time 1 p1inc 0 p2inc 100"},
		// Black plays on a fixed move time against White's clock.
		{driver.SearchLimit{Time: 2 * time.Second, Clock: clock(30*time.Second, 0, 0, 0, 3)}, "go movetime 2000"},
		// White's clock against an opponent without one.
		{driver.SearchLimit{Time: 2 * time.Second, Clock: clock(30*time.Second, 0, time.Second, 0, 2)}, "go p1time 30000 p2time 30000 p1inc 1000 p2inc 0"},
	} {
		if got := ugi.GoCommand(tc.limit); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.limit, got, tc.want)
		}
	}
}

func TestPositionCommand(t *testing.T) {
	for _, tc := range []struct{ gameString, want string }{
		{"Base", "position startpos"},
		{"Base+MLP", "position fen Base+MLP"},
		{"Base;InProgress;White[2];wS1;bS1 wS1-", "position startpos moves wS1 bS1_wS1-"},
		// The arbiter's own spelling: canonical reference pieces and case.
		{"Base+M;InProgress;Black[2];WS1;BS1 -ws1;wq ws1-", `position fen Base+M moves wS1 bS1_-wS1 wQ_wS1-`},
	} {
		pos, err := ugiclient.NewPosition(tc.gameString)
		if err != nil {
			t.Fatal(err)
		}
		if got := pos.Command(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.gameString, got, tc.want)
		}
	}
}
