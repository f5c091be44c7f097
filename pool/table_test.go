package pool

import (
	"bytes"
	"testing"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/internal/golden"
	"hivearbiter/results"
)

// TestTables: the tables of "arbiter server runs" and "arbiter server workers", against their
// golden files: an active SPRT with its ETA, a run with a pair taken out, a stopped one; a
// worker playing with its engines' speeds, a flagged one, a revoked one, one gone.
func TestTables(t *testing.T) {
	now := time.Date(2026, 11, 24, 22, 0, 0, 0, time.UTC)
	elo, eloErr := 12.3, 4.5
	runs := []RunState{
		{ID: "1a2b3c4d5e6f", Format: "match", Engines: []string{"new", "old"}, Priority: 1, Share: 1, State: StateActive,
			Scheduled: 1000, Rate: 2, Summary: &results.Summary{Games: 400,
				Pairings: []results.PairingSummary{{First: "new", Second: "old", Games: 400, Wins: 150, Draws: 120, Losses: 130, Elo: &elo, EloError: &eloErr}},
				SPRT:     &results.SPRTSummary{LLR: 1.234, Lower: -2.944, Upper: 2.944}}},
		{ID: "0f0f0f0f0f0f", Format: "gauntlet", Engines: []string{"a", "b", "c"}, Share: 2, State: StateFinished,
			Reason: "the schedule is complete", Scheduled: 8, Summary: &results.Summary{Games: 6},
			TakenOut: []distributed.TakenOut{{Pair: 1, Reason: "move 3 (wQ wQ) is illegal"}}},
		{ID: "ffffffffffff", Format: "match", Engines: []string{"x", "y"}, Share: 1, State: StateStopped, Reason: "stopped by a submitter", Scheduled: 20},
	}
	var out bytes.Buffer
	WriteRuns(&out, runs, now)
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
	}
	out.Reset()
	WriteWorkers(&out, workers, now)
	golden.Check(t, "testdata/workers.golden", out.Bytes())
}
