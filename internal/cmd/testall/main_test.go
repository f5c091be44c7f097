package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/internal/testkit/testenv"
)

// goOnly makes the environment of a machine with nothing but Go: no C compiler, so no race
// detector, and a PATH that holds go alone, so no Chromium and no Node.
func goOnly(t *testing.T, ci string) {
	goPath, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CGO_ENABLED", "0")
	t.Setenv("PATH", filepath.Dir(goPath)) // go test puts GOROOT/bin, which holds go and gofmt, first
	t.Setenv("CI", ci)
}

// durations are go test's timings, which differ from run to run.
var durations = regexp.MustCompile(`\t(\d+\.\d+s|\(cached\))\n`)

// TestGoOnlyMachine runs testall over testdata/fixture as the README's command runs on a
// machine with only Go: it passes, and the summary says what was skipped and why.
func TestGoOnlyMachine(t *testing.T) {
	goOnly(t, "")
	t.Chdir(filepath.Join("testdata", "fixture"))
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), nil, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	got := durations.ReplaceAllString(stdout.String(), "\t(time)\n")
	// On macOS -race needs no C compiler, so whether it is on depends on the platform.
	got = strings.Replace(got, "go test -json -race", "go test -json", 1)
	if why := raceUnavailable(context.Background()); why != "" {
		off := "\nRace detector off: " + why + "\n"
		if !strings.Contains(got, off) {
			t.Errorf("the summary does not say the race detector was off:\n%s", got)
		}
		got = strings.Replace(got, off, "", 1)
	}
	// Packages end in no set order; sort their lines, between the command and the summary.
	packages, summary, _ := strings.Cut(got, "\n\n")
	lines := strings.Split(packages, "\n")
	slices.Sort(lines[1:])
	got = strings.Join(lines, "\n") + "\n\n" + summary
	golden.Check(t, filepath.Join("..", "goonly.golden"), []byte(got))
}

// TestCINeedsRace: with CI=true, a machine without the race detector fails at once.
func TestCINeedsRace(t *testing.T) {
	goOnly(t, "true")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), nil, &stdout, &stderr)
	if err == nil || errors.Is(err, errFailed) || !strings.Contains(err.Error(), "CI=true requires the race detector") ||
		!strings.Contains(err.Error(), "apt-get install gcc") {
		t.Errorf("run = %v, want the race detector required and how to get it", err)
	}
	if stdout.Len() > 0 {
		t.Errorf("tests ran:\n%s", stdout.String())
	}
}

// TestCIFailsMissingProgram: under CI=true, a test whose program is missing fails, and the
// summary names it, and it alone.
func TestCIFailsMissingProgram(t *testing.T) {
	testenv.NeedRace(t) // as the CI run has it; without it testall stops before any test
	t.Setenv("CI", "true")
	// The fixture's other tests need Chromium and Node, which this machine may lack: stand-ins
	// in PATH, found and never run, keep its programs out of the list of failures.
	bin := t.TempDir()
	for _, name := range []string{"chromium", "node"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(filepath.Join("testdata", "fixture"))
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), nil, &stdout, &stderr); !errors.Is(err, errFailed) {
		t.Fatalf("run = %v, want %v\n%s%s", err, errFailed, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		"needs testall-missing, not in PATH; install it: apt-get install testall-missing (CI=true: failing instead of skipping)\n",
		"--- FAIL: TestNeedsMissing",
		"\nFailed:\n        hivearbiter/internal/cmd/testall/testdata/fixture.TestNeedsMissing\n\n3 passed, 1 failed, 0 skipped\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestRaceFlagGiven: a -race flag given is go test's, as given, and testall neither adds its
// own nor requires one under CI=true; the summary says the race detector was off.
func TestRaceFlagGiven(t *testing.T) {
	goOnly(t, "true")
	t.Chdir(filepath.Join("testdata", "fixture"))
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-race=false", "-run", "TestPasses", "."}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"go test -json -timeout 30m -race=false -run TestPasses .\n", "\nRace detector off: turned off by the -race flag given\n",
		"\n1 passed, 0 failed, 0 skipped\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, tc := range []struct {
		args      []string
		on, given bool
	}{
		{[]string{"-race"}, true, true},
		{[]string{"--race=false", "./..."}, false, true},
		{[]string{"-race=1"}, true, true},
		{[]string{"-run", "Race", "./race"}, false, false},
	} {
		if on, given := raceFlag(tc.args); on != tc.on || given != tc.given {
			t.Errorf("raceFlag(%q) = %v, %v; want %v, %v", tc.args, on, given, tc.on, tc.given)
		}
	}
}
