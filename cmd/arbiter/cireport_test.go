package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/ci"
	"hivearbiter/internal/testkit/testenv"
)

// TestGateReports runs gates as a GitHub Actions job would, with GITHUB_ACTIONS and
// GITHUB_STEP_SUMMARY set, -junit and -summary: a regression (an engine that loses every game
// by an illegal move, H0, exit 3) and the same deterministic build against itself, every pair a
// mirror. The JUnit file validates and fails or passes with the exit code, the Markdown is the
// same in -summary's file and appended to the step summary, the annotations and the mirror
// note are on standard output, and stats -sprt reports the records' gate the same way.
func TestGateReports(t *testing.T) {
	hivebot := func(name string) []string {
		return []string{"-engine", "cmd=" + os.Args[0], "arg=hivebot", "name=" + name, "env=ARBITER_TEST_MAIN=1"}
	}
	sprt := []string{"-sprt", "elo0=-50", "elo1=0", "model=logistic"}
	tests := []struct {
		name     string
		args     []string
		code     int
		decision string
		mirrors  bool
	}{
		{"regression", append(append(append([]string{"-rounds", "40", "-each", "st=0.2", "fractional=true", "-failure-streak", "0"}, sprt...),
			fakeEngineSpec("new", detConfig("new", 25, 0))...), fakeEngineSpec("released", detConfig("released", 0, 0))...), ci.ExitH0, "H0 accepted", false},
		// Three mirrors leave the LLR short of its bound: the gate decides at its cap, by the
		// final threshold, unless asked to end inconclusive there.
		{"no-op", append(append(append([]string{"-rounds", "3", "-each", "depth=1"}, sprt...), hivebot("new")...), hivebot("released")...),
			ci.ExitOK, "H1 accepted", true},
		{"no-op-inconclusive", append(append(append([]string{"-rounds", "3", "-each", "depth=1"}, append(sprt, "at_cap=inconclusive")...), hivebot("new")...), hivebot("released")...),
			ci.ExitInconclusive, "no decision", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			step := filepath.Join(dir, "step-summary.md")
			if err := os.WriteFile(step, []byte("earlier step\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GITHUB_ACTIONS", "true")
			t.Setenv("GITHUB_STEP_SUMMARY", step)
			junit, summary, records := filepath.Join(dir, "gate.xml"), filepath.Join(dir, "gate.md"), filepath.Join(dir, "gate.jsonl")
			args := append([]string{"match", "-out", records, "-concurrency", "2", "-seed", "3", "-openings", "plies=2",
				"-event", "CI regression gate", "-junit", junit, "-summary", summary}, tc.args...)
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("exit code %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			checkGateReports(t, stdout.String(), junit, summary, step, tc.code, tc.decision, tc.mirrors)
			// The banner names the test and its cap, not a match of the cap's length.
			if banner, _, _ := strings.Cut(stdout.String(), "\n"); !strings.Contains(banner, ": SPRT [-50, 0] logistic, new vs released, Base+MLP (at most ") ||
				!strings.Contains(banner, " game pairs if H0 holds, ") {
				t.Errorf("banner %q: want the SPRT, its cap and its expected length", banner)
			}

			// The records' gate, from stats -sprt.
			if err := os.WriteFile(step, []byte("earlier step\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout.Reset()
			err = run(context.Background(), append(append([]string{"stats", "-junit", junit, "-summary", summary}, sprt...), records), &stdout, &stderr)
			code := exitCode(err, &stderr)
			if code != ci.ExitOK && code != ci.ExitH0 && code != ci.ExitInconclusive {
				t.Fatalf("stats -sprt: exit code %d\n%s%s", code, stdout.String(), stderr.String())
			}
			decision := map[int]string{ci.ExitOK: "H1 accepted", ci.ExitH0: "H0 accepted", ci.ExitInconclusive: "no decision"}[code]
			checkGateReports(t, stdout.String(), junit, summary, step, code, decision, tc.mirrors)
		})
	}
}

// checkGateReports checks what a gate that exited with code left: a JUnit file that validates
// and fails when the gate did, with the decision; the Markdown in -summary's file and appended
// to the step summary; the annotations and the mirror note on standard output.
func checkGateReports(t *testing.T, stdout, junit, summary, step string, code int, decision string, mirrors bool) {
	t.Helper()
	testenv.ValidateXML(t, junit, junitSchema)
	doc := readJUnit(t, junit)
	if len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 1 {
		t.Fatalf("JUnit of a gate: %+v, want one suite of one case", doc)
	}
	c := doc.Suites[0].Cases[0]
	switch {
	case code == ci.ExitOK && c.Failure != nil:
		t.Errorf("exit 0, and the gate's case failed: %s", c.Failure.Message)
	case code != ci.ExitOK && (c.Failure == nil || !strings.HasPrefix(c.Failure.Message, decision+": ")):
		t.Errorf("exit %d, and the gate's case is %+v, want a failure beginning %q", code, c, decision)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	stepped, err := os.ReadFile(step)
	if err != nil {
		t.Fatal(err)
	}
	if want := "earlier step\n" + string(md); string(stepped) != want {
		t.Errorf("the step summary is\n%s\nwant the earlier step's, then\n%s", stepped, md)
	}
	if !strings.Contains(string(md), ": "+decision+"\n") || !strings.Contains(string(md), "| Engines |") || !strings.Contains(string(md), "Misbehaviour") {
		t.Errorf("the summary lacks the decision %q, the result table or the misbehaviour line:\n%s", decision, md)
	}
	for _, want := range []string{"H0: new is weaker than released by 50 Elo or more. H1: new is no weaker than released.",
		" game pairs if H0 holds, ", "- Limit: ", "- Game type: Base+MLP\n", "- Openings: ", "- Engine new: ", "- Engine released: "} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}
	level := "::error title=Hive Arbiter gate failed::"
	if code == ci.ExitOK {
		level = "::notice title=Hive Arbiter gate passed::"
	}
	if !strings.Contains(stdout, "\n"+level+decision+": ") {
		t.Errorf("no annotation %q on standard output:\n%s", level+decision, stdout)
	}
	if got := strings.Contains(stdout, "\nNote: Every one of the ") && strings.Contains(string(md), "**Mirrors.**"); got != mirrors {
		t.Errorf("mirror note shown: %v, want %v\n%s\n%s", got, mirrors, stdout, md)
	}
}

// TestReportFilesCheckedFirst: a -junit or -summary file that cannot be written refuses the
// command before anything is played (exit code 2), naming the flag, as every other output is.
func TestReportFilesCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "r.jsonl")
	bad := filepath.Join(dir, "no-such-dir", "report")
	tests := [][]string{
		append([]string{"match", "-out", records, "-rounds", "1", "-junit", bad}, append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...)...),
		append([]string{"match", "-out", records, "-rounds", "1", "-summary", bad}, append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...)...),
		{"stats", "-junit", bad, records},
		append([]string{"check", "-junit", bad}, fakeEngineArgs("a", "random")...),
	}
	for _, args := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, &stdout, &stderr)
		if code := exitCode(err, &stderr); code != ci.ExitUsage || !strings.Contains(stderr.String(), bad) {
			t.Errorf("%v: exit code %d, want %d naming %s\n%s%s", args[:3], code, ci.ExitUsage, bad, stdout.String(), stderr.String())
		}
		if _, err := os.Stat(records); err == nil {
			t.Fatalf("%v wrote records before refusing", args[:3])
		}
	}
}
