//go:build unix

package uhp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

func start(t *testing.T, e arbiter.EngineConfig, env arbiter.StartEnv) *Player {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	p, err := Protocol{}.Start(ctx, e, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p.(*Player)
}

// A sub-second budget is no reason to refuse an engine that reads whole seconds: it is sent
// rounded up, stopped at the budget, and warned of once.
func TestSubSecondBudgetForAWholeSecondEngine(t *testing.T) {
	e := fakeConfig("honour-int")
	if err := (Protocol{}).Check(e); err != nil {
		t.Fatalf("st=0.3 without fractional refused: %v", err)
	}
	p := start(t, e, arbiter.StartEnv{Grace: time.Second})
	var warnings []arbiter.Warning
	for range 2 {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond+arbiter.DefaultMargin)
		begin := time.Now()
		move, err := p.BestMove(ctx, arbiter.Limit{Time: 300 * time.Millisecond})
		took := time.Since(begin)
		cancel()
		if err != nil || move != "wS1" {
			t.Fatalf("got %q, %v", move, err)
		}
		if took > 300*time.Millisecond+arbiter.DefaultMargin {
			t.Errorf("took %v: over the budget and margin", took)
		}
		warnings = append(warnings, p.Warnings()...)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Text, "rounded up to 1 s") || !strings.Contains(warnings[0].Text, "fractional=true") {
		t.Errorf("warnings %q; want one that says the budget was rounded", warnings)
	}
}

func TestCheckSuggestsTheSettingMeant(t *testing.T) {
	e := fakeConfig("normal")
	e.Settings = map[string]string{"fractinal": "true"}
	if err := (Protocol{}).Check(e); err == nil || !strings.Contains(err.Error(), "did you mean fractional?") {
		t.Errorf("got %v", err)
	}
}

// A start-up failure names the setting that helps.
func TestStartErrorsNameTheSetting(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    func() arbiter.EngineConfig
		want string
	}{
		{"missing program", func() arbiter.EngineConfig {
			e := fakeConfig("normal")
			e.Command = []string{"./nope"}
			return e
		}, `"./nope" does not exist: give cmd=`},
		{"slow start", func() arbiter.EngineConfig { return fakeConfig("slow-start") }, "start_timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
			defer cancel()
			_, err := Protocol{}.Start(ctx, tc.e(), arbiter.StartEnv{Grace: 100 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want it to say %s", err, tc.want)
			}
		})
	}
}

// Each game is marked in the engine's transcript, and its record names the transcript.
func TestGamesAreMarkedInTheTranscript(t *testing.T) {
	dir := t.TempDir()
	white := start(t, fakeConfig("normal"), arbiter.StartEnv{TranscriptDir: dir, Worker: 1, Grace: time.Second})
	black := start(t, fakeConfig("normal"), arbiter.StartEnv{TranscriptDir: dir, Worker: 1, Grace: time.Second})
	cfg := arbiter.GameConfig{Run: "abc", Index: 7, Opening: "Base", CommandTimeout: time.Second}
	g, err := arbiter.NewGame(cfg, arbiter.Side{Name: "w", Player: white}, arbiter.Side{Name: "b", Player: black})
	if err != nil {
		t.Fatal(err)
	}
	rec := g.Record()
	for _, p := range []results.Player{rec.White, rec.Black} {
		if p.Transcript == "" || filepath.Dir(p.Transcript) != dir {
			t.Fatalf("record of %s names the transcript %q", p.Name, p.Transcript)
		}
	}
	if rec.White.Transcript == rec.Black.Transcript {
		t.Errorf("both sides name one transcript, %s", rec.White.Transcript)
	}
	white.Close(t.Context())
	data, err := os.ReadFile(rec.White.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	if want := `* game 7 begins (run abc, "game": 7 in its record): w (White) vs b (Black) from "Base" at `; !strings.Contains(string(data), want) {
		t.Errorf("the transcript lacks %q:\n%s", want, data)
	}
}

// The README's first example, tc=10+0.1, for an engine that reads whole seconds: every budget
// is under a second and cannot be sent as it is, and no move is lost on time for it.
func TestClockGameOfAWholeSecondEngine(t *testing.T) {
	tc := arbiter.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}
	side := func(name string) arbiter.Side {
		e := fakeConfig("normal")
		e.Name, e.Time = name, tc
		return arbiter.Side{Name: name, Player: start(t, e, arbiter.StartEnv{Grace: time.Second}), Time: tc, Margin: arbiter.DefaultMargin}
	}
	cfg := arbiter.GameConfig{Run: "t", Opening: "Base", CommandTimeout: 2 * time.Second, DepthTimeout: time.Minute,
		Adjudication: arbiter.Adjudication{MaxPlies: 6}}
	rec, err := arbiter.PlayGame(t.Context(), cfg, side("a"), side("b"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != results.ReasonMoveLimit {
		t.Fatalf("the game ended by %s: %s", rec.Reason, rec.Detail)
	}
	if len(rec.Warnings) != 2 || !strings.HasPrefix(rec.Warnings[0].Text, "White (a): its budget of 0.575 s") {
		t.Errorf("warnings %q; want one per engine", rec.Warnings)
	}
}

// A run can refuse a missing program before its first game, in one sentence.
func TestLocate(t *testing.T) {
	if err := arbiter.LocateEngine(fakeConfig("normal")); err != nil {
		t.Errorf("the test binary: %v", err)
	}
	e := fakeConfig("normal")
	e.Command, e.Dir = []string{"./nope"}, t.TempDir()
	err := arbiter.LocateEngine(e)
	if err == nil || !strings.Contains(err.Error(), `engine "fake": the program "./nope" does not exist in `) || !strings.Contains(err.Error(), "give cmd=") {
		t.Errorf("got %v", err)
	}
}
