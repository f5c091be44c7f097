package distributed

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"hivearbiter/results"
)

// TestExcludedWorkerRefused: a worker taken out of the run (Coordinator.Excluded) is refused
// at its hello, with the reason; the run is played by the others, whose records name them.
func TestExcludedWorkerRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 4)
	cfg.SPRT = nil
	c := newCluster(t, cfg, dir)
	c.coord.Excluded = []string{"w2"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() {
		_, err := Serve(ctx, c.coord)
		served <- err
	}()
	var refused *RefusedError
	if err := (&Worker{Name: "w2", Creds: c.srv.Credentials()}).Run(ctx); !errors.As(err, &refused) || refused.Reason != ExcludedReason {
		t.Fatalf("the excluded worker: %v, want refused as taken out of the run", err)
	}
	if err := (&Worker{Name: "w1", Creds: c.srv.Credentials()}).Run(ctx); err != nil {
		t.Fatalf("w1: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("coordinator: %v\n%s", err, c.console)
	}
	recs, err := results.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != c.tour.Schedule().Len() {
		t.Errorf("%d games recorded, want %d", len(recs), c.tour.Schedule().Len())
	}
	for _, r := range recs {
		if r.Worker != "w1" {
			t.Errorf("game %d names worker %q, want w1", r.Game+1, r.Worker)
		}
	}
}
