package arbiter_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/proc"
)

// With Affinity, each worker starts its players on a thread pinned to a core of its own, so
// that the engine processes it starts run there; without it, on every core.
func TestTournamentAffinityPinsEachWorker(t *testing.T) {
	all, err := proc.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 2 {
		t.Skipf("this process may run on %d CPU", len(all))
	}
	for _, affinity := range []bool{true, false} {
		cfg := baseConfig(engine("a", "random"), engine("b", "random"))
		cfg.Concurrency, cfg.Rounds, cfg.Affinity = 2, 2, affinity
		var mu sync.Mutex
		starts := 0
		pinned := map[int][]int{} // the CPUs of the starting thread, by worker
		start := arbiter.StartThroughProtocol("")
		startPinned := func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
			cpus, err := proc.AllowedCPUs() // the calling thread's, which is locked while pinned
			mu.Lock()
			starts++
			if err != nil {
				t.Error(err)
			} else if starts > 2 { // the preflight's starts, of a and b, come first and are not pinned
				if prev, ok := pinned[worker]; ok && !slices.Equal(prev, cpus) {
					t.Errorf("worker %d started players on CPUs %v, then %v", worker, prev, cpus)
				}
				pinned[worker] = cpus
			}
			mu.Unlock()
			return start(ctx, e, worker)
		}
		tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Start: startPinned})
		if _, err := tour.Play(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(pinned) == 0 {
			t.Fatal("no worker started a player")
		}
		for w, cpus := range pinned {
			want := all
			if affinity {
				want = []int{all[w]}
			}
			if !slices.Equal(cpus, want) {
				t.Errorf("affinity %v: worker %d started its players on CPUs %v, want %v", affinity, w, cpus, want)
			}
		}
	}
}
