package distributed

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// servedRun is a run of two game pairs served in the background, with an honest record of
// its first game.
func servedRun(t *testing.T) (*cluster, *results.Record, context.Context, func() (*arbiter.Outcome, error)) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 2)
	cfg.SPRT = nil
	c := newCluster(t, cfg, dir)
	honest := playScheduled(t, c.tour, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c, honest, ctx, serveInBackground(t, c, ctx)
}

// serveInBackground serves the cluster's run until the test's workers end it.
func serveInBackground(t *testing.T, c *cluster, ctx context.Context) (wait func() (*arbiter.Outcome, error)) {
	var out *arbiter.Outcome
	var err error
	var wg sync.WaitGroup
	wg.Go(func() { out, err = Serve(ctx, c.coord) })
	waitUntil(t, func() bool { return strings.Contains(c.console.String(), "Queued") })
	return func() (*arbiter.Outcome, error) { wg.Wait(); return out, err }
}

// finishWithHonestWorker plays the rest of the run with an honest worker and returns the
// coordinator's outcome.
func finishWithHonestWorker(t *testing.T, c *cluster, ctx context.Context, wait func() (*arbiter.Outcome, error)) *arbiter.Outcome {
	t.Helper()
	w := &Worker{Name: "honest", Creds: c.srv.Credentials()}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// publishAs publishes records as a worker's results.
func publishAs(t *testing.T, c *cluster, ctx context.Context, worker string, recs ...*results.Record) {
	t.Helper()
	nc, err := Dial(c.srv.Credentials(), worker)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	for _, r := range recs {
		if _, err := js.Publish(ctx, resultsSubject(c.tour.Run(), worker), mustJSON(t, Result{Worker: worker, Record: r, Engines: c.coord.Expect})); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPairTakenOutAfterRejections: a pair whose results are rejected MaxRejections times is
// taken out of the run with the last reason, and the run ends without it.
func TestPairTakenOutAfterRejections(t *testing.T) {
	c, honest, ctx, wait := servedRun(t)
	var forged []*results.Record
	for range DefaultMaxRejections {
		r := *honest
		r.Result = results.WhiteWins
		forged = append(forged, &r)
	}
	publishAs(t, c, ctx, "forger", forged...)
	waitUntil(t, func() bool {
		return strings.Contains(c.console.String(), "pair 0 is taken out of the run after 3 rejected results")
	})
	out := finishWithHonestWorker(t, c, ctx, wait)
	if out.Tally.Games != 2 {
		t.Errorf("%d games counted, want the 2 of pair 1", out.Tally.Games)
	}
	st := c.coord.Status()
	if len(st.TakenOut) != 1 || st.TakenOut[0].Pair != 0 || !strings.Contains(st.TakenOut[0].Reason, "the final position gives Draw") {
		t.Errorf("taken out: %+v, want pair 0 with the referee's reason", st.TakenOut)
	}
}

// TestQuarantinedWorkerReplayed: the results of a worker the chi-square test flags are not
// counted, even good ones: its pairs are played again by others, and refusing them does not
// take a pair out.
func TestQuarantinedWorkerReplayed(t *testing.T) {
	c, honest, ctx, wait := servedRun(t)
	// Earlier results: the cheat won every game, the others half.
	c.coord.withWorker("cheat", func(w *WorkerStats) { w.Games, w.Wins = 40, 40 })
	c.coord.withWorker("others", func(w *WorkerStats) { w.Games, w.Wins, w.Losses = 40, 20, 20 })
	publishAs(t, c, ctx, "cheat", honest, honest, honest, honest)
	waitUntil(t, func() bool { return strings.Count(c.console.String(), "quarantined") == 4 })
	if strings.Contains(c.console.String(), "taken out") {
		t.Errorf("refusing a quarantined worker's results took a pair out:\n%s", c.console)
	}
	out := finishWithHonestWorker(t, c, ctx, wait)
	if out.Tally.Games != 4 {
		t.Errorf("%d games counted, want 4", out.Tally.Games)
	}
	for _, ws := range c.coord.Status().Workers {
		if ws.Name == "cheat" && (!ws.Flagged || ws.Games != 40) {
			t.Errorf("cheat: flagged %v with %d games counted, want flagged with its 40 earlier ones", ws.Flagged, ws.Games)
		}
	}
}
