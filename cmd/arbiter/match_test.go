package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/results"
)

// fakeEngineArgs is an -engine specification running the test binary as a fake UHP engine.
func fakeEngineArgs(name, scenario string) []string {
	return fakeEngineSpec(name, fakeConfig(scenario))
}

func playMatch(t *testing.T, args ...string) ([]results.Record, string, error) {
	t.Helper()
	return playMatchTo(t, filepath.Join(t.TempDir(), "games.jsonl"), args...)
}

func playMatchTo(t *testing.T, out string, args ...string) ([]results.Record, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"match", "-out", out}, args...), &stdout, &stderr)
	recs, rerr := results.ReadFile(out)
	if rerr != nil && err == nil {
		t.Fatalf("reading records: %v", rerr)
	}
	return recs, stdout.String() + stderr.String(), err
}

// TestMatchTerminationsEndToEnd plays real engine processes that misbehave, through the whole
// stack: process, UHP client, game, adjudication, record.
func TestMatchTerminationsEndToEnd(t *testing.T) {
	tests := []struct {
		scenario string
		reason   results.Reason
		detail   string
	}{
		{"crash@4", results.ReasonCrash, "exit status 101"},
		{"hang@4", results.ReasonTimeForfeit, "loses on time"},
		{"hang-hard@4", results.ReasonTimeForfeit, "loses on time"},
		{"garbage@4", results.ReasonTimeForfeit, ""},
		{"illegal@4", results.ReasonIllegalMove, "wQ wQ"},
		{"pass@4", results.ReasonIllegalPass, "passed although"},
		{"desync@4", results.ReasonDesync, "differs from the referee's"},
		{"crash-play@4", results.ReasonCrash, ""},
		{"hang-play@4", results.ReasonStall, ""},
	}
	for _, tc := range tests {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			// A margin no engine that answers outlives on a loaded machine, but a tight one for
			// an engine whose loss on time is the point: it loses quickly, and a loss on time
			// it suffers earlier under load is still its own.
			bad := fakeEngineArgs("bad", tc.scenario)
			if tc.reason == results.ReasonTimeForfeit {
				bad = append(bad, "margin=0.1")
			}
			args := append(fakeEngineArgs("good", "random"), bad...)
			args = append(args, "-each", "st=0.3", "fractional=true", "margin=5", "-rounds", "1", "-openings", "plies=2")
			recs, output, err := playMatch(t, args...)
			// Every game ended by bad's failure: the run informs of nothing, and never exits 0.
			var stderr bytes.Buffer
			if code := exitCode(err, &stderr); code != ci.ExitEngines || !strings.Contains(stderr.String(), "every one of the 2 games ended by an engine's failure (bad 2 by "+string(tc.reason)+")") {
				t.Fatalf("exit code %d (%v), want %d saying every game failed\n%s", code, err, ci.ExitEngines, output)
			}
			if len(recs) != 2 {
				t.Fatalf("%d records, want 2\n%s", len(recs), output)
			}
			for _, r := range recs {
				if r.Reason != tc.reason || r.ScoreOf("bad") != 0 {
					t.Errorf("game %d: %s %s {%s}, want bad to lose by %s", r.Game, r.Result, r.Reason, r.Detail, tc.reason)
				}
				if !strings.Contains(r.Detail, tc.detail) {
					t.Errorf("game %d: detail %q lacks %q", r.Game, r.Detail, tc.detail)
				}
			}
			if !strings.Contains(output, "Finished game 2 (") {
				t.Errorf("no per-game line in the output:\n%s", output)
			}
		})
	}
}

// TestMatchKilledAndResumed kills the arbiter outright in the middle of a run and resumes it:
// the records must hold exactly the scheduled games, none twice.
func TestMatchKilledAndResumed(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "games.jsonl")
	args := append([]string{"match", "-out", out, "-rounds", "6", "-concurrency", "2", "-openings", "plies=2", "-maxplies", "60",
		"-each", "st=0.05", "fractional=true"}, append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...)...)
	killAfterRecords(t, out, 2, time.Minute, args...)
	before, _ := results.ReadFile(out)
	if len(before) >= 12 {
		t.Fatalf("the run finished before it could be killed (%d games): the test proves nothing", len(before))
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args[0:], &stdout, &stderr); err != nil {
		t.Fatalf("resume failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "Resuming run") {
		t.Errorf("the resumed run did not say it resumed:\n%s", stdout.String())
	}
	recs, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Fatalf("game %d recorded twice", r.Game)
		}
		seen[r.Game] = true
	}
	if len(recs) != 12 {
		t.Fatalf("%d records after resume, want exactly the 12 scheduled", len(recs))
	}
}

