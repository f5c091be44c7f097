package pool

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/testenv"
	_ "hivearbiter/proto/gamestring" // the Python bot's protocol
	"hivearbiter/results"
)

// docsBot is the Python bot of docs/protocols.md, its only Python block.
func docsBot(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../docs/protocols.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```python\n")
	code, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/protocols.md has no Python block")
	}
	return code
}

// TestPythonEngineDirectory: an engine submitted as a directory with a Python program is
// uploaded as an artifact, and a worker that has python3 fetches it into its cache and plays
// the run with it.
func TestPythonEngineDirectory(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	p := newTestPool(t)
	ctx := context.Background()
	bot := filepath.Join(t.TempDir(), "bot")
	if err := os.MkdirAll(bot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bot, "bot.py"), []byte(docsBot(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := func(name string) driver.EngineConfig {
		argv, env := uhpfake.Command(uhpfake.Config{Play: "random"})
		return driver.EngineConfig{Name: name, Command: argv, Env: env, Time: driver.TimeControl{Depth: 1}}
	}
	cfg := arbiter.Config{Engines: []driver.EngineConfig{
		{Name: "mybot", Protocol: "gamestring", Command: []string{"python3", "bot.py"}, Dir: bot,
			Settings: map[string]string{"validmoves": "true"}, Time: driver.TimeControl{MoveTime: 5 * time.Second}},
		fake("fake"),
	}, Rounds: 1, Seed: 3, Adjudication: arbiter.Adjudication{MaxPlies: 20}}
	if err := cfg.Normalize(); err != nil {
		t.Fatal(err)
	}
	sub := &Submission{Config: cfg}
	if err := sub.Identify(ctx); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	startWorkers(t, &Worker{Name: "py", Creds: p.addWorker("py"), Cache: cache})
	st, err := p.submitter.SubmitEngines(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	if m := sub.Manifests[0]; m.Runtime != "python3" || m.SHA256 == "" || sub.Expect[0].SHA256 != "" || sub.Config.Engines[0].Dir == bot {
		t.Fatalf("the bot's manifest: %+v, its identity %+v, its engine %+v; want a python3 artifact that names its program, and the engine as the workers fetch it",
			m, sub.Expect[0], sub.Config.Engines[0])
	}
	waitUntil(t, "the run to finish", 30*time.Second, func() bool { return p.srv.runState(st.ID).State == StateFinished })
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != st.Scheduled {
		t.Errorf("%d games recorded, want %d", len(recs), st.Scheduled)
	}
	if _, err := os.Stat(filepath.Join(cache, sub.Manifests[0].SHA256, "bot.py")); err != nil {
		t.Errorf("the worker's cache has no bot: %v", err)
	}
}
