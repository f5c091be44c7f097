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

// checkFake checks the scenario's fake engine, its overshoot measured on 2 searches of 1 s
// (each of its searches lasts the time it is given).
func checkFake(t *testing.T, scenario string) map[string]compliance.Result {
	t.Helper()
	return checkFakeSearches(t, scenario, 2)
}

// checkFakeSearches checks the scenario's fake engine, its overshoot measured on this many
// searches of each budget.
func checkFakeSearches(t *testing.T, scenario string, searches int) map[string]compliance.Result {
	t.Helper()
	e := fakeConfig(scenario)
	e.Time = driver.TimeControl{}
	results, err := Protocol{}.RunChecks(t.Context(), e, compliance.Options{Games: 1, Plies: 8, Seed: 1, Margin: 300 * time.Millisecond,
		Grace: 500 * time.Millisecond, Searches: searches})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]compliance.Result{}
	for _, r := range results {
		if _, dup := byName[r.Name]; dup {
			t.Errorf("two results named %q", r.Name)
		}
		byName[r.Name] = r
	}
	return byName
}

// row finds the result whose name starts with prefix.
func row(t *testing.T, results map[string]compliance.Result, prefix string) compliance.Result {
	t.Helper()
	if r, ok := results[prefix]; ok {
		return r
	}
	for name, r := range results {
		if strings.HasPrefix(name, prefix) {
			return r
		}
	}
	t.Fatalf("no check %q among %v", prefix, results)
	return compliance.Result{}
}

func TestCheckFindsTheTimeSetting(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		sigint   compliance.Status
		settings []string
		says     string
	}{
		// The margin (the last setting) is the one a loaded machine may widen: its searches
		// run over by what the load adds.
		{"good", compliance.Passed, []string{"fractional=true", "interrupt=false", "margin="}, "plays any time control"},
		{"whole-seconds", compliance.Passed, []string{"fractional=false", "interrupt=true", "margin="}, "plays any time control"},
		// Dying of SIGINT no longer blocks a match: the arbiter never interrupts it.
		{"die-on-int", compliance.Warned, []string{"fractional=false", "interrupt=false", "margin="}, "It plays st=N (N of 1 or more), depth=N, and clocks that last it 40 moves a side: tc=51+0, tc=105+0.1"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			results := checkFake(t, tc.scenario)
			if r := row(t, results, "SIGINT during bestmove"); r.Status != tc.sigint {
				t.Errorf("SIGINT check: %+v; want %s", r, tc.sigint)
			}
			r := row(t, results, "time setting")
			same := len(r.Settings) == len(tc.settings)
			for i := range tc.settings {
				same = same && strings.HasPrefix(r.Settings[i], tc.settings[i]) && (i < len(tc.settings)-1 || r.Settings[i] >= "margin=0.5")
			}
			if r.Status != compliance.Passed || !same || !strings.Contains(r.Detail, tc.says) {
				t.Errorf("time setting: %+v; want the settings %q, saying %q", r, tc.settings, tc.says)
			}
			if tc.scenario == "die-on-int" {
				// Each row judges one thing: the engine is started again after it died.
				for _, name := range []string{"illegal move", "unknown command", "options"} {
					if r := row(t, results, name); r.Status != compliance.Passed {
						t.Errorf("%s after the engine died: %+v", name, r)
					}
				}
			}
		})
	}
}

// An engine whose overshoot varies from search to search gets a margin that covers the worst
// it showed, with a loaded machine's allowance, and the row names the distribution: its first
// search of 1 s ran 0 s over, which alone gave the least margin, 0.5 s.
func TestCheckMarginCoversAVaryingOvershoot(t *testing.T) {
	results := checkFakeSearches(t, "varying-overshoot", 5)
	r := row(t, results, "overshoot of timed searches")
	_, slowest, _ := strings.Cut(r.Detail, ", max ")
	if r.Status != compliance.Passed || !strings.Contains(r.Detail, "5 searches of 1 s through moves 1 to 5 of 1 game ran over by median 0.") || slowest < "0.350 s" {
		t.Errorf("overshoot: %+v; want 5 searches of 1 s through a game, the slowest at least 0.35 s over", r)
	}
	setting := row(t, results, "time setting")
	i := slices.IndexFunc(setting.Settings, func(s string) bool { return strings.HasPrefix(s, "margin=") })
	if i < 0 {
		t.Fatalf("time setting: %+v: no margin", setting)
	}
	margin, err := time.ParseDuration(strings.TrimPrefix(setting.Settings[i], "margin=") + "s")
	if err != nil || margin < 350*time.Millisecond+250*time.Millisecond {
		t.Errorf("margin %v (%v) does not cover an overshoot of 0.35 s on a loaded machine: %s", margin, err, setting.Detail)
	}
}

