package distributed

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestYieldedWorkerPlaysAPair: a worker told to yield before it has joined (its joining took
// longer than its batch) still plays a pair of the run, then leaves it. It used to leave at
// once, so that a pool's worker whose engines started slowly joined the run again and again
// and never played.
func TestYieldedWorkerPlaysAPair(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 3)
	cfg.SPRT = nil
	c := newCluster(t, cfg, dir)
	stop := c.serve()
	defer stop()
	yield := make(chan struct{})
	close(yield)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w := &Worker{Name: "slow", Creds: c.srv.Credentials(), Yield: yield}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("the yielded worker did not leave the run")
	}
	// Its results were published before it left: the coordinator takes them in a moment.
	deadline := time.Now().Add(10 * time.Second)
	for c.coord.Status().Collected < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := c.coord.Status().Collected; n != 2 {
		t.Errorf("the yielded worker's results: %d games recorded after 10 s, want the 2 of one pair", n)
	}
}
