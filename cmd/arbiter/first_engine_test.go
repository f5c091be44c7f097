package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/internal/testkit/testenv"
)

// minimalEngine is the minimal UHP engine of docs/first-engine.md.
var minimalEngine = filepath.Join(repoRoot, "docs", "examples", "minimal_uhp.py")

// The minimal UHP engine of the docs passes arbiter check, every row, its valid moves
// compared with the referee's over random games of Base.
func TestMinimalUHPEnginePassesCheck(t *testing.T) {
	t.Parallel()
	python := testenv.NeedPython(t)
	var stdout, stderr bytes.Buffer
	args := []string{"check", "-games", "4", "-plies", "60", "-engine", "cmd=" + python, "arg=" + minimalEngine}
	if err := run(t.Context(), args, &stdout, &stderr); err != nil {
		t.Fatalf("check of the minimal engine: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`id "minimal-uhp 1.0"`, "-gametype=Base", "checks passed."} {
		if !strings.Contains(out, want) {
			t.Errorf("check of the minimal engine does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| warn ") || strings.Contains(out, "| FAIL ") {
		t.Errorf("check of the minimal engine has a warning or a failure:\n%s", out)
	}
}

// minimalSession is what docs/first-engine.md shows an arbiter (or a viewer) send the minimal
// engine: a game begun, a move asked for and played, one taken back, and the replies to an
// illegal move and to an unknown command.
var minimalSession = []string{
	"newgame Base",
	"validmoves",
	"play wS1",
	"bestmove time 00:00:01",
	"play bG1 wS1-",
	"play wQ -wS1",
	"undo 1",
	"play wQ",
	"bestmove depth 2",
	"newgame Base;InProgress;White[2];wS1;bG1 wS1-",
	"frobnicate",
	"options",
	"exit",
}

// TestMinimalUHPSession plays minimalSession with the minimal engine and keeps what it
// answers as a golden file, which docs/first-engine.md shows whole: "> " is what the engine
// is sent, "< " what it prints.
func TestMinimalUHPSession(t *testing.T) {
	t.Parallel()
	python := testenv.NeedPython(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, minimalEngine)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(outPipe)
	var transcript strings.Builder
	// replyLines copies the engine's lines up to its "ok" to the transcript.
	replyLines := func(after string) {
		t.Helper()
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("after %q the engine printed %q and stopped: %v\n%s", after, line, err, stderr.String())
			}
			line = strings.TrimRight(line, "\r\n")
			transcript.WriteString(strings.TrimRight("< "+line, " ") + "\n")
			if line == "ok" {
				return
			}
		}
	}
	replyLines("its start")
	for _, command := range minimalSession {
		transcript.WriteString("> " + command + "\n")
		if _, err := io.WriteString(in, command+"\n"); err != nil {
			t.Fatal(err)
		}
		if command != "exit" {
			replyLines(command)
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("the engine did not exit cleanly on exit: %v\n%s", err, stderr.String())
	}
	path := filepath.Join(repoRoot, "docs", "examples", "minimal_uhp_session.txt")
	golden.Check(t, path, []byte(transcript.String()))
	page, err := os.ReadFile(filepath.Join(repoRoot, "docs", "first-engine.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```text\n"+transcript.String()+"```\n") {
		t.Errorf("docs/first-engine.md does not show the session of %s whole:\n%s", path, transcript.String())
	}
}
