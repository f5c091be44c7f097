package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkLine runs a check of the engine and returns the words of the match command it ends
// with, as a shell splits them, without "arbiter".
func checkLine(t *testing.T, engine ...string) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "1", "-plies", "4", "-engine"}, engine...)
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	for line := range strings.Lines(stdout.String()) {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "arbiter match "); ok {
			return append([]string{"match"}, shellSplit(cmd)...)
		}
	}
	t.Fatalf("the check prints no match command:\n%s", stdout.String())
	return nil
}

// shellSplit splits a line as a POSIX shell splits what cli.QuoteArgs writes: words separated
// by spaces, single quotes (or double quotes, around a single quote) keeping a word whole.
func shellSplit(line string) []string {
	var words []string
	var w strings.Builder
	inWord, quoted, doubled := false, false, false
	for _, r := range line {
		switch {
		case r == '\'' && !doubled:
			quoted, inWord = !quoted, true
		case r == '"' && !quoted:
			doubled, inWord = !doubled, true
		case r == ' ' && !quoted && !doubled:
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// playPasted plays a match of the words pasted, with a short schedule: it must succeed.
func playPasted(t *testing.T, words []string) string {
	t.Helper()
	args := append(slices.Clone(words), "-rounds", "1", "-maxplies", "6", "-openings", "plies=2", "-out", filepath.Join(t.TempDir(), "games.jsonl"))
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("the pasted line %q failed: %v\n%s%s", words, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// TestCheckLinePlaysAsPasted: the match command a check ends with plays as it is printed, for
// an engine of the user's and for the bundled engine (named hivebot, not after the arbiter's
// binary); its -engine line given for two builds of one engine (a gate), each with its own
// cmd=, plays too, each build named after its program's path.
func TestCheckLinePlaysAsPasted(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		words := checkLine(t, append(fakeEngineArgs("fake", "deterministic")[1:], "st=0.2")...)
		if !slices.Contains(words, "st=0.2") || slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "name=") }) {
			t.Errorf("the line %q lacks the limit checked, or names the engine", words)
		}
		playPasted(t, words)

		// A gate: the engine's -engine line twice, each with a build of its own.
		second := slices.Index(words[2:], "-engine") + 2
		line := words[2:second]
		var gate []string
		for _, build := range []string{"base", "dev"} {
			program := filepath.Join(t.TempDir(), build, "engine")
			if err := os.MkdirAll(filepath.Dir(program), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(os.Args[0], program); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			gate = append(gate, "-engine")
			for _, w := range line {
				if strings.HasPrefix(w, "cmd=") {
					w = "cmd=" + program
				}
				gate = append(gate, w)
			}
		}
		out := playPasted(t, append([]string{"match"}, gate...))
		if !strings.Contains(out, "base/engine vs dev/engine") {
			t.Errorf("the builds are not named after their paths:\n%s", out)
		}
	})
	t.Run("builtin", func(t *testing.T) {
		words := checkLine(t, "builtin=hivebot", "arg=-profile", "arg=weak", quickBench, "st=0.2")
		if words[2] != "builtin=hivebot" || !slices.Contains(words, "option.Threads=1") {
			t.Errorf("the bundled engine's line is %q, want builtin=hivebot and option.Threads=1", words)
		}
		out := playPasted(t, words)
		if !strings.Contains(out, "(hivebot vs hivebot-2)") {
			t.Errorf("the bundled engine is not named hivebot:\n%s", out)
		}
	})
}
