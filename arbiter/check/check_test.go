package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

// playChecked is the test protocol as a protocol judged by play alone: it declares its rows.
type playChecked struct{ arbitertest.Protocol }

func (playChecked) PlayRows(e driver.EngineConfig) compliance.PlayerRows {
	return compliance.PlayerRows{Settings: "settings of " + e.Name, Greeting: "greeting", Close: "close"}
}

const playCheckedName = "test-play-checked"

// uncheckable is a protocol without a compliance check.
type uncheckable struct{}

func (uncheckable) Validate(driver.EngineConfig) error { return nil }
func (uncheckable) Start(context.Context, driver.EngineConfig, driver.StartEnv) (driver.Player, error) {
	return nil, errors.New("not started")
}

func init() {
	driver.Register(playCheckedName, playChecked{})
	driver.Register("uncheckable", uncheckable{})
}

// TestRun: Run plays the suite of a protocol that declares its rows, with those rows, and
// refuses a protocol with no check and an unknown one with the driver's errors.
func TestRun(t *testing.T) {
	e := driver.EngineConfig{Name: "p", Protocol: playCheckedName, Command: []string{"random"},
		Time: driver.TimeControl{MoveTime: 100 * time.Millisecond}}
	results, err := check.Run(t.Context(), e, compliance.Options{Games: 1, Plies: 6, Seed: 1, Margin: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"settings of p", "greeting", "first move within its time (st=0.1)", "game 1: Base as White from a random", "close"}
	if len(results) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		if r := results[i]; !strings.HasPrefix(r.Name, w) || r.Status != compliance.Passed {
			t.Errorf("row %d: %s %s (%s), want %q passed", i, r.Name, r.Status, r.Detail, w)
		}
	}

	e.Protocol = "uncheckable"
	results, err = check.Run(t.Context(), e, compliance.Options{})
	var config *driver.ConfigError
	if !errors.As(err, &config) || !strings.Contains(err.Error(), `protocol "uncheckable" has no compliance check`) || results != nil {
		t.Errorf("a protocol with no check: %v, %v; want a ConfigError that says so, and nothing run", results, err)
	}
	e.Protocol = "no-such-protocol"
	if _, err := check.Run(t.Context(), e, compliance.Options{}); err == nil {
		t.Error("an unknown protocol ran a check")
	}
}
