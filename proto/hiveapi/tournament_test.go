//go:build unix

package hiveapi

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/console"
	_ "hivearbiter/proto/uhp" // proto=uhp, the default
	"hivearbiter/results"
)

// TestTournamentWithUHPEngine plays a round-robin of a UHP engine (the bundled hivebot, from
// the test binary) and two Hive API modules on different transports, every move refereed: a
// Hive API module is an engine like any other.
func TestTournamentWithUHPEngine(t *testing.T) {
	dir := t.TempDir()
	st := driver.TimeControl{MoveTime: 2 * time.Second}
	uhp := driver.EngineConfig{Name: "hivebot", Command: []string{os.Args[0]}, Env: []string{fakeEnv + "=uhp"}, Time: st,
		Settings: map[string]string{"fractional": "true"}}
	stdio := fakeEngine(t, "module-stdio", TransportStdio, "random")
	ipc := fakeEngine(t, "module-ipc", TransportIPC, "no-id")
	cfg := arbiter.Config{
		Format: arbiter.RoundRobin, Engines: []driver.EngineConfig{uhp, stdio, ipc},
		Rounds: 1, GamesPerPairing: 2, GameType: "Base+MLP", Concurrency: 1, Seed: 16,
		Adjudication: arbiter.Adjudication{MaxPlies: 80},
		Out:          filepath.Join(dir, "games.jsonl"),
	}
	var lines bytes.Buffer
	tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(&lines, console.Options{})}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := tour.Play(ctx)
	if err != nil {
		t.Fatalf("%v\n%s", err, lines.String())
	}
	recs, err := results.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 || out.Scheduled != 6 {
		t.Fatalf("%d games recorded of %d scheduled, want 6\n%s", len(recs), out.Scheduled, lines.String())
	}
	for _, r := range recs {
		t.Logf("game %d: %s (%s) vs %s (%s): %s after %d plies, %s", r.Game, r.White.Name, r.White.ID, r.Black.Name, r.Black.ID, r.Result, len(r.Moves), r.Reason)
		if r.Reason.IsFault() || len(r.Moves) == 0 {
			t.Errorf("game %d (%s vs %s): %s after %d moves: %s: %s", r.Game, r.White.Name, r.Black.Name, r.Result, len(r.Moves), r.Reason, r.Detail)
		}
		for _, p := range []results.Player{r.White, r.Black} {
			if p.ID == "" {
				t.Errorf("game %d: %s has no ID", r.Game, p.Name)
			}
		}
	}
}
