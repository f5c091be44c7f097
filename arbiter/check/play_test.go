package check_test

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

var testRows = compliance.PlayerRows{Settings: "settings", SettingsDetail: "none", Greeting: "greeting", Close: "close"}

// TestPlaySuite plays the suite that judges a player by play alone on in-process players,
// each misbehaving one way: the check that meets the fault fails with the game's detail, the
// checks it makes moot are skipped, and the player is started afresh for the next check.
func TestPlaySuite(t *testing.T) {
	for _, tc := range []struct {
		behaviour string
		want      []string // "NAME STATUS" of each row, by the start of its name
		detail    string   // in the first failure
	}{
		{"random", []string{"settings pass", "greeting pass", "first move within its time (st=0.2) pass", "game 1: Base as White pass",
			"game 2: Base+MLP as Black pass", "game 3: Base as White pass", "close pass"}, ""},
		{"illegal@2", []string{"settings pass", "greeting pass", "first move pass", "game 1 FAIL", "game 2 FAIL", "game 3 FAIL", "close pass"},
			"played the illegal move"},
		{"unreadable@0", []string{"settings pass", "greeting pass", "first move pass", "game 1 FAIL", "game 2 FAIL", "game 3 FAIL", "close pass"},
			`answered "xyzzy", which is not a MoveString`},
		{"pass@6", []string{"settings pass", "greeting pass", "first move pass", "game 1 FAIL", "game 2 FAIL", "game 3 FAIL", "close pass"},
			"passed although it had"},
		{"garbage@0", []string{"settings pass", "greeting pass", "first move pass", "game 1 FAIL", "game 2 FAIL", "game 3 FAIL", "close pass"},
			"failed on bestmove: no ok line"},
		{"hang@0", []string{"settings pass", "greeting pass", "first move FAIL", "games against the referee skip", "close pass"},
			"loses on time: it did not answer its 0.200 s search within 2.200 s"},
		{"crash@0", []string{"settings pass", "greeting pass", "first move FAIL", "games against the referee skip", "close pass"},
			"exit status 101"},
		{"unstartable", []string{"settings pass", "greeting FAIL", "every other check skip"}, "no such file"},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			t.Parallel()
			e := driver.EngineConfig{Name: "p", Protocol: arbitertest.Name, Command: []string{tc.behaviour},
				Time: driver.TimeControl{MoveTime: 200 * time.Millisecond}}
			results, err := check.PlaySuite(t.Context(), arbitertest.Protocol{}, e,
				compliance.Options{Games: 3, Plies: 12, Seed: 3, Margin: 2 * time.Second}, testRows) // the margin of a loaded machine
			if started := tc.behaviour != "unstartable"; started != (err == nil) {
				t.Errorf("error %v", err)
			}
			if len(results) != len(tc.want) {
				t.Fatalf("%d results, want %d: %+v", len(results), len(tc.want), results)
			}
			for i, want := range tc.want {
				cut := strings.LastIndexByte(want, ' ')
				if r := results[i]; !strings.HasPrefix(r.Name, want[:cut]) || r.Status.String() != want[cut+1:] {
					t.Errorf("check %d: %s %s (%s), want %s", i, r.Name, r.Status, r.Detail, want)
				}
			}
			if first, failed := arbitertest.FirstFailure(results); failed != (tc.detail != "") || !strings.Contains(first.Detail, tc.detail) {
				t.Errorf("first failure %+v; want it to say %q", first, tc.detail)
			}
		})
	}
}
