package gamestring_test

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/proto/gamestring"
)

// runChecks runs the compliance check of a fake bot, as "arbiter check" does, with a short
// time per move so that a bot that does not answer fails fast.
func runChecks(t *testing.T, scenario string, settings map[string]string) ([]compliance.Result, error) {
	t.Helper()
	e := program(scenario, "")
	e.Protocol, e.Settings = gamestring.Name, settings
	e.Time = driver.TimeControl{MoveTime: 300 * time.Millisecond}
	return check.Run(t.Context(), e, compliance.Options{Games: 2, Plies: 10, Seed: 1,
		Margin: 100 * time.Millisecond, StartTimeout: 2 * time.Second, Grace: 500 * time.Millisecond})
}

// TestCheckPasses: a bot that plays legal moves passes every check, with rules of its own or
// with the legal moves listed and no rules at all.
func TestCheckPasses(t *testing.T) {
	for _, tc := range []struct {
		scenario   string
		validMoves string
	}{{"random", ""}, {"listed", "true"}} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			results, err := runChecks(t, tc.scenario, map[string]string{gamestring.SettingValidMoves: tc.validMoves})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, r := range results {
				names = append(names, r.Name)
				if r.Status != compliance.Passed {
					t.Errorf("%s: %s %s", r.Name, r.Status, r.Detail)
				}
			}
			for _, want := range []string{"settings", "greeting", "first move within its time (st=0.3)", "game 1: Base as White",
				"game 2: Base+MLP as Black", "exits at the end of its input"} {
				if !strings.Contains(strings.Join(names, "\n"), want) {
					t.Errorf("no check %q among %q", want, names)
				}
			}
		})
	}
}

// TestCheckOverTCP: a bot that listens passes every check, the arbiter connecting to it for
// each start.
func TestCheckOverTCP(t *testing.T) {
	e := driver.EngineConfig{Name: "remote", Protocol: gamestring.Name, Addr: listen(t, "random"),
		Time: driver.TimeControl{MoveTime: 300 * time.Millisecond}}
	results, err := check.Run(t.Context(), e, compliance.Options{Games: 2, Plies: 10, Grace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Status != compliance.Passed {
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Detail)
		}
	}
	if r := arbitertest.CheckRow(t, results, "leaves when its connection ends"); r.Status != compliance.Passed {
		t.Errorf("%+v", r)
	}
}

// TestCheckNamesFaults: a bot that misbehaves fails the check that judges what it did, with
// what it said quoted; the checks it cannot reach are skipped.
func TestCheckNamesFaults(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		row      string // the first failed check
		detail   string
		status   map[string]compliance.Status // the status of other checks, by name prefix
	}{
		{"illegal", "game 1", `White (illegal) played the illegal move "wQ": `,
			map[string]compliance.Status{"first move": compliance.Passed, "game 2": compliance.Failed, "exits": compliance.Passed}},
		{"garbage", "game 1", `"please make a move for me" is not a MoveString`,
			map[string]compliance.Status{"first move": compliance.Passed, "game 2": compliance.Failed}},
		{"silent", "first move within its time", "White (silent) loses on time: it did not answer its 0.300 s search",
			map[string]compliance.Status{"games against the referee": compliance.Skipped, "exits": compliance.Passed}},
		{"crash", "first move within its time", "giving up",
			map[string]compliance.Status{"greeting": compliance.Passed, "games against the referee": compliance.Skipped}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			results, err := runChecks(t, tc.scenario, nil)
			if err != nil {
				t.Fatal(err)
			}
			first, _ := arbitertest.FirstFailure(results)
			if !strings.HasPrefix(first.Name, tc.row) || !strings.Contains(first.Detail, tc.detail) {
				t.Errorf("first failure %q: %s; want %q saying %s", first.Name, first.Detail, tc.row, tc.detail)
			}
			for prefix, want := range tc.status {
				if r := arbitertest.CheckRow(t, results, prefix); r.Status != want {
					t.Errorf("%s: %s (%s), want %s", r.Name, r.Status, r.Detail, want)
				}
			}
		})
	}
}

// TestCheckNoGreeting: a bot that does not say its name first fails the greeting, and nothing
// else is checked.
func TestCheckNoGreeting(t *testing.T) {
	e := program("mute", "")
	e.Protocol = gamestring.Name
	results, err := check.Run(t.Context(), e, compliance.Options{StartTimeout: 300 * time.Millisecond, Grace: 100 * time.Millisecond})
	if err == nil || len(results) != 3 {
		t.Fatalf("got %v and %+v; want an error, with the settings passed, the greeting failed and the rest skipped", err, results)
	}
	if r := results[1]; r.Status != compliance.Failed || !strings.HasPrefix(r.Name, "greeting") || !strings.Contains(r.Detail, "prints its name first") {
		t.Errorf("greeting: %+v", r)
	}
	if r := results[2]; r.Status != compliance.Skipped {
		t.Errorf("the rest: %+v", r)
	}
	if !strings.Contains(err.Error(), "prints its name first") {
		t.Errorf("error %v", err)
	}
}
