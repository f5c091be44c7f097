//go:build unix

package uhp

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

// An engine whose overshoot grows through its game is measured through a game from the start,
// two at once as a run of -concurrency 2 plays them, and gets a margin that covers its
// overshoot in a game twice as long, doubled by load: a check of searches in fresh positions a
// few plies in saw it run a fifth as far over.
func TestCheckMarginCoversAGrowingOvershoot(t *testing.T) {
	const perMove, moves = 30 * time.Millisecond, 8
	e := fakeConfig("growing-overshoot")
	e.Time = driver.TimeControl{MoveTime: 300 * time.Millisecond}
	checks, err := Protocol{}.RunChecks(t.Context(), e, compliance.Options{Games: 1, Plies: 8, Seed: 1,
		Margin: time.Second, // its first search of 1 s, at move 5 of a fresh position, runs 0.3 s over on a loaded machine
		Grace:  500 * time.Millisecond, Searches: moves, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(checks, func(r compliance.Result) bool { return r.Name == "overshoot of timed searches" })
	if i < 0 {
		t.Fatalf("no overshoot row in %v", checks)
	}
	r := checks[i]
	if r.Status != compliance.Passed || !strings.Contains(r.Detail, "16 searches of 0.3 s through moves 1 to 8 of 2 games at once ran over by median 0.") ||
		!strings.Contains(r.Detail, ", growing from 0.") {
		t.Errorf("overshoot: %+v; want 16 searches of 0.3 s through two games at once, growing", r)
	}
	margin, ok := compliance.MarginChecked(checks)
	if want := 2 * moves * 2 * perMove; !ok || margin < want {
		t.Errorf("margin %v (advised: %v) does not cover move %d of a loaded machine, %v", margin, ok, 2*moves, want)
	}
	if i := slices.IndexFunc(checks, func(r compliance.Result) bool { return r.Name == "time setting for match" }); i < 0 ||
		!strings.Contains(checks[i].Detail, "doubled again as its overshoot grew through the game") {
		t.Errorf("the time setting does not say why its margin is doubled again: %v", checks)
	}
}
