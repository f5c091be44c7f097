package pool

import (
	"bytes"
	"testing"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// TestTables: the tables of "arbiter server runs" and "arbiter server workers", against their
// golden files: an active SPRT with its ETA, a run with a pair taken out and two workers taken
// out (one with games, by a person; one without, by the credential alone), a stopped one, one
// no current worker can play; a worker playing with its engines' speeds, a flagged one, a
// revoked one, one gone, one not heard from since the server started (unknown, not gone); of a server
// with a -batch of 10 minutes, a worker last seen 5 minutes ago plays on, and one 12 minutes
// ago is gone (it was judged by the default batch of a minute, and shown gone at 2 minutes).
func TestTables(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 22, 0, 0, 0, time.UTC)
	elo, eloErr := 12.3, 4.5
	runs := []RunState{
		{ID: "1a2b3c4d5e6f", Format: "match", Engines: []string{"new", "old"}, Priority: 1, Share: 1, State: StateActive,
			Scheduled: 1000, Rate: 2, Summary: &results.Summary{Games: 400,
				Pairings: []results.PairingSummary{{First: "new", Second: "old", Games: 400, Wins: 150, Draws: 120, Losses: 130, Elo: &elo, EloError: &eloErr}},
				SPRT:     &results.SPRTSummary{LLR: 1.234, Lower: -2.944, Upper: 2.944}}},
		{ID: "0f0f0f0f0f0f", Format: "gauntlet", Engines: []string{"a", "b", "c"}, Share: 2, State: StateFinished,
			Reason: "the schedule is complete", Scheduled: 8, Summary: &results.Summary{Games: 6},
			TakenOut: []distributed.TakenOut{{Pair: 1, Reason: "move 3 (wQ wQ) is illegal"}},
			Excluded: []Exclusion{{Worker: "box-3", By: "vic", At: now, Games: 3, Pairs: []int{0, 2, 3}}, {Worker: "box-4", At: now}}},
		{ID: "ffffffffffff", Format: "match", Engines: []string{"x", "y"}, Share: 1, State: StateStopped, Reason: "stopped by a submitter", Scheduled: 20},
		{ID: "a0a0a0a0a0a0", Format: "match", Engines: []string{"arm", "x"}, Share: 1, State: StateActive, Scheduled: 20,
			Fit:        []WorkerFit{{Worker: "box-1", Reason: "the run is for linux/arm64, and this worker is linux/amd64"}},
			Unplayable: "no current worker can play it (box-1: the run is for linux/arm64, and this worker is linux/amd64)"},
	}
	var out bytes.Buffer
	WriteRuns(&out, runs)
	golden.Check(t, "testdata/runs.golden", out.Bytes())

	workers := []WorkerState{
		{Name: "box-1", Slots: 4, Cores: 8, Platform: "linux/amd64", Run: "1a2b3c4d5e6f", LastSeen: now.Add(-time.Second), Games: 300, Faults: 2,
			Benches: []EngineBench{{Engine: "new", ID: "hivebot v0.2", Nodes: 1300818, NPS: 824062},
				{Engine: "old", Search: 1500 * time.Millisecond}, {Engine: "ugi", NPS: 90000, Search: 2 * time.Second},
				{Engine: "py", Error: "it needs python3"}}},
		{Name: "box-2", Slots: 1, Cores: 2, Platform: "linux/arm64", LastSeen: now.Add(-time.Minute), Games: 100, Rejected: 3,
			Flagged: []string{"1a2b3c4d5e6f"}, Unfit: []string{"0f0f0f0f0f0f: its c is another build"}},
		{Name: "old-box", Revoked: true},
		{Name: "quiet", Slots: 1, Cores: 1, Platform: "darwin/arm64", LastSeen: now.Add(-time.Hour)},
		{Name: "unheard", Batch: time.Minute}, // known by its identity, not heard from since the server started
		{Name: "slow-batch", Slots: 2, Cores: 2, Platform: "linux/amd64", Run: "1a2b3c4d5e6f", LastSeen: now.Add(-5 * time.Minute), Batch: 10 * time.Minute},
		{Name: "slow-gone", Slots: 2, Cores: 2, Platform: "linux/amd64", Run: "1a2b3c4d5e6f", LastSeen: now.Add(-12 * time.Minute), Batch: 10 * time.Minute},
	}
	out.Reset()
	WriteWorkers(&out, workers, now)
	golden.Check(t, "testdata/workers.golden", out.Bytes())
}

// TestWriteFit: what "arbiter submit" says of the workers that can play the run it handed
// over: those that can, with each of the others and its reason; or, when none can, why it waits.
func TestWriteFit(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	WriteFit(&out, &RunState{ID: "1a2b3c4d5e6f", Fit: []WorkerFit{{Worker: "box-1"},
		{Worker: "box-2", Reason: "it cannot run python3"}, {Worker: "box-3"}}})
	WriteFit(&out, &RunState{ID: "a0a0a0a0a0a0", Fit: []WorkerFit{{Worker: "box-1", Reason: "the run is for linux/arm64"}},
		Unplayable: "no current worker can play it (box-1: the run is for linux/arm64)"})
	golden.Check(t, "testdata/fit.golden", out.Bytes())
}

// TestWorkersJudgedByBatch: the server's workers list carries its -batch, by which a worker
// is judged gone: of a server whose workers ask again every 10 minutes, one that asked 5
// minutes ago is idle, and one that asked 12 minutes ago is gone.
func TestWorkersJudgedByBatch(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s := &Server{cfg: Config{Batch: 10 * time.Minute}, runs: map[string]*run{}, workers: map[string]*WorkerState{}}
	s.Assign(AssignRequest{Worker: "recent", Slots: 1}, now.Add(-5*time.Minute))
	s.Assign(AssignRequest{Worker: "silent", Slots: 1}, now.Add(-12*time.Minute))
	want := map[string]string{"recent": "idle", "silent": "gone"}
	ws := s.Workers()
	if len(ws) != len(want) {
		t.Fatalf("%d workers, want %d", len(ws), len(want))
	}
	for _, w := range ws {
		if got := w.StateText(now); got != want[w.Name] {
			t.Errorf("%s: %s, want %s", w.Name, got, want[w.Name])
		}
	}
}
