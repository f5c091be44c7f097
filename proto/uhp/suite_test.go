//go:build unix

package uhp

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
)

func checkFake(t *testing.T, scenario string) map[string]arbiter.CheckResult {
	t.Helper()
	e := fakeConfig(scenario)
	e.Time = arbiter.TimeControl{}
	results, err := Protocol{}.RunChecks(t.Context(), e, arbiter.CheckOptions{Games: 1, Plies: 8, Seed: 1, Margin: 300 * time.Millisecond, Grace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]arbiter.CheckResult{}
	for _, r := range results {
		if _, dup := byName[r.Name]; dup {
			t.Errorf("two results named %q", r.Name)
		}
		byName[r.Name] = r
	}
	return byName
}

// row finds the result whose name starts with prefix.
func row(t *testing.T, results map[string]arbiter.CheckResult, prefix string) arbiter.CheckResult {
	t.Helper()
	for name, r := range results {
		if strings.HasPrefix(name, prefix) {
			return r
		}
	}
	t.Fatalf("no check %q among %v", prefix, results)
	return arbiter.CheckResult{}
}

func TestCheckFindsTheTimeSetting(t *testing.T) {
	for _, tc := range []struct {
		scenario      string
		sigintPassed  bool
		settingPassed bool
		setting       string
	}{
		{"good", true, true, "fractional=true"},
		{"whole-seconds", true, true, "leave fractional unset"},
		{"die-on-int", false, false, "st=N whole seconds"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			results := checkFake(t, tc.scenario)
			if r := row(t, results, "SIGINT during bestmove"); (r.Status == arbiter.CheckPassed) != tc.sigintPassed {
				t.Errorf("SIGINT check: %+v", r)
			}
			if r := row(t, results, "time setting"); (r.Status == arbiter.CheckPassed) != tc.settingPassed || !strings.Contains(r.Detail, tc.setting) {
				t.Errorf("time setting: %+v; want it to say %s", r, tc.setting)
			}
			if tc.scenario == "die-on-int" {
				// Each row judges one thing: the engine is started again after it died.
				for _, name := range []string{"illegal move", "unknown command", "options"} {
					if r := row(t, results, name); r.Status != arbiter.CheckPassed {
						t.Errorf("%s after the engine died: %+v", name, r)
					}
				}
			}
		})
	}
}

func TestCheckSaysWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		scenario, check string
		want            []string
	}{
		{"accepts-illegal", "illegal move", []string{"accepted the illegal move play wQ", "You can't play your Queen Bee on your first turn"}},
		{"nokamute-validmoves", "validmoves", []string{"missing 1: ", "in Base"}},
		{"crash-depth", "bestmove depth 1", []string{"exited (exit status 3)"}},
		{"trailing-semicolon", "newgame with a full GameString", []string{`malformed GameString (it ends with ";")`}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			results := checkFake(t, tc.scenario)
			r := row(t, results, tc.check)
			if r.Status == arbiter.CheckPassed {
				t.Fatalf("%s passed: %+v", tc.check, r)
			}
			for _, want := range tc.want {
				if !strings.Contains(r.Detail, want) {
					t.Errorf("%q does not say %s", r.Detail, want)
				}
			}
			if strings.Contains(r.Detail, "<nil>") {
				t.Errorf("%q says <nil>", r.Detail)
			}
			if tc.scenario == "crash-depth" {
				if r := row(t, results, "bestmove time 00:00:01"); r.Status != arbiter.CheckPassed {
					t.Errorf("the row after the crash repeats it: %+v", r)
				}
			}
		})
	}
}

func TestSkippedChecksAreShown(t *testing.T) {
	e := arbiter.EngineConfig{Name: "nope", Command: []string{"./no-such-engine"}}
	results, err := Protocol{}.RunChecks(t.Context(), e, arbiter.CheckOptions{})
	if err == nil || len(results) != 2 || results[0].Status != arbiter.CheckFailed || results[1].Status != arbiter.CheckSkipped {
		t.Errorf("got %+v, %v; want a failed start and the rest skipped", results, err)
	}
}

// TestCheckReportsBench: an engine's bench, a node count that signs its build, is shown when
// the engine has one; it is optional, so an engine without it passes.
func TestCheckReportsBench(t *testing.T) {
	if r := row(t, checkFake(t, "good"), "bench"); r.Status != arbiter.CheckPassed || !strings.Contains(r.Detail, "nodes=1300818") {
		t.Errorf("an engine with a bench: %+v", r)
	}
	if r := row(t, checkFake(t, "whole-seconds"), "bench"); r.Status != arbiter.CheckPassed || !strings.Contains(r.Detail, "no bench command") {
		t.Errorf("an engine without a bench: %+v", r)
	}
}