// An engine whose answer to one search in one position changes is named, with what it costs
// and the option that may fix it; a warning, since it plays. One that answers alike passes.
func TestCheckNamesANonDeterministicEngine(t *testing.T) {
	r := row(t, checkFake(t, "random-moves"), "same answer to the same search")
	if r.Status != compliance.Warned || !strings.Contains(r.Detail, "It is not deterministic") ||
		!strings.Contains(r.Detail, "no mirror pairs") || !strings.Contains(r.Detail, "option.NumThreads=1 (it has 2)") {
		t.Errorf("determinism of a random mover: %+v", r)
	}
	if r := row(t, checkFake(t, "good"), "same answer to the same search"); r.Status != compliance.Passed || !strings.Contains(r.Detail, "the same answer each time in ") {
		t.Errorf("determinism of a deterministic engine: %+v", r)
	}
}

// An engine that plays Base alone is told to play Base; one that claims threefold repetition
// is told the rule that keeps it from losing those games.
func TestCheckGameTypeAndRepetition(t *testing.T) {
	results := checkFake(t, "base-only-claims")
	if r := row(t, results, "game type"); r.Status != compliance.Passed || !slices.Equal(r.Settings, []string{"-gametype=Base"}) {
		t.Errorf("game type: %+v; want -gametype Base", r)
	}
	if r := row(t, results, "draw claim"); r.Status != compliance.Passed || !strings.Contains(r.Detail, "it claims a Draw") || !strings.Contains(r.Detail, "-repetitions 3") {
		t.Errorf("draw claim: %+v", r)
	}
	results = checkFake(t, "good")
	if r := row(t, results, "game type"); len(r.Settings) != 0 {
		t.Errorf("game type of an engine of every expansion: %+v", r)
	}
	if r := row(t, results, "draw claim"); r.Status != compliance.Passed || !strings.Contains(r.Detail, "it claims none") {
		t.Errorf("draw claim: %+v", r)
	}
}

func TestCheckSaysWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		scenario, check string
		want            []string
	}{
		{"accepts-illegal", "illegal move", []string{"accepted the illegal move play wQ", "You can't play your Queen Bee on your first turn"}}, // a warning
		{"nokamute-validmoves", "validmoves", []string{"missing 1: ", "in Base"}},
		{"crash-depth", "bestmove depth 1", []string{"exited (exit status 3)"}},
		{"trailing-semicolon", "newgame Base", []string{`malformed GameString (it ends with ";")`}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			results := checkFake(t, tc.scenario)
			r := row(t, results, tc.check)
			if r.Status == compliance.Passed {
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
				if r := row(t, results, "bestmove time 00:00:01"); r.Status != compliance.Passed {
					t.Errorf("the row after the crash repeats it: %+v", r)
				}
			}
		})
	}
}

func TestSkippedChecksAreShown(t *testing.T) {
	e := driver.EngineConfig{Name: "nope", Command: []string{"./no-such-engine"}}
	results, err := Protocol{}.RunChecks(t.Context(), e, compliance.Options{})
	if err == nil || len(results) != 2 || results[0].Status != compliance.Failed || results[1].Status != compliance.Skipped {
		t.Errorf("got %+v, %v; want a failed start and the rest skipped", results, err)
	}
}

// TestCheckReportsBench: an engine's bench, a node count that signs its build, is shown when
// the engine has one; it is optional, so an engine without it passes.
func TestCheckReportsBench(t *testing.T) {
	if r := row(t, checkFake(t, "good"), "bench"); r.Status != compliance.Passed || !strings.Contains(r.Detail, "nodes=1300818") {
		t.Errorf("an engine with a bench: %+v", r)
	}
	if r := row(t, checkFake(t, "whole-seconds"), "bench"); r.Status != compliance.Passed || !strings.Contains(r.Detail, "no bench command") {
		t.Errorf("an engine without a bench: %+v", r)
	}
}
