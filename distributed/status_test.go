package distributed

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestStatusWhileStarting: Status may be asked of a coordinator from another goroutine while
// Serve starts it (a pool's scheduler does, as a worker asks for work). Under the race
// detector this failed when Start set the workers' table without the coordinator's lock.
func TestStatusWhileStarting(t *testing.T) {
	dir := t.TempDir()
	c := newCluster(t, detConfig(filepath.Join(dir, "games.jsonl"), 1), dir)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() {
		for ctx.Err() == nil {
			if st := c.coord.Status(); st.Run != c.tour.Run() {
				t.Errorf("status of run %q, want %q", st.Run, c.tour.Run())
				return
			}
		}
	})
	stop := c.serve()
	defer stop()
	waitUntil(t, func() bool { return strings.Contains(c.console.String(), "Queued") })
}
