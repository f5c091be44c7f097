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
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
	"hivearbiter/uhpclient"
)

func start(t *testing.T, e driver.EngineConfig, env driver.StartEnv) *Player {
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

// A sub-second budget is no reason to refuse an engine that reads whole seconds. One that
// survives SIGINT is sent one second, stopped at the budget, and warned of once.
func TestSubSecondBudgetForAWholeSecondEngine(t *testing.T) {
	e := fakeConfig("whole-seconds")
	if err := (Protocol{}).Validate(e); err != nil {
		t.Fatalf("st=0.3 without fractional refused: %v", err)
	}
	p := start(t, e, driver.StartEnv{Grace: time.Second})
	if got := p.TimePolicy(); !got.WholeSeconds || !got.Interruptible {
		t.Fatalf("the probe found %+v; want whole seconds, interruptible", got)
	}
	var warnings []driver.Warning
	for range 2 {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond+arbiter.DefaultMargin)
		begin := time.Now()
		move, err := p.BestMove(ctx, driver.SearchLimit{Time: 300 * time.Millisecond})
		took := time.Since(begin)
		cancel()
		if err != nil || move != "wS1" {
			t.Fatalf("got %q, %v", move, err)
		}
		// Stopped at the budget, before the second it was sent.
		if took >= time.Second {
			t.Errorf("took %v: it was not stopped at its budget", took)
		}
		warnings = append(warnings, p.Warnings()...)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Text, "sent as 1 s") || !strings.Contains(warnings[0].Text, "stopped with SIGINT at 0.300 s") {
		t.Errorf("warnings %q; want one that says the budget was sent as 1 s and stopped", warnings)
	}
}

// An engine of whole seconds that dies of SIGINT (nokamute, Mzinga on mono, a Python engine)
// is never interrupted: a budget under a second is sent as one second, answered by the engine
// itself, and warned of once with the way out.
func TestSubSecondBudgetForAnEngineThatDiesOfSIGINT(t *testing.T) {
	var transcript strings.Builder
	dir := t.TempDir()
	p := start(t, fakeConfig("die-on-int"), driver.StartEnv{Grace: time.Second, TranscriptDir: dir})
	if got := p.TimePolicy(); !got.WholeSeconds || got.Interruptible || !strings.Contains(got.Detail, "died") {
		t.Fatalf("the probe found %+v; want whole seconds, not interruptible, because it died", got)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Second+5*time.Second)
	defer cancel()
	move, err := p.BestMove(ctx, driver.SearchLimit{Time: 300 * time.Millisecond})
	if err != nil || move != "wS1" {
		t.Fatalf("got %q, %v; want the engine's own answer after its second", move, err)
	}
	warnings := p.Warnings()
	if len(warnings) != 1 || !strings.Contains(warnings[0].Text, "is never interrupted") || !strings.Contains(warnings[0].Text, "may lose on time") {
		t.Errorf("warnings %q; want one that says it may lose on time", warnings)
	}
	p.Close(t.Context())
	data, err := os.ReadFile(filepath.Join(dir, transcriptName(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	transcript.Write(data)
	// The probe's SIGINT killed the first process; the game's search was never interrupted.
	if n := strings.Count(transcript.String(), "SIGINT after"); n != 1 {
		t.Errorf("%d SIGINTs in the transcript; want the probe's alone:\n%s", n, transcript.String())
	}
}

// transcriptName is the one transcript in dir.
func transcriptName(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("transcripts in %s: %v, %v", dir, entries, err)
	}
	return entries[0].Name()
}

// The time policy is probed once per program, only for searches under a time budget, and
// only where the settings leave it unknown.
func TestTimePolicyProbes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scenario string
		settings map[string]string
		tc       driver.TimeControl
		want     TimePolicy // Detail: a part of it
		probes   int        // "time probe" notes in the transcript
	}{
		{"reads fractions", "good", nil, driver.TimeControl{MoveTime: time.Second},
			TimePolicy{Detail: "reads fractions of a second (probed"}, 1},
		{"whole seconds, survives SIGINT", "whole-seconds", nil, driver.TimeControl{Base: time.Minute},
			TimePolicy{WholeSeconds: true, Interruptible: true, Detail: "survives SIGINT (probed"}, 2},
		{"settings", "die-on-int", map[string]string{"fractional": "false", "interrupt": "false"}, driver.TimeControl{MoveTime: time.Second},
			TimePolicy{WholeSeconds: true, Detail: "reads whole seconds (fractional=false); never interrupted (interrupt=false)"}, 0},
		{"fractional set", "whole-seconds", map[string]string{"fractional": "true"}, driver.TimeControl{MoveTime: time.Second},
			TimePolicy{Detail: "reads fractions of a second (fractional=true); never interrupted"}, 0},
		{"depth", "die-on-int", nil, driver.TimeControl{Depth: 2},
			TimePolicy{WholeSeconds: true, Detail: "not probed: it searches to a depth"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := fakeConfig(tc.scenario)
			e.Settings, e.Time = tc.settings, tc.tc
			memo := new(driver.Memo) // one run's
			for run := range 2 {
				dir := t.TempDir()
				p := start(t, e, driver.StartEnv{Grace: time.Second, TranscriptDir: dir, Memo: memo})
				got := p.TimePolicy()
				if got.WholeSeconds != tc.want.WholeSeconds || got.Interruptible != tc.want.Interruptible || !strings.Contains(got.Detail, tc.want.Detail) {
					t.Errorf("start %d: %+v; want %+v", run, got, tc.want)
				}
				p.Close(t.Context())
				data, err := os.ReadFile(filepath.Join(dir, transcriptName(t, dir)))
				if err != nil {
					t.Fatal(err)
				}
				want := tc.probes
				if run > 0 {
					want = 0 // the program's facts are known
				}
				if n := strings.Count(string(data), "* time probe:"); n != want {
					t.Errorf("start %d: %d probes; want %d:\n%s", run, n, want, data)
				}
			}
		})
	}
}

