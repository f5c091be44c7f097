package artifact

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/configs"
	"hivearbiter/internal/testkit/testenv"
	_ "hivearbiter/proto/gamestring" // proto=gamestring, the docs' Python bot's
)

// docsBot is the random bot in Python of the docs' protocol page: the one that greets with
// "randombot 1.0".
func docsBot(t *testing.T) string {
	t.Helper()
	block := regexp.MustCompile("(?s)```python\n(.*?)```")
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range block.FindAllStringSubmatch(string(data), -1) {
			if strings.Contains(m[1], "randombot 1.0") {
				return m[1]
			}
		}
	}
	t.Fatal("no docs page has the Python bot")
	return ""
}

// engineDir is a directory holding the docs' bot as a submitter would have it, with things an
// engine directory has besides: a subdirectory, an executable, a link inside.
func engineDir(t *testing.T) string {
	t.Helper()
	src := t.TempDir()
	writeFile(t, src, "bot.py", docsBot(t), 0o644)
	writeFile(t, src, "book/openings.txt", "wQ\n", 0o644)
	writeFile(t, src, "tools/run.sh", "#!/bin/sh\nexec python3 bot.py\n", 0o755)
	if err := os.Symlink("book/openings.txt", filepath.Join(src, "openings.txt")); err != nil {
		t.Fatal(err)
	}
	return src
}

// TestRoundTripPythonDirectory: an engine directory, submitted as arbiter match would start
// it (cmd=python3 arg=bot.py dir=...), is uploaded as an archive, fetched into a worker's
// cache as the same tree, and plays there: the protocol's compliance check passes on the
// engine the worker starts from it.
func TestRoundTripPythonDirectory(t *testing.T) {
	testenv.NeedPython(t)
	s, _ := newStore(t, Limits{})
	src := engineDir(t)
	e, err := configs.ParseEngine([]string{"name=mybot", "cmd=python3", "arg=bot.py", "dir=" + src,
		"proto=gamestring", "validmoves=true", "st=1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	source, err := FromEngine(e)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := s.Upload(t.Context(), source)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != Dir || m.Platform != AnyPlatform || m.Runtime != "python3" || !slices.Equal(m.Command, []string{"python3", "bot.py"}) {
		t.Fatalf("manifest %+v", m)
	}
	run := RunEngine(e, m)
	if run.Dir != "" {
		t.Fatalf("the run's engine keeps the submitter's directory %s", run.Dir)
	}

	f, err := s.Fetch(t.Context(), m, filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tree(t, f.Dir), tree(t, src); !slices.Equal(got, want) {
		t.Fatalf("fetched tree\n%q, want\n%q", got, want)
	}
	worker, err := f.Engine(run)
	if err != nil {
		t.Fatal(err)
	}
	if worker.Dir != f.Dir || !slices.Equal(worker.Command, []string{"python3", "bot.py"}) {
		t.Fatalf("the worker's engine: %+v", worker)
	}
	checks, err := check.Run(t.Context(), worker, compliance.Options{Games: 1, Plies: 8, Seed: 1, Margin: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	summary, failed := compliance.Summarize(checks)
	if failed || !slices.ContainsFunc(checks, func(c compliance.Result) bool { return c.Status == compliance.Passed }) {
		t.Fatalf("the fetched bot fails its check: %s\n%+v", summary, checks)
	}
	t.Log(summary)
}
