package ugi_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/proto/ugi"
)

// TestCheckNamesFaults runs the UGI suite on fake engines that each get one thing wrong: the
// check that judges it fails and says what the engine answered, and a later check, run on an
// engine started afresh, judges only its own thing.
func TestCheckNamesFaults(t *testing.T) {
	for _, tc := range []struct {
		scenario   string
		row        string // a check, by the start of its name
		status     compliance.Status
		detail     string
		next       string // a later check that passes
		nextDetail string
	}{
		{"claims", "query p1turn, gameover, result", compliance.Failed, `query gameover: got "true" (<nil>), want "false"`,
			"position with an illegal move answered with info error", "info error"},
		{"illegal", "go depth 1", compliance.Failed, "bestmove bQ: ", "game types accepted by position", "plays Base"},
		{"base-only", "game types accepted by position", compliance.Passed, "plays Base; refuses Base+M, Base+L",
			"isready answered with readyok", ""},
		// A fake of one answer to a position is deterministic, in every process.
		{"base-only", "same answer to the same search", compliance.Passed, "the same answer each time in ",
			"isready answered with readyok", ""},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			e := driver.EngineConfig{Name: tc.scenario, Protocol: ugi.Name, Command: []string{os.Args[0]}, Env: []string{fakeEnv + "=" + tc.scenario}}
			results, err := check.Run(t.Context(), e, compliance.Options{Games: 1, Plies: 6, Seed: 1, Grace: grace})
			if err != nil {
				t.Fatal(err)
			}
			if r := arbitertest.CheckRow(t, results, tc.row); r.Status != tc.status || !strings.Contains(r.Detail, tc.detail) {
				t.Errorf("%s: %s %q; want %s saying %s", r.Name, r.Status, r.Detail, tc.status, tc.detail)
			}
			if r := arbitertest.CheckRow(t, results, tc.next); r.Status != compliance.Passed || !strings.Contains(r.Detail, tc.nextDetail) {
				t.Errorf("%s: %s %q; want it passed", r.Name, r.Status, r.Detail)
			}
		})
	}
}

// TestCheckEngineWithoutHandshake: an engine that never says ugiok fails the handshake, and
// nothing else is checked.
func TestCheckEngineWithoutHandshake(t *testing.T) {
	e := driver.EngineConfig{Name: "mute", Protocol: ugi.Name, Command: []string{os.Args[0]}, Env: []string{fakeEnv + "=no-ugiok"}}
	results, err := check.Run(t.Context(), e, compliance.Options{StartTimeout: 300 * time.Millisecond, Grace: grace})
	if err == nil || len(results) != 2 || results[0].Status != compliance.Failed || results[1].Status != compliance.Skipped {
		t.Errorf("got %+v, %v; want the handshake failed and the rest skipped", results, err)
	}
}
