package hivebot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/golden"
)

// perftTiming matches the measured part of a perft line, which no golden file can fix.
var perftTiming = regexp.MustCompile(`in +[0-9,]+ ms\. +[0-9,.a-zA-Z]+ KN/s$`)

// transcript runs hivebot on a script (a testdata/*.uhp file: an optional "# args: ..." line
// with the command-line flags, then the input) and returns the conversation: each command
// after "> ", then hivebot's reply to it.
func transcript(t *testing.T, script string) string {
	t.Helper()
	var args []string
	if first, rest, ok := strings.Cut(script, "\n"); ok && strings.HasPrefix(first, "# args:") {
		args = strings.Fields(strings.TrimPrefix(first, "# args:"))
		script = rest
	}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if code := Main(ctx, args, strings.NewReader(script), &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr.String())
	}

	// Pair replies (each ending in "ok") with the commands that caused them: the first reply
	// is the banner; blank lines get no reply; nothing after "exit" is read.
	var commands []string
	for line := range strings.SplitSeq(script, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(line), "exit") {
			commands = append(commands, line)
			break
		}
		commands = append(commands, line)
	}
	var out strings.Builder
	out.WriteString("# hivebot " + strings.Join(args, " ") + "\n")
	reply := 0
	for line := range strings.SplitSeq(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		line = perftTiming.ReplaceAllString(line, "in <t> ms. <r> KN/s")
		out.WriteString(line + "\n")
		if line == "ok" && reply < len(commands) {
			out.WriteString("> " + commands[reply] + "\n")
			reply++
		}
	}
	return out.String()
}

// TestTranscripts checks whole UHP conversations against golden files: every command, every
// error text, the game-over cases and GameString loading. Run with -update to rewrite them.
func TestTranscripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "*.uhp"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".uhp")
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := transcript(t, string(script))
			golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
		})
	}
}
