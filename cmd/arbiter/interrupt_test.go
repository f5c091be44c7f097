package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/results"
)

// TestInterruptExitsCleanly stops a real arbiter process with SIGINT or SIGTERM (what a
// cancelled CI job sends) before any game has finished, and while its engines start: it must
// exit with 130, print the command that resumes the run, print no table of empty results, and
// leave a records file that resumes.
func TestInterruptExitsCleanly(t *testing.T) {
	tests := []struct {
		name    string
		signal  syscall.Signal
		engines []string
		wait    string // the output to wait for before the signal
	}{
		{"SIGINT two engines", syscall.SIGINT, fakeEngines("think", "a", "b"), "Started game"},
		{"SIGTERM two engines", syscall.SIGTERM, fakeEngines("think", "a", "b"), "Started game"},
		{"SIGINT three engines", syscall.SIGINT, fakeEngines("think", "a", "b", "c"), "Started game"},
		{"SIGTERM during start-up", syscall.SIGTERM, fakeEngines("slow-start", "a", "b"), "Hive Arbiter"},
		{"SIGINT after games", syscall.SIGINT, append(fakeEngines("random", "a", "b"), "-rounds", "500"), "Finished game 3 "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "games.jsonl")
			args := append([]string{"match", "-out", out, "-rounds", "3", "-each", "st=5", "fractional=true"}, tc.engines...)
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
			var stdout, stderr syncbuf.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(60 * time.Second)
			for !strings.Contains(stdout.String(), tc.wait) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no %q in the output within 60 s, so no signal sent:\n%s%s", tc.wait, stdout.String(), stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(500 * time.Millisecond)
			cmd.Process.Signal(tc.signal)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != ci.ExitInterrupted {
				t.Errorf("exit: %v, want status %d", err, ci.ExitInterrupted)
			}
			text := stdout.String() + stderr.String()
			for _, bad := range []string{"panic", "goroutine ", "Results after 0 games", "Finished match"} {
				if strings.Contains(text, bad) {
					t.Errorf("output has %q:\n%s", bad, text)
				}
			}
			if !strings.Contains(text, "To resume it, run: arbiter match ") {
				t.Errorf("no resume command in the output:\n%s", text)
			}
			recs, err := results.ReadFile(out)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("records file: %v", err)
			}
			if finished := strings.Count(text, "Finished game "); len(recs) != finished {
				t.Errorf("%d records for %d games reported finished", len(recs), finished)
			}
		})
	}
}

// fakeEngines are -engine specifications of fake engines, one per name, all in one scenario.
func fakeEngines(scenario string, names ...string) []string {
	var args []string
	for _, n := range names {
		args = append(args, fakeEngineArgs(n, scenario)...)
	}
	return args
}
