package gamestring_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/proto/gamestring"
	"hivearbiter/results"
	"hivearbiter/rules"
)

func start(t *testing.T, e driver.EngineConfig) driver.Player {
	t.Helper()
	e.Protocol = gamestring.Name
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	p, err := driver.Start(ctx, e, driver.StartEnv{Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("starting %s: %v", e.Name, err)
	}
	t.Cleanup(func() { p.Close(context.WithoutCancel(t.Context())) })
	return p
}

func program(scenario, log string) driver.EngineConfig {
	return driver.EngineConfig{Name: scenario, Command: []string{os.Args[0]}, Env: []string{fakeEnv + "=" + scenario, fakeLog + "=" + log}}
}

func side(name string, p driver.Player) arbiter.Side {
	return arbiter.Side{Name: name, Player: p, Time: driver.TimeControl{MoveTime: 300 * time.Millisecond}, Margin: 100 * time.Millisecond}
}

func play(t *testing.T, opening string, maxPlies int, white, black arbiter.Side) *results.Record {
	t.Helper()
	rec, err := arbiter.PlayGame(t.Context(), arbiter.GameConfig{Opening: opening, CommandTimeout: 2 * time.Second,
		Adjudication: arbiter.Adjudication{MaxPlies: maxPlies}}, white, black)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestTranscript checks the exact lines two bots are sent over two games, each adjudicated
// after a few plies: one from the empty board, one from an opening with Black to move.
func TestTranscript(t *testing.T) {
	dir := t.TempDir()
	wlog, blog := filepath.Join(dir, "white.log"), filepath.Join(dir, "black.log")
	white, black := start(t, program("first", wlog)), start(t, program("first", blog))
	rec := play(t, "Base+MLP", 6, side("white", white), side("black", black))
	if rec.Reason != results.ReasonMoveLimit {
		t.Errorf("%s %s: %s", rec.Result, rec.Reason, rec.Detail)
	}
	rec = play(t, "Base;InProgress;Black[1];wS1", 5, side("white", white), side("black", black))
	if rec.Reason != results.ReasonMoveLimit || len(rec.Warnings) > 0 {
		t.Errorf("%s %s: %s %q", rec.Result, rec.Reason, rec.Detail, rec.Warnings)
	}
	white.Close(t.Context())
	black.Close(t.Context())
	var got strings.Builder
	for _, l := range []struct{ who, path string }{{"White", wlog}, {"Black", blog}} {
		b, err := os.ReadFile(l.path)
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString("# " + l.who + "\n" + string(b))
	}
	golden.Check(t, "testdata/transcript.golden", []byte(got.String()))
}

// TestTCP plays a bot reached over TCP (the arbiter connects to it) against one on standard
// input and output.
func TestTCP(t *testing.T) {
	remote := start(t, driver.EngineConfig{Name: "remote", Addr: listen(t, "random")})
	local := start(t, program("random", ""))
	for _, pair := range [][2]arbiter.Side{{side("remote", remote), side("local", local)}, {side("local", local), side("remote", remote)}} {
		rec := play(t, "Base+MLP", 60, pair[0], pair[1])
		if rec.Reason.IsFault() {
			t.Errorf("%s %s: %s", rec.Result, rec.Reason, rec.Detail)
		}
	}
}

// listen serves a bot of scenario on every connection to a TCP listener, until the test ends,
// and returns the listener's address.
func listen(t *testing.T, scenario string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer conn.Close()
				bot(conn, conn, scenario, nil)
			})
		}
	})
	return ln.Addr().String()
}

// TestFaults: a bot that misbehaves loses in bounded time, with the reason, and is told why
// its move was refused.
func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		reason   results.Reason
		detail   string
		told     string // a line the bot was sent
	}{
		{"illegal", results.ReasonIllegalMove, "Queen Bee on your first turn", "err wQ: You can't play your Queen Bee on your first turn."},
		{"garbage", results.ReasonIllegalMove, "is not a MoveString", `err "please make a move for me" is not a MoveString`},
		{"silent", results.ReasonTimeForfeit, "loses on time", ""},
		{"crash", results.ReasonCrash, "giving up", ""},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "bot.log")
			bad, good := start(t, program(tc.scenario, log)), start(t, program("first", ""))
			begin := time.Now()
			rec := play(t, "Base", 0, side("bad", bad), side("good", good))
			if took := time.Since(begin); took > 3*time.Second {
				t.Errorf("took %v", took)
			}
			if rec.Reason != tc.reason || rec.Culprit != "White" || !strings.Contains(rec.Detail, tc.detail) {
				t.Errorf("got %s %s (culprit %q): %s", rec.Result, rec.Reason, rec.Culprit, rec.Detail)
			}
			bad.Close(t.Context())
			b, _ := os.ReadFile(log)
			if !strings.Contains(string(b), tc.told) {
				t.Errorf("the bot was sent %q, without %q", b, tc.told)
			}
		})
	}
}

// TestNoGreeting: a player that does not say its name first fails to start, in bounded time.
func TestNoGreeting(t *testing.T) {
	e := program("mute", "")
	e.Protocol = gamestring.Name
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := driver.Start(ctx, e, driver.StartEnv{Grace: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "prints its name first") {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(begin); took > 2*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestValidate: every setting of a one-engine player that cannot work is refused before a game,
// an unknown one by driver.Validate, the rest by the protocol.
func TestValidate(t *testing.T) {
	for _, bad := range []driver.EngineConfig{
		{},
		{Command: []string{"bot"}, Addr: "localhost:1"},
		{Command: []string{"bot"}, Settings: map[string]string{"fractional": "true"}},
		{Command: []string{"bot"}, Settings: map[string]string{"validmoves": "yes please"}},
		{Command: []string{"bot"}, Time: driver.TimeControl{Depth: 3}},
		{Command: []string{"bot"}, Options: []driver.EngineOption{{Name: "x", Value: "y"}}},
	} {
		bad.Protocol = "gamestring"
		if err := driver.Validate(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"wS1", "bS1 wS1-", "  wQ   \\wS1 ", "pass", "", "a b c", "x;y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		move, err := gamestring.ParseAnswer(line)
		if err != nil {
			return
		}
		if move == "" || strings.Count(move, " ") > 1 || strings.ContainsAny(move, ";\t\n") || move != strings.TrimSpace(move) {
			t.Errorf("%q: got %q", line, move)
		}
	})
}

// TestValidMoves: with validmoves=true a bot that keeps no rules is sent the legal moves just
// before each GameString that asks it to move.
func TestValidMoves(t *testing.T) {
	log := filepath.Join(t.TempDir(), "bot.log")
	e := program("listed", log)
	e.Settings = map[string]string{gamestring.SettingValidMoves: "true"}
	bot, other := start(t, e), start(t, program("first", ""))
	rec := play(t, "Base", 4, side("bot", bot), side("other", other))
	if rec.Reason != results.ReasonMoveLimit {
		t.Fatalf("%s %s: %s", rec.Result, rec.Reason, rec.Detail)
	}
	bot.Close(t.Context())
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	want := "validmoves " + strings.Join(rules.NewGame(rules.Base).ValidMoveStrings(), ";")
	if len(lines) < 3 || lines[0] != "newgame White Base;NotStarted;White[1]" || lines[1] != want || lines[2] != "Base;NotStarted;White[1]" {
		t.Errorf("the bot was sent:\n%s", b)
	}
	if n := strings.Count(string(b), "\nvalidmoves "); n != 2 {
		t.Errorf("%d validmoves lines, want 2 (one per prompt: White moves twice in four plies):\n%s", n, b)
	}
}
