package pool

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/engine/uhpengine/uhpfake"
)

// TestWorkerReportsEngineSpeed: a worker measures each engine of the run it joins, once, and
// the server's table of workers shows it: the engine's own bench (its node count and nodes per
// second) when it has one, the time of a fixed search when it has none. It measures an engine
// on the player its first slot then plays with: joining the run starts the engine twice (to
// identify it to the run, and for the slot's bench and games); the bench started it a third
// time, on its own.
func TestWorkerReportsEngineSpeed(t *testing.T) {
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")})
	log := filepath.Join(t.TempDir(), "starts")
	sub := fakeSubmission(t, 1, 4, func(c *arbiter.Config) {
		_, c.Engines[0].Env = uhpfake.Command(uhpfake.Config{ID: "instant-a", Play: "random", Seed: 4,
			Commands: map[string]string{"bench": "nodes=4242 time=7 nps=606000 depth=5"},
			FaultLog: log, Faults: []uhpfake.Fault{{On: "start", Name: "start"}}})
	})
	os.Remove(log) // the submitter's identification is not the worker's
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	var benches []EngineBench
	waitUntil(t, "the worker's measures of both engines in the server's table", 15*time.Second, func() bool {
		for _, w := range p.srv.Workers() {
			if w.Name == "w1" {
				benches = w.Benches
			}
		}
		return len(benches) == 2
	})
	byName := map[string]EngineBench{}
	for _, b := range benches {
		byName[b.Engine] = b
	}
	if a := byName["a"]; a.Nodes != 4242 || a.NPS != 606000 || a.ID != "instant-a" || a.Error != "" {
		t.Errorf("engine a (a bench): %+v, want its bench's 4242 nodes at 606000 nps", a)
	}
	if b := byName["b"]; b.Nodes != 0 || b.Search <= 0 || b.Error != "" {
		t.Errorf("engine b (no bench): %+v, want the time of its fixed search", b)
	}
	var table bytes.Buffer
	WriteWorkers(&table, p.srv.Workers(), time.Now())
	if !strings.Contains(table.String(), "a: bench 4242 nodes, 606000 nps") || !strings.Contains(table.String(), "b: depth-3 search in ") {
		t.Errorf("the workers' table does not show the measures:\n%s", table.String())
	}
	waitFinished(t, p, st.ID, 20*time.Second)
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Errorf("the worker started engine a %d times, want 2 (identified, and seated for the bench and the games)", n)
	}
}
