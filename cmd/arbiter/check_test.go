package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/internal/testkit/golden"
)

func TestCheckCompliantEngine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "2", "-plies", "12"}, fakeEngineArgs("fake", "deterministic")...)
	err := run(context.Background(), args, &stdout, &stderr)
	if err != nil {
		t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"newgame Base+MLP", "validmoves against the referee", "play and undo round trip",
		"bestmove time 00:00:01", "illegal move answered with invalidmove", "unknown command answered with err", "All "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAIL") {
		t.Errorf("a compliant engine failed a check:\n%s", out)
	}
}

// An engine whose answers to one search differ (the fakes' random mover, as nokamute's
// unseeded shuffle) is named among the warnings; it still passes.
func TestCheckNamesANonDeterministicEngine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "1", "-plies", "4"}, fakeEngineArgs("fake", "random")...)
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	warnings := out[strings.Index(out, "Warnings ("):]
	if !strings.Contains(warnings, "same answer to the same search (depth 3): answers differed in ") ||
		!strings.Contains(warnings, "It is not deterministic") {
		t.Errorf("the warnings do not name the engine as not deterministic:\n%s", out)
	}
}

func TestCheckFindsWrongValidMoves(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "1", "-plies", "4"}, fakeEngineArgs("fake", "bad-validmoves")...)
	err := run(context.Background(), args, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitEngines {
		t.Fatalf("exit code %d, want %d\n%s", code, ci.ExitEngines, stdout.String())
	}
	if !strings.Contains(stdout.String(), "FAIL") || !strings.Contains(stdout.String(), "the referee has") {
		t.Errorf("output does not show the failed check:\n%s", stdout.String())
	}
}

// durations and millis are scrubbed from check reports for golden files: timings differ run
// to run.
var (
	durations = regexp.MustCompile(`\b\d+(\.\d+)?(ms|s|µs)\b|\d+\.\d{3} s\b`)
	millis    = regexp.MustCompile(`\d+ ms\b`)
)

// TestCheckReportGolden keeps the report a user reads of an engine with faults: each failed row
// says what is wrong in full (-v), rows after a failure judge their own check or say they were
// not checked for want of the row that failed, and the summary counts every row.
func TestCheckReportGolden(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "1", "-plies", "4"}, fakeEngineArgs("fake", "illegal")...)
	err := run(context.Background(), args, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitEngines || !strings.Contains(stderr.String(), "2 of 26 checks failed, 5 skipped") {
		t.Fatalf("exit code %d, want %d\n%s%s", code, ci.ExitEngines, stdout.String(), stderr.String())
	}
	engine, err := configs.ParseEngine(append([]string{"st=1"}, fakeEngineArgs("fake", "illegal")[1:]...), builtinResolver)
	if err != nil {
		t.Fatal(err)
	}
	checks, err := check.Run(t.Context(), engine, compliance.Options{Games: 1, Plies: 4, Seed: 1, Margin: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	checkTableGolden(t, checks, "illegal.golden")
}

// TestCheckEndsWithWhatToDo: a check ends with the settings a match needs, whole, and an
// -engine line to paste; an engine like nokamute (whole seconds, dies of SIGINT, claims
// threefold repetition) passes with a warning, and exits 0.
func TestCheckEndsWithWhatToDo(t *testing.T) {
	t.Parallel() // its engine waits out its timed searches
	for _, scenario := range []string{"nokamute", "base-only"} {
		t.Run(scenario, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check", "-games", "1", "-plies", "4", "-searches", "4"}, fakeEngineArgs("fake", scenario)...)
			if err := run(context.Background(), args, &stdout, &stderr); err != nil {
				t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
			}
			out := stdout.String()
			advice := out[strings.LastIndex(out, "+\n")+2:]
			advice = durations.ReplaceAllString(advice, "T")
			advice = strings.ReplaceAll(advice, os.Args[0], "TEST-BINARY")
			advice = regexp.MustCompile(`env=UHPFAKE=\S+|'env=UHPFAKE=[^']*'`).ReplaceAllString(advice, "env=UHPFAKE=...")
			advice = regexp.MustCompile(`margin=\d\.\d`).ReplaceAllString(advice, "margin=M")
			advice = regexp.MustCompile(`margin \d\.\d s`).ReplaceAllString(advice, "margin M s")
			// How far the overshoot's game went: a random mover's game may end, and start again,
			// before the engine's 20th move.
			advice = regexp.MustCompile(`through moves 1 to \d+ of`).ReplaceAllString(advice, "through moves 1 to N of")
			// A random mover's answers, and the random position they answer.
			advice = regexp.MustCompile(`answers differed in .*? It is not`).ReplaceAllString(advice, "answers differed in N positions: MOVES in POSITION. It is not")
			golden.Check(t, filepath.Join("testdata", "check", scenario+"-advice.golden"), []byte(advice))
		})
	}
}

// checkTableGolden compares the table of a check's results, each detail whole and its timings
// scrubbed, with a golden file in testdata/check.
func checkTableGolden(t *testing.T, checks []compliance.Result, name string) {
	t.Helper()
	for i := range checks {
		checks[i].Detail = durations.ReplaceAllString(checks[i].Detail, "T")
		checks[i].Detail = millis.ReplaceAllString(checks[i].Detail, "T ms")
	}
	var got bytes.Buffer
	if _, err := compliance.WriteTable(&got, checks, 0); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "check", name), got.Bytes())
}

// The README writes check's engine as one quoted word; key=value words in it are split as
// match splits them.
func TestCheckEngineAsOneQuotedWord(t *testing.T) {
	var stdout, stderr bytes.Buffer
	words := fakeEngineArgs("fake", "random")[1:]
	args := []string{"check", "-games", "1", "-plies", "4", "-engine", strings.Join(words, " ")}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
}

// An engine that cannot start is told why in full, not cut to the table's width.
func TestCheckEngineThatCannotStart(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"check", "-engine", "cmd=./no-such-engine dir=" + t.TempDir()}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitEngines {
		t.Fatalf("exit code %d, want %d", code, ci.ExitEngines)
	}
	if !strings.Contains(stderr.String(), `the program "./no-such-engine" does not exist in `) || !strings.Contains(stdout.String(), "| skip ") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}
