package distributed

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// TestForfeitOnWorkers: under -on-engine-failure forfeit, an engine that breaks on a worker
// (it started to be identified, and then cannot be started twice in a row) forfeits its games
// there, as in a local run, and the run ends with every game recorded. The worker used to
// leave the run with the engine's start error, whatever the policy, and the run waited for
// another worker.
func TestForfeitOnWorkers(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 2)
	cfg.SPRT = nil
	cfg.OnEngineFailure = arbiter.ForfeitOnFailure
	// Started twice: by the coordinator's Identify and the worker's, then never again.
	cfg.Engines[1].Command = []string{"limited", "starts=2"}
	detLimited.Lock()
	delete(detLimited.starts, "weak") // a test run before, with -count
	detLimited.Unlock()
	c := newCluster(t, cfg, dir)
	stop := c.serve()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := (&Worker{Name: "w", Creds: c.srv.Credentials()}).Run(ctx); err != nil {
		t.Fatalf("the worker: %v, want the run played to its end", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the run did not end within 20 s")
	}
	recs, err := results.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d games recorded, want 4\n%s", len(recs), c.console)
	}
	for _, r := range recs {
		if r.ScoreOf("weak") != 0 || r.Reason != results.ReasonCrash {
			t.Errorf("game %d: %s (%s: %s), want weak's forfeit", r.Game+1, r.Result, r.Reason, r.Detail)
		}
	}
}

// TestRefereeForfeitNeedsThePolicy: a result whose losing side has no id (an engine that broke
// on its worker was never started) passes the id check only under the forfeit policy, and only
// for the side that lost by its crash.
func TestRefereeForfeitNeedsThePolicy(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 1)
	cfg.SPRT = nil
	c := newCluster(t, cfg, dir)
	rec := playScheduled(t, c.tour, 0)
	rec.Black.ID, rec.Culprit, rec.Reason = "", "Black", results.ReasonCrash
	idRefused := func(policy arbiter.FailurePolicy, culprit string) bool {
		spec := newRunSpec(c.tour, c.coord.Expect)
		spec.OnEngineFailure = policy
		r := *rec
		r.Culprit = culprit
		err := (&referee{spec: spec, schedule: c.tour.Schedule()}).check("w", &Result{Worker: "w", Record: &r, Engines: c.coord.Expect})
		return err != nil && strings.Contains(err.Error(), `Black's engine says ""`)
	}
	if !idRefused(arbiter.AbortOnFailure, "Black") {
		t.Error("under abort, a side without an id passed the id check")
	}
	if idRefused(arbiter.ForfeitOnFailure, "Black") {
		t.Error("under forfeit, the side that lost by its crash without an id was refused for it")
	}
	if !idRefused(arbiter.ForfeitOnFailure, "White") {
		t.Error("under forfeit, a side without an id that did not lose by its crash passed the id check")
	}
}
