package ci

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/openings"
	"hivearbiter/results"
)

// TestDecisionCode: an SPRT's decision is the exit code every deciding command exits with.
func TestDecisionCode(t *testing.T) {
	for d, want := range map[elo.Decision]int{elo.AcceptH1: ExitOK, elo.AcceptH0: ExitH0, elo.Continue: ExitInconclusive} {
		if got := DecisionCode(d); got != want {
			t.Errorf("DecisionCode(%v) = %d, want %d", d, got, want)
		}
	}
}

// TestNewVerdict: the exit code of a gate's command decides whether it passed and in what
// words; an SPRT that ended the run gives the reason, and a run without one that finished
// passes as finished.
func TestNewVerdict(t *testing.T) {
	withSPRT := gates()["h0"].Summary
	without := &results.Summary{Status: "finished"}
	tests := []struct {
		name     string
		code     int
		msg      string
		summary  *results.Summary
		passed   bool
		decision string
		reason   string // "" for the SPRT's
		tested   bool
	}{
		{"h1", ExitOK, "", withSPRT, true, "H1 accepted", "", true},
		{"h0", ExitH0, "", withSPRT, false, "H0 accepted", "", true},
		{"cap", ExitInconclusive, "", withSPRT, false, "no decision", "", true},
		{"finished", ExitOK, "", without, true, "finished", "the run finished (no SPRT to decide)", false},
		{"engines", ExitEngines, "strict: 1 games ended by engine misbehaviour", withSPRT, false, "stopped by engine failures", "strict: 1 games ended by engine misbehaviour", false},
		{"interrupted", ExitInterrupted, "", nil, false, "interrupted", "interrupted", false},
		{"failed", ExitFailure, "disk full", nil, false, "the arbiter failed", "disk full", false},
		{"unknown code", 7, "", nil, false, "exit code 7", "", false},
	}
	for _, tc := range tests {
		v := NewVerdict(tc.code, tc.msg, tc.summary)
		reason := tc.reason
		if tc.tested {
			reason = SPRTReason(tc.summary)
		}
		if v.Passed != tc.passed || v.ExitCode != tc.code || v.Decision != tc.decision || v.Reason != reason || v.Tested != tc.tested {
			t.Errorf("%s: %+v, want passed %v, %q, %q, tested %v", tc.name, v, tc.passed, tc.decision, reason, tc.tested)
		}
	}
}

// TestWriteGate: a gate's reports under GitHub Actions are the mirror note and the annotation
// on the console, the Markdown in -summary's file and appended to the step summary, and a
// JUnit file that validates; a report that cannot be written is returned, and the others are
// written all the same.
func TestWriteGate(t *testing.T) {
	dir := t.TempDir()
	step := filepath.Join(dir, "step.md")
	if err := os.WriteFile(step, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := gates()["h1-mirrors"]
	o := Reports{JUnit: filepath.Join(dir, "gate.xml"), Summary: filepath.Join(dir, "gate.md"), GitHub: GitHub{Actions: true, StepSummary: step}}
	var stdout bytes.Buffer
	if err := o.WriteGate(&stdout, g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "Note: Every one of the 22 game pairs was a mirror") || !strings.Contains(stdout.String(), "::notice title=Hive Arbiter gate passed::H1 accepted: ") {
		t.Errorf("console:\n%s", stdout.String())
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, g); err != nil {
		t.Fatal(err)
	}
	summary, _ := os.ReadFile(o.Summary)
	stepped, _ := os.ReadFile(step)
	if string(summary) != md.String() || string(stepped) != "earlier step\n"+md.String() {
		t.Errorf("summary\n%s\nstep summary\n%s\nwant the gate's Markdown, appended to the earlier step's", summary, stepped)
	}
	testenv.ValidateXML(t, o.JUnit, "testdata/junit.xsd")

	o.JUnit = filepath.Join(dir, "no-such-dir", "gate.xml")
	o.GitHub = GitHub{}
	if err := o.WriteGate(&stdout, g); err == nil || !strings.Contains(err.Error(), "no-such-dir") {
		t.Errorf("a JUnit file that cannot be written: %v", err)
	}
	if got, _ := os.ReadFile(o.Summary); string(got) != md.String() {
		t.Errorf("the summary was not written beside the failed JUnit file")
	}
}

// TestMatchGate: a match's gate takes its summary, the mirrors among the pairs it played and
// the setup from the outcome, and names the openings and the cap from the configuration.
func TestMatchGate(t *testing.T) {
	cfg := arbiter.Config{Event: "CI regression gate", Openings: openings.Config{RandomPlies: 4}}
	if g := MatchGate(cfg, nil); g.Name != cfg.Event || g.Summary != nil {
		t.Errorf("nothing played: %+v", g)
	}
	out := &arbiter.Outcome{Standings: arbiter.Standings{Tally: results.NewTally(nil, []string{"new", "released"})}, Scheduled: 40,
		PlayedPairs: 3, Mirrors: 2, Setup: results.Setup{Limit: "depth=3", Engines: []results.Identity{{Name: "new", ID: "v2"}}}}
	g := MatchGate(cfg, out)
	if g.Summary == nil || g.Mirrors != 2 || g.Pairs != 3 || g.Setup.Limit != "depth=3" || g.Setup.Openings != "random 4-ply openings" || g.Setup.MaxGames != 40 {
		t.Errorf("gate %+v", g)
	}
}

// TestRecordsGate: records read again leave their mirrors, pairs and setup for the gate.
func TestRecordsGate(t *testing.T) {
	game := func(game int, white, black string) results.Record {
		return results.Record{Run: "r", Game: game, White: results.Player{Name: white, Time: "depth=2"}, Black: results.Player{Name: black, Time: "depth=2"},
			Opening: "Base+MLP", Result: "WhiteWins", Moves: []results.Move{{Move: "wQ"}}}
	}
	recs := []results.Record{game(0, "new", "old"), game(1, "old", "new")}
	g := RecordsGate("stats", &results.Summary{}, recs)
	if g.Name != "stats" || g.Summary == nil || g.Mirrors != 1 || g.Pairs != 1 || g.Setup.Limit != "depth=2" {
		t.Errorf("gate %+v", g)
	}
}