// A probe answered without "ok" learned nothing of the engine's time handling: the policy
// falls back to the assumptions that lose no game, and says that it assumed them rather than
// that it found them out.
func TestProbeThatLearnedNothingSaysSo(t *testing.T) {
	e := fakeConfig("no-ok-timed")
	startEngine := func(ctx context.Context) (*uhpclient.Engine, error) {
		return uhpclient.Start(ctx, uhpclient.Config{Command: e.Command, Env: e.Env, Name: "fake"})
	}
	eng, err := startEngine(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	facts, eng, err := probe(t.Context(), eng, startEngine)
	if eng != nil {
		defer eng.Close(context.WithoutCancel(t.Context()))
	}
	if err != nil {
		t.Fatal(err)
	}
	if facts.fractional || !strings.HasPrefix(facts.fractionsBy, "taken to read whole seconds, the safe side (the probe learned nothing: bestmove time 00:00:00.100 ") {
		t.Errorf("fractions: %v, %q; want whole seconds, assumed", facts.fractional, facts.fractionsBy)
	}
	if facts.interruptible || !strings.HasPrefix(facts.interruptBy, "never interrupted, the safe side (the probe learned nothing: ") {
		t.Errorf("interrupts: %v, %q; want never interrupted, assumed", facts.interruptible, facts.interruptBy)
	}
}

// An engine rebuilt in place between two runs (a long-lived worker's) is probed again: what a
// run learned lasts as long as its seats (its driver.Memo), not the process. Within a run its
// facts are known after the first start.
func TestARebuiltEngineIsProbedAgain(t *testing.T) {
	program := filepath.Join(t.TempDir(), "engine")
	build := func(scenario string) {
		// The script sets the fake's environment and execs the test binary with sh's builtins
		// alone: a machine with only Go has no env program on PATH.
		argv, env := uhpfake.Command(fakeEngine(scenario))
		quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
		script := "#!/bin/sh\n"
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			script += "export " + k + "=" + quote(v) + "\n"
		}
		script += "exec"
		for _, a := range argv {
			script += " " + quote(a)
		}
		if err := os.WriteFile(program, []byte(script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := driver.EngineConfig{Name: "rebuilt", Command: []string{program}, Time: driver.TimeControl{MoveTime: time.Second}}
	policy := func(memo *driver.Memo) TimePolicy {
		p := start(t, e, driver.StartEnv{Grace: time.Second, Memo: memo})
		defer p.Close(t.Context())
		return p.TimePolicy()
	}
	build("whole-seconds")
	run1 := new(driver.Memo)
	if got := policy(run1); !got.WholeSeconds {
		t.Fatalf("first build: %+v; want whole seconds", got)
	}
	build("good") // rebuilt in place: now it reads fractions of a second
	if got := policy(run1); !got.WholeSeconds {
		t.Errorf("the same run, after the rebuild: %+v; want the facts the run learned (whole seconds)", got)
	}
	if got := policy(new(driver.Memo)); got.WholeSeconds {
		t.Errorf("the next run: %+v; want the rebuilt engine probed again (fractions of a second)", got)
	}
}

func TestCheckSuggestsTheSettingMeant(t *testing.T) {
	e := fakeConfig("normal")
	e.Settings = map[string]string{"fractinal": "true"}
	if err := driver.Validate(e); err == nil || !strings.Contains(err.Error(), "did you mean fractional?") {
		t.Errorf("got %v", err)
	}
}

// A start-up failure names the setting that helps.
func TestStartErrorsNameTheSetting(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    func() driver.EngineConfig
		want string
	}{
		{"missing program", func() driver.EngineConfig {
			e := fakeConfig("normal")
			e.Command = []string{"./nope"}
			return e
		}, `"./nope" does not exist: give cmd=`},
		{"slow start", func() driver.EngineConfig { return fakeConfig("slow-start") }, "start_timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
			defer cancel()
			_, err := Protocol{}.Start(ctx, tc.e(), driver.StartEnv{Grace: 100 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want it to say %s", err, tc.want)
			}
		})
	}
}

// Each game is marked in the engine's transcript, and its record names the transcript.
func TestGamesAreMarkedInTheTranscript(t *testing.T) {
	dir := t.TempDir()
	white := start(t, fakeConfig("normal"), driver.StartEnv{TranscriptDir: dir, Worker: 1, Grace: time.Second})
	black := start(t, fakeConfig("normal"), driver.StartEnv{TranscriptDir: dir, Worker: 1, Grace: time.Second})
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

// The README's first example, tc=10+0.1, for an engine that reads whole seconds and survives
// SIGINT: every budget is under a second and cannot be sent as it is, and no move is lost on
// time for it.
func TestClockGameOfAWholeSecondEngine(t *testing.T) {
	tc := driver.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}
	side := func(name string) arbiter.Side {
		e := fakeConfig("whole-seconds")
		e.Name, e.Time = name, tc
		return arbiter.Side{Name: name, Player: start(t, e, driver.StartEnv{Grace: time.Second}), Time: tc, Margin: arbiter.DefaultMargin}
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
	if err := driver.Locate(fakeConfig("normal")); err != nil {
		t.Errorf("the test binary: %v", err)
	}
	e := fakeConfig("normal")
	e.Command, e.Dir = []string{"./nope"}, t.TempDir()
	err := driver.Locate(e)
	if err == nil || !strings.Contains(err.Error(), `engine "fake": the program "./nope" does not exist in `) || !strings.Contains(err.Error(), "give cmd=") {
		t.Errorf("got %v", err)
	}
}

// A clock spent to nothing within its margin still asks for a move (the least UHP writes), not
// a bare bestmove, which is no command: the game is then judged on time, not as a protocol
// violation.
func TestSpentClockStillAsksForAMove(t *testing.T) {
	p := start(t, fakeConfig("good"), driver.StartEnv{Grace: time.Second})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if move, err := p.BestMove(ctx, driver.SearchLimit{Time: 0}); err != nil || move == "" {
		t.Errorf("got %q, %v; want a move", move, err)
	}
}
