package distributed

import (
	"context"
	"errors"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
)

// TestIdentifyNamesEveryBrokenEngine: a coordinator, a submitter and a worker joining a run
// start every engine before the first pair, and name every one that does not start at once,
// as a local run's preflight does. Identify used to stop at the first.
func TestIdentifyNamesEveryBrokenEngine(t *testing.T) {
	engines := []driver.EngineConfig{
		{Name: "broken1", Protocol: "det", Command: []string{"unstartable"}},
		{Name: "good", Protocol: "det", Command: []string{"det"}},
		{Name: "broken2", Protocol: "det", Command: []string{"unstartable"}},
	}
	_, err := Identify(context.Background(), engines, "Base+MLP", 5*time.Second)
	var pe *arbiter.PreflightError
	if !errors.As(err, &pe) {
		t.Fatalf("Identify: %v, want an *arbiter.PreflightError", err)
	}
	var names []string
	for _, f := range pe.Failures {
		names = append(names, f.Engine)
	}
	if len(names) != 2 || names[0] != "broken1" || names[1] != "broken2" {
		t.Errorf("the failures name %v, want [broken1 broken2] in configuration order", names)
	}
	var se *arbiter.EngineStartError
	if !errors.As(err, &se) {
		t.Error("errors.As finds no *arbiter.EngineStartError in the preflight error (a pool's worker tells them by it)")
	}
}
