package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/testenv"
)

// TestCheckEachProtocol checks an engine of every protocol with that protocol's own suite,
// each passing every check: the bundled engine over UHP and over UGI, the docs' Python bot
// (proto=gamestring), and a Hive API module under Node. Before each protocol had its suite,
// every engine that was not UGI got the UHP suite, and the bot and the module failed it.
func TestCheckEachProtocol(t *testing.T) {
	tests := []struct {
		name   string
		engine func(t *testing.T) []string
		rows   []string // checks the output must show
	}{
		// A bench of depth 1: a race-built hivebot takes 25 s at its default depth, over the
		// 20 s the optional rows share (compliance.DefaultOptionalBudget).
		{"uhp", func(*testing.T) []string { return []string{"builtin=hivebot", "arg=-profile", "arg=weak", quickBench} },
			[]string{"start and banner", "validmoves against the referee (2 random Base+MLP games)", "SIGINT during bestmove", "bench (optional)",
				"overshoot of timed searches", "option.Threads=1 (one search thread)", "same answer to the same search"}},
		{"ugi", func(*testing.T) []string { return []string{"builtin=hivebot", "proto=ugi", "arg=-profile", "arg=weak"} },
			[]string{"ugi: id lines and ugiok", "game types accepted by position", "query p1turn, gameover, result", "info error",
				"go movetime 500", "within Black's time", "go infinite", "bestmove pass", "option.Threads=1 (one search thread)",
				"same answer to the same search"}},
		{"gamestring", func(t *testing.T) []string {
			python := testenv.NeedPython(t)
			bot := filepath.Join(t.TempDir(), "bot.py")
			if err := os.WriteFile(bot, []byte(docsPythonBot(t)), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"cmd=" + python, "arg=" + bot, "proto=gamestring", "validmoves=true", "name=mybot"}
		}, []string{`"randombot 1.0"`, "first move within its time (st=1)", "game 1: Base as White", "game 2: Base+MLP as Black", "exits at the end of its input"}},
		{"hiveapi", func(t *testing.T) []string {
			node := testenv.NeedNode(t)
			dir := filepath.Join("..", "..", "proto", "hiveapi", "testdata")
			return []string{"proto=hiveapi", "cmd=" + node, "arg=" + filepath.Join(dir, "ipc.js"), "arg=" + filepath.Join(dir, "forager.js"), "transport=ipc", "name=forager"}
		}, []string{"transport=ipc", `"forager 1.0.0 by Hive Arbiter tests`, "game 1: Base as White", "game 2: Base+MLP as Black", "leaves when its transport closes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check", "-games", "2", "-plies", "12", "-engine"}, tt.engine(t)...)
			if err := run(context.Background(), args, &stdout, &stderr); err != nil {
				t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
			}
			out := stdout.String()
			for _, want := range append(tt.rows, "All ") {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			t.Log("\n" + out)
		})
	}
}

// pythonBlock is a Python code block of a Markdown page.
var pythonBlock = regexp.MustCompile("(?s)```python\n(.*?)```")

// docsPythonBot is the random bot in Python that the docs (the README, or a page under docs/)
// give as a complete bot: the one that prints "randombot 1.0" first.
func docsPythonBot(t *testing.T) string {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	for _, page := range append([]string{filepath.Join("..", "..", "README.md")}, pages...) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range pythonBlock.FindAllStringSubmatch(string(data), -1) {
			if strings.Contains(m[1], `print("randombot 1.0"`) {
				return m[1]
			}
		}
	}
	t.Fatal(`no page of the docs has the Python bot that prints "randombot 1.0"`)
	return ""
}
