//go:build unix

package uhp

import (
	"context"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
	"hivearbiter/uhpclient"
)

// A game with a faulty engine ends, or goes on with a warning, as the table of diagnoses says,
// and its record carries the diagnosis' advice: a move without "ok" is a broken protocol, never
// a loss on time; lines before the move and a move in lower case are warnings.
func TestGameRecordsTheDiagnosis(t *testing.T) {
	for _, tc := range []struct {
		id     string
		reason results.Reason // "" for a game that goes on, with a warning
	}{
		{driver.DiagnosisMissingOK, results.ReasonProtocol},
		{driver.DiagnosisLinesBeforeReply, ""},
		{driver.DiagnosisMoveCase, ""},
		{driver.DiagnosisMoveSide, results.ReasonIllegalMove},
		{driver.DiagnosisMoveNotation, results.ReasonIllegalMove},
		{driver.DiagnosisGameStringIgnore, results.ReasonDesync},
		{driver.DiagnosisCrash, results.ReasonCrash},
		{driver.DiagnosisOverrun, results.ReasonTimeForfeit},
	} {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			faulty, ok := uhpfake.Faulty(tc.id)
			if !ok {
				t.Fatalf("no fake for %s", tc.id)
			}
			tcontrol := driver.TimeControl{MoveTime: 300 * time.Millisecond}
			white := fakeSide(t, "faulty", faulty, tcontrol)
			black := fakeSide(t, "good", uhpfake.Config{}, tcontrol)
			rec, err := arbiter.PlayGame(t.Context(), arbiter.GameConfig{Run: "t", Opening: "Base+MLP;InProgress;White[2];wS1;bS1 wS1-",
				CommandTimeout: 2 * time.Second, DepthTimeout: 2 * time.Second, Adjudication: arbiter.Adjudication{MaxPlies: 8}}, white, black)
			if err != nil {
				t.Fatal(err)
			}
			d, _ := driver.LookupDiagnosis(tc.id)
			said := rec.Detail
			for _, w := range rec.Warnings {
				said += "\n" + w.Text
			}
			if rec.Reason != tc.reason && tc.reason != "" || tc.reason == "" && rec.Culprit != "" {
				t.Errorf("the game ended by %s (%s), want %q", rec.Reason, rec.Detail, tc.reason)
			}
			if !strings.Contains(said, d.Advice()) {
				t.Errorf("the record does not give the diagnosis %s:\n%s", tc.id, said)
			}
		})
	}
}

// fakeSide starts a fake engine through the protocol, as a match does.
func fakeSide(t *testing.T, name string, cfg uhpfake.Config, tc driver.TimeControl) arbiter.Side {
	t.Helper()
	argv, env := uhpfake.Command(cfg)
	e := driver.EngineConfig{Name: name, Command: argv, Env: env, Time: tc, Settings: map[string]string{SettingFractional: "true", SettingInterrupt: "false"}}
	return arbiter.Side{Name: name, Player: start(t, e, driver.StartEnv{Grace: time.Second}), Time: tc, Margin: 200 * time.Millisecond}
}

// A program that is an interpreter names the engine after its id in the pasted match line.
func TestInterpretedEngineIsNamedAfterItsID(t *testing.T) {
	// Which programs are interpreters: driver's TestInterpreted.
	for id, want := range map[string]string{"MyBot 1.0": "MyBot", "  rusty_hive v0.3": "rusty_hive", "my bot!": "my", "***": ""} {
		if got := idName(id); got != want {
			t.Errorf("idName(%q) = %q, want %q", id, got, want)
		}
	}
}

// The match's probe and the check judge a fraction of a second alike: an engine that answers
// a fractional budget more than a second late does not read fractions, for both.
func TestProbeAndCheckAgreeOnALateFraction(t *testing.T) {
	late := uhpfake.Config{ID: "late v1", Think: true, OnSIGINT: "interrupt", Overshoot: 1500 * time.Millisecond}
	argv, env := uhpfake.Command(late)
	e := driver.EngineConfig{Name: "late", Command: argv, Env: env, Time: driver.TimeControl{MoveTime: time.Second}}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	p, err := Protocol{}.Start(ctx, e, driver.StartEnv{Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	if policy := p.(*Player).TimePolicy(); !policy.WholeSeconds || !strings.Contains(policy.Detail, "does not keep to a fraction") {
		t.Errorf("the probe found %+v", policy)
	}
	if !keepsToFraction(100*time.Millisecond, 1100*time.Millisecond) || keepsToFraction(100*time.Millisecond, 1101*time.Millisecond) {
		t.Error("keepsToFraction does not draw its line at a second over")
	}
}

// Silence is "nothing received" (output never flushed) only from an engine that has ended no
// reply to a command yet: one that answered others and then keeps quiet (a slow bench, a hung
// command) flushes its output, and its error says only what it did not answer in how long.
func TestSilenceIsNoFlushingFaultOnceAReplyCame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    *uhpclient.TimeoutError
		search bool
		want   string
	}{
		{"silent from the start", &uhpclient.TimeoutError{Command: "start"}, false, driver.DiagnosisNoOutput},
		{"silent after the banner", &uhpclient.TimeoutError{Command: "newgame Base"}, false, driver.DiagnosisNoOutput},
		{"a bench after answers", &uhpclient.TimeoutError{Command: "bench", Replied: true}, false, ""},
		{"a search", &uhpclient.TimeoutError{Command: "bestmove time 00:00:01", Replied: true}, true, driver.DiagnosisOverrun},
		{"half a line", &uhpclient.TimeoutError{Command: "bench", Replied: true, Partial: "wS"}, false, driver.DiagnosisNoNewline},
	} {
		if got := diagnosisOf(tc.err, tc.search); got != tc.want {
			t.Errorf("%s: diagnosis %q, want %q", tc.name, got, tc.want)
		}
	}
}
