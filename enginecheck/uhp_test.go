//go:build unix

package enginecheck

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/rules"
)

// The test binary doubles as the engine under check, as in os/exec's tests: with fakeEnv set
// it runs fakeEngine, a correct UHP engine but for the fault its scenario names.
const fakeEnv = "ENGINECHECK_FAKE"

func TestMain(m *testing.M) {
	if scenario := os.Getenv(fakeEnv); scenario != "" {
		fakeEngine(scenario)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine plays the first valid move. Its search lasts the time it is given, or until
// SIGINT. Faults: "whole-seconds" (err on a fraction of a second), "die-on-int" (as
// whole-seconds, and SIGINT kills it), "accepts-illegal" (plays whatever it is told, or
// pretends to), "crash-depth" (exits on bestmove depth), "nokamute-validmoves" (lists one move
// too few).
func fakeEngine(scenario string) {
	sigint := make(chan os.Signal, 1)
	if scenario == "die-on-int" {
		signal.Reset(os.Interrupt)
	} else {
		signal.Notify(sigint, os.Interrupt)
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	say("id fake-"+scenario+" v1", "Mosquito;Ladybug;Pillbug", "ok")
	g := rules.NewGame(rules.Base)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		verb, arg, _ := strings.Cut(in.Text(), " ")
		switch verb {
		case "exit":
			return
		case "newgame":
			if arg == "" {
				arg = "Base"
			}
			var err error
			if g, err = rules.ParseGameString(arg); err != nil {
				say("err "+err.Error(), "ok")
				continue
			}
			if scenario == "trailing-semicolon" {
				say(g.GameString()+";", "ok")
				continue
			}
			say(g.GameString(), "ok")
		case "play":
			if err := g.Play(arg); err != nil {
				if scenario == "accepts-illegal" {
					say(g.GameString(), "ok")
					continue
				}
				say("invalidmove "+err.Error(), "ok")
				continue
			}
			say(g.GameString(), "ok")
		case "undo":
			g.Undo(2)
			say(g.GameString(), "ok")
		case "validmoves":
			moves := g.ValidMoveStrings()
			if scenario == "nokamute-validmoves" && len(moves) > 1 {
				moves = moves[1:]
			}
			say(strings.Join(moves, ";"), "ok")
		case "options":
			say("ok")
		case "bestmove":
			how, limit, _ := strings.Cut(arg, " ")
			if how == "depth" && scenario == "crash-depth" {
				os.Exit(3)
			}
			if how == "time" {
				if strings.Contains(limit, ".") && (scenario == "whole-seconds" || scenario == "die-on-int") {
					say("err String was not recognized as a valid TimeSpan.", "ok")
					continue
				}
				var h, m int
				var s float64
				fmt.Sscanf(limit, "%d:%d:%f", &h, &m, &s)
				select {
				case <-time.After(time.Duration((float64(h*3600+m*60) + s) * float64(time.Second))):
				case <-sigint:
				}
			}
			say(g.ValidMoveStrings()[0], "ok")
		case "bench":
			if scenario != "good" {
				say("err Invalid command.", "ok")
				continue
			}
			say("nodes=1300818 time=2694 nps=482761 depth=5 positions=9 threads=1", "ok")
		default:
			say("err Invalid command.", "ok")
		}
	}
}

func checkFake(t *testing.T, scenario string) map[string]Result {
	t.Helper()
	e := arbiter.EngineConfig{Name: "fake", Command: []string{os.Args[0]},
		Env: []string{fakeEnv + "=" + scenario, "GORACE=atexit_sleep_ms=0"}}
	results, err := Check(t.Context(), e, Options{Games: 1, Plies: 8, Seed: 1, Margin: 300 * time.Millisecond, Grace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Result{}
	for _, r := range results {
		if _, dup := byName[r.Name]; dup {
			t.Errorf("two results named %q", r.Name)
		}
		byName[r.Name] = r
	}
	return byName
}

// row finds the result whose name starts with prefix.
func row(t *testing.T, results map[string]Result, prefix string) Result {
	t.Helper()
	for name, r := range results {
		if strings.HasPrefix(name, prefix) {
			return r
		}
	}
	t.Fatalf("no check %q among %v", prefix, results)
	return Result{}
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
			if r := row(t, results, "SIGINT during bestmove"); r.Passed != tc.sigintPassed {
				t.Errorf("SIGINT check: %+v", r)
			}
			if r := row(t, results, "time setting"); r.Passed != tc.settingPassed || !strings.Contains(r.Detail, tc.setting) {
				t.Errorf("time setting: %+v; want it to say %s", r, tc.setting)
			}
			if tc.scenario == "die-on-int" {
				// Each row judges one thing: the engine is started again after it died.
				for _, name := range []string{"illegal move", "unknown command", "options"} {
					if r := row(t, results, name); !r.Passed {
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
			if r.Passed {
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
				if r := row(t, results, "bestmove time 00:00:01"); !r.Passed {
					t.Errorf("the row after the crash repeats it: %+v", r)
				}
			}
		})
	}
}

func TestSkippedChecksAreShown(t *testing.T) {
	e := arbiter.EngineConfig{Name: "nope", Command: []string{"./no-such-engine"}}
	results, err := Check(t.Context(), e, Options{})
	if err == nil || len(results) != 2 || results[0].Passed || !results[1].Skipped {
		t.Errorf("got %+v, %v; want a failed start and the rest skipped", results, err)
	}
}

// TestCheckReportsBench: an engine's bench, a node count that signs its build, is shown when
// the engine has one; it is optional, so an engine without it passes.
func TestCheckReportsBench(t *testing.T) {
	if r := row(t, checkFake(t, "good"), "bench"); !r.Passed || !strings.Contains(r.Detail, "nodes=1300818") {
		t.Errorf("an engine with a bench: %+v", r)
	}
	if r := row(t, checkFake(t, "whole-seconds"), "bench"); !r.Passed || !strings.Contains(r.Detail, "no bench command") {
		t.Errorf("an engine without a bench: %+v", r)
	}
}
