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
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/syncbuf"
)

// TestWorkerReportsEngineSpeed: a worker measures each engine of the run it joins, once, and
// the server's table of workers shows it: the engine's own bench (its node count and nodes per
// second) when it has one, the time of a fixed search when it has none. It measures an engine
// on the player its first slot then plays with: joining the run starts the engine twice (to
// identify it to the run, and for the slot's bench and games); the bench started it a third
// time, on its own.
func TestWorkerReportsEngineSpeed(t *testing.T) {
	t.Parallel()
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

// TestTuneWorkerReportsEngineSpeed: a worker that plays a tune measures the tune's engine once,
// on the player it then tunes, as it does a match's engines, and the server's table shows it.
// The measure starts no engine of its own: each batch of the tune the worker plays seats the
// engine's two sides anew, and that is every start.
func TestTuneWorkerReportsEngineSpeed(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	sub := tuneSubmission(t, 6, 5)
	log := filepath.Join(t.TempDir(), "starts")
	_, sub.Tune.Engine.Env = uhpfake.Command(uhpfake.Config{ID: "tunable", Play: "random", Seed: 5,
		Options:  []uhpserver.Option{{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}},
		Commands: map[string]string{"bench": "nodes=777 time=3 nps=259000 depth=4"},
		FaultLog: log, Faults: []uhpfake.Fault{{On: "start", Name: "start"}}})
	st, err := p.submitter.Submit(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	console := &syncbuf.Buffer{}
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), Console: console})
	var benches []EngineBench
	waitUntil(t, "the worker's measure of the tune's engine in the server's table", 15*time.Second, func() bool {
		for _, w := range p.srv.Workers() {
			if w.Name == "w1" {
				benches = w.Benches
			}
		}
		return len(benches) > 0
	})
	if len(benches) != 1 || benches[0].Nodes != 777 || benches[0].NPS != 259000 || benches[0].Error != "" {
		t.Errorf("the tune's engine: %+v, want one measure, its bench's 777 nodes at 259000 nps", benches)
	}
	waitFinished(t, p, st.ID, 20*time.Second)
	b, _ := os.ReadFile(log)
	// tuneSubmission identified its own engine, without the log: every start logged is the
	// worker's. A batch lasts the pool's two seconds, so on a loaded machine the tune takes
	// more than one.
	batches := strings.Count(console.String(), "Worker w1 tunes ")
	if n := strings.Count(string(b), "\n"); batches == 0 || n != 2*batches {
		t.Errorf("the worker started the engine %d times in %d batches, want 2 a batch (the one slot's two sides; none more for the bench):\n%s",
			n, batches, console)
	}
}
