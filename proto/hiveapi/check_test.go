//go:build unix

package hiveapi

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

// runChecks runs the compliance check of a fake module, as "arbiter check" does, with a short
// time per move so that a module that does not answer fails fast.
func runChecks(t *testing.T, transport, scenario string) ([]compliance.Result, error) {
	t.Helper()
	e := fakeEngine(t, scenario, transport, scenario)
	e.Time = driver.TimeControl{MoveTime: 300 * time.Millisecond}
	// Under the race detector a process sleeps a second at exit to let reports through: the
	// close would then be judged slow.
	e.Env = append(e.Env, "GORACE=atexit_sleep_ms=0")
	return check.Run(t.Context(), e, compliance.Options{Games: 2, Plies: 10, Seed: 1,
		Margin: 100 * time.Millisecond, StartTimeout: time.Second, Grace: testGrace})
}

// TestCheckPasses: a module that chooses offered turns passes every check, over each
// transport.
func TestCheckPasses(t *testing.T) {
	for _, transport := range []string{TransportStdio, TransportIPC, TransportTCP} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			results, err := runChecks(t, transport, "random")
			if err != nil {
				t.Fatal(err)
			}
			if len(results) != 6 {
				t.Errorf("%d checks, want 6: %+v", len(results), results)
			}
			for _, r := range results {
				if r.Status != compliance.Passed {
					t.Errorf("%s: %s %s", r.Name, r.Status, r.Detail)
				}
			}
			if r := results[0]; !strings.HasPrefix(r.Detail, "transport="+transport) {
				t.Errorf("settings: %+v", r)
			}
			if r := results[1]; !strings.Contains(r.Detail, "fake-random 0.0.1 by the tests") {
				t.Errorf("Greetings: %+v", r)
			}
		})
	}
}

// TestCheckNamesFaults: a module that misbehaves fails the check that judges what it did,
// with what it sent quoted; the checks it cannot reach are skipped.
func TestCheckNamesFaults(t *testing.T) {
	for _, tc := range []struct {
		scenario, transport string
		row                 string // the first failed check
		detail              string
		next                string // a later check, and its status
		nextStatus          compliance.Status
	}{
		{"cheat-cell", TransportStdio, "game 1", `chose a turn it was not offered, "{\"destination\":\"1,0\"`, "game 2", compliance.Failed},
		{"cheat-far", TransportIPC, "game 1", "White may not place a piece at 40,0", "leaves", compliance.Passed},
		{"garbage", TransportTCP, "game 1", `"hello, world", which is not JSON`, "game 2", compliance.Failed},
		{"hang", TransportStdio, "first move within its time", "White (hang) loses on time", "games against the referee", compliance.Skipped},
		{"crash", TransportStdio, "first move within its time", "TypeError: cannot read property", "games against the referee", compliance.Skipped},
		{"slow-first", TransportStdio, "first move within its time", "loses on time", "games against the referee", compliance.Skipped},
		{"inactive", TransportStdio, "Greetings", "says it is not active (active:false in its Greetings)", "every other check", compliance.Skipped},
		{"mute", TransportStdio, "Greetings", "no answer to Greetings within", "every other check", compliance.Skipped},
	} {
		t.Run(tc.scenario+"/"+tc.transport, func(t *testing.T) {
			t.Parallel()
			results, err := runChecks(t, tc.transport, tc.scenario)
			if started := tc.row != "Greetings"; started != (err == nil) {
				t.Errorf("error %v", err)
			}
			first, _ := arbitertest.FirstFailure(results)
			if !strings.HasPrefix(first.Name, tc.row) || !strings.Contains(first.Detail, tc.detail) {
				t.Errorf("first failure %+v; want %q saying %s", first, tc.row, tc.detail)
			}
			if next := arbitertest.CheckRow(t, results, tc.next); next.Status != tc.nextStatus {
				t.Errorf("%+v, want %s", next, tc.nextStatus)
			}
		})
	}
}
