package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/configs"
	"hivearbiter/results"
)

// TestDemoShortened runs the embedded default configuration, cut to one round (one game pair),
// with the bundled engine as real subprocesses: every game must end normally, by the rules or
// by an adjudication, never by an engine fault. The engines keep the demo's game clock, with a
// margin wide enough for a loaded machine: under the race detector, with every core busy,
// hivebot ran its clock down and answered a 0.09 s search after 0.37 s, and lost on time.
func TestDemoShortened(t *testing.T) {
	t.Parallel() // its own records file
	cfg, err := configs.LoadExample(configs.DefaultName, builtinResolver)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rounds = 1
	for i := range cfg.Engines {
		cfg.Engines[i].Margin = 5 * time.Second
	}
	cfg.Out = filepath.Join(t.TempDir(), "demo.jsonl")
	var stdout bytes.Buffer
	if err := playTournament(context.Background(), cfg, "", &stdout); err != nil {
		t.Fatalf("demo failed: %v\n%s", err, stdout.String())
	}
	recs, err := results.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d games recorded, want 2\n%s", len(recs), stdout.String())
	}
	for _, r := range recs {
		if r.Reason.IsFault() || r.Result == "" {
			t.Errorf("game %d ended abnormally: %s %s {%s}", r.Game, r.Result, r.Reason, r.Detail)
		}
	}
	for _, want := range []string{"Finished game 1 (", "Finished game 2 (", "Elo", "Ptnml(0-2)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the demo output lacks %q:\n%s", want, stdout.String())
		}
	}
}