// TestMoveLimit: -maxmoves counts moves of each side (two plies a move) as fastchess does, the
// default limit is on, and the result block says what the limit is.
func TestMoveLimit(t *testing.T) {
	engines := append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...)
	cfg, err := matchConfig(append(slices.Clone(engines), "-each", "st=1"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Adjudication.MaxPlies != 2*configs.DefaultMaxMoves || cfg.Openings.RandomPlies != configs.DefaultOpeningPlies {
		t.Errorf("defaults: %d plies, %d opening plies; want %d and %d", cfg.Adjudication.MaxPlies, cfg.Openings.RandomPlies, 2*configs.DefaultMaxMoves, configs.DefaultOpeningPlies)
	}
	recs, output, err := playMatch(t, append(engines, "-each", "st=0.05", "fractional=true", "-maxmoves", "3", "-openings", "plies=0")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, output)
	}
	for _, r := range recs {
		if r.Reason == results.ReasonMoveLimit && len(r.Moves) != 6 {
			t.Errorf("game %d drawn by the move limit after %d plies, want 6", r.Game, len(r.Moves))
		}
	}
	if !strings.Contains(output, "draw at move 3):") {
		t.Errorf("the result block does not show the move limit:\n%s", output)
	}
}

// TestResumeDamagedRecords: a records file with a corrupt line in the middle is refused with
// its line number and the flag that goes on; with -skip-bad the run resumes, says what it
// skipped and what it removed (a cut-short last line), and plays the missing games.
func TestResumeDamagedRecords(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	args := append(fakeEngines("random", "a", "b"), "-each", "st=0.05", "fractional=true", "-rounds", "2")
	recs, output, err := playMatchTo(t, out, args...)
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records, %v\n%s", len(recs), err, output)
	}
	data, _ := os.ReadFile(out)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(out, []byte(lines[0]+"garbage\n"+lines[2]+lines[3]+`{"schema":1,"ga`), 0o644)

	var stdout, stderr bytes.Buffer
	err = run(context.Background(), append([]string{"match", "-out", out}, args...), &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitUsage || !strings.Contains(stderr.String(), "games.jsonl:2:") || !strings.Contains(stderr.String(), "add -skip-bad") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	stdout.Reset()
	if err := run(context.Background(), append([]string{"match", "-out", out, "-skip-bad"}, args...), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	for _, want := range []string{"skipped 1 line(s)", "cut short", "removed it from the file", "3 of the 4 scheduled games already played, 1 to play"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	recs, _, err = results.ReadFileWith(out, results.ReadOptions{SkipBad: true})
	if err != nil || len(recs) != 4 {
		t.Errorf("after the resume: %d records, %v; want the 4 scheduled", len(recs), err)
	}
}

// TestRecordsOfAnotherRun: a records file of another configuration is refused with exit code 2,
// naming the settings that differ.
func TestRecordsOfAnotherRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	engines := fakeEngines("random", "a", "b")
	if recs, output, err := playMatchTo(t, out, append(engines, "-each", "st=0.05", "fractional=true")...); err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v\n%s", len(recs), err, output)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"match", "-out", out, "-seed", "5", "-each", "st=0.1", "fractional=true"}, engines...), &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitUsage {
		t.Errorf("exit code %d, want %d", code, ci.ExitUsage)
	}
	for _, want := range []string{"holds games of another run", "engine a: uhp st=0.05 margin=0.2 fractional=true there, uhp st=0.1 margin=0.2 fractional=true here", "-seed: 0 there, 5 here"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestStrictStopsAtFirstMisbehaviour: -strict ends the run at the first game an engine lost by
// misbehaving, with exit code 5.
func TestStrictStopsAtFirstMisbehaviour(t *testing.T) {
	args := append(append(fakeEngineArgs("good", "random"), fakeEngineArgs("bad", "illegal@4")...),
		"-each", "st=0.05", "fractional=true", "-rounds", "5", "-strict", "-json", filepath.Join(t.TempDir(), "summary.json"))
	recs, output, err := playMatch(t, args...)
	if data, _ := os.ReadFile(args[len(args)-1]); !strings.Contains(string(data), `"status": "strict-stop"`) {
		t.Errorf("summary: %s", data)
	}
	if code := exitCode(err, io.Discard); code != ci.ExitEngines {
		t.Errorf("exit code %d, want %d", code, ci.ExitEngines)
	}
	if len(recs) >= 10 || !strings.Contains(output, "Strict: stopping at the first misbehaviour") || strings.Contains(output, "Finished match") {
		t.Errorf("%d games recorded of 10:\n%s", len(recs), output)
	}
}

// TestWarningsOnConsole: an engine's warnings (anomalies that decide nothing) were only in the
// records; the console shows each engine's first one, once.
func TestWarningsOnConsole(t *testing.T) {
	args := append(append(fakeEngineArgs("good", "random"), fakeEngineArgs("sloppy", "wrong-state")...),
		"-each", "st=0.05", "fractional=true", "-rounds", "2", "-openings", "plies=0")
	recs, output, err := playMatch(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, output)
	}
	warned := 0
	for _, r := range recs {
		warned += len(r.Warnings)
	}
	if warned < 2 {
		t.Fatalf("%d warnings in the records: the scenario did not work\n%s", warned, output)
	}
	if n := strings.Count(output, "Warning: game"); n != 1 || !strings.Contains(output, "(sloppy)") {
		t.Errorf("%d warning lines on the console, want 1 naming sloppy:\n%s", n, output)
	}
}

// TestRunWording: counts in the run's own sentences agree with the numbers: "1 game", and a
// resume with fewer rounds than the file holds says how many of the scheduled games are played
// and how many records lie beyond (it said "4 of 2 games already played").
func TestRunWording(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	engines := append(fakeEngines("random", "a", "b"), "-each", "st=0.05", "fractional=true")
	_, output, err := playMatchTo(t, out, append(slices.Clone(engines), "-games", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"match of 1 game (", "Finished match: 1 game recorded"} {
		if !strings.Contains(output, want) {
			t.Errorf("output lacks %q:\n%s", want, output)
		}
	}
	out = filepath.Join(t.TempDir(), "games.jsonl")
	if _, output, err = playMatchTo(t, out, append(slices.Clone(engines), "-rounds", "2")...); err != nil {
		t.Fatal(err)
	}
	_, output, err = playMatchTo(t, out, append(slices.Clone(engines), "-rounds", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 of the 2 scheduled games already played, 0 to play", "(2 more games in the file lie beyond this schedule"} {
		if !strings.Contains(output, want) {
			t.Errorf("resumed output lacks %q:\n%s", want, output)
		}
	}
}

// TestWholeSecondEngineOnAShortClock plays an engine like nokamute (whole seconds only, a
// search that lasts its budget, death by SIGINT) on a clock too short for it: the run says so
// before game 1, with a clock that works; no game is lost by a crash (it is never interrupted);
// and when it has lost on time three games in a row the run stops, exit 5, naming it and the fix.
func TestWholeSecondEngineOnAShortClock(t *testing.T) {
	args := append(fakeEngineArgs("nokamute", "nokamute"), fakeEngineArgs("quick", "random")...)
	args = append(args, "-each", "tc=3+0", "margin=0.5", "-rounds", "4", "-openings", "plies=2")
	recs, output, err := playMatch(t, args...)
	var stderr bytes.Buffer
	code := exitCode(err, &stderr)
	before, _, _ := strings.Cut(output, "Started game 1 ")
	for _, want := range []string{
		"Engine nokamute: reads whole seconds (probed: bestmove time 00:00:00.100 answered err",
		"never interrupted (probed: SIGINT during bestmove time 00:00:03: it died)",
		"Warning: engine nokamute reads whole seconds and is not interrupted: on 3+0 its budget is under 1 s from its move 1 (0.120 s)",
		"Clocks that last it 40 moves: tc=51+0 or longer, or st=1",
	} {
		if !strings.Contains(before, want) {
			t.Errorf("before game 1 the run does not say %q:\n%s", want, output)
		}
	}
	if code != ci.ExitEngines || !strings.Contains(stderr.String(), `engine "nokamute" failed 3 games in a row by time-forfeit`) {
		t.Errorf("exit code %d, %q; want %d, the streak of time losses\n%s", code, stderr.String(), ci.ExitEngines, output)
	}
	for _, r := range recs {
		if r.Reason == results.ReasonCrash {
			t.Errorf("game %d lost by a crash: %s", r.Game, r.Detail)
		}
	}
	if len(recs) < 3 || len(recs) >= 8 {
		t.Errorf("%d games recorded; want the run stopped at the third time loss", len(recs))
	}
}

// An engine whose overshoot creeps toward its margin is warned of on the console, once, even
// after a warning of another kind (a harmless slip), and before it loses on time.
func TestMatchWarnsOnceOfAnEngineNearItsMargin(t *testing.T) {
	cfg := fakeConfig("wrong-state")
	// 3.1 s over: 78% of its margin of 4 s, with 0.9 s to spare for a loaded machine.
	cfg.Think, cfg.Overshoot = true, 3100*time.Millisecond
	args := append(fakeEngineSpec("late", cfg), "margin=4")
	args = append(args, fakeEngineArgs("good", "deterministic")...)
	// From the empty board, where the slip (NotStarted said as InProgress) shows at once.
	args = append(args, "-each", "st=0.2", "fractional=true", "-rounds", "1", "-maxplies", "2", "-openings", "plies=0")
	recs, output, err := playMatch(t, args...)
	if err != nil {
		t.Fatalf("match: %v\n%s", err, output)
	}
	for _, r := range recs {
		if r.Reason == results.ReasonTimeForfeit {
			t.Fatalf("the late engine lost on time 0.9 s inside its margin: %s", r.Detail)
		}
	}
	if n := strings.Count(output, "s margin: a little slower and it loses on time"); n != 1 || !strings.Contains(output, "(late) ran 3.") {
		t.Errorf("the console warns %d times of an engine near its margin, want once:\n%s", n, output)
	}
	if strings.Index(output, "Warning: game 1: White (late): said InProgress") > strings.Index(output, "(late) ran 3.") {
		t.Errorf("the other warning is not shown first:\n%s", output)
	}
}

// killAfterRecords runs the arbiter (the test binary as main) with args, and kills it outright
// (SIGKILL) once the records file holds n games, failing the test if it does not within limit.
func killAfterRecords(t *testing.T, records string, n int, limit time.Duration, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(limit)
	for {
		recs, _ := results.ReadFile(records)
		if len(recs) >= n {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the arbiter recorded %d of %d games in %v", len(recs), n, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}
