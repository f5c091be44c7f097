package distributed

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// playScheduled plays game i of a tournament's schedule in process, as a worker would.
func playScheduled(t testing.TB, tour *arbiter.Tournament, i int) *results.Record {
	t.Helper()
	cfg := tour.Config()
	sg := tour.Schedule().Game(i)
	side := func(e int) arbiter.Side {
		p, err := driver.Start(context.Background(), cfg.Engines[e], driver.StartEnv{})
		if err != nil {
			t.Fatal(err)
		}
		return arbiter.Side{Name: cfg.Engines[e].Name, Player: p, Time: cfg.Engines[e].Time, Margin: cfg.Engines[e].Margin}
	}
	rec, err := arbiter.PlayGame(context.Background(), arbiter.GameConfig{
		Run: tour.Run(), Seed: cfg.Seed, Index: sg.Index, Round: sg.Round, Pair: sg.Pair, Opening: sg.Opening,
		OpeningIndex: sg.OpeningIndex, Adjudication: cfg.Adjudication, CommandTimeout: time.Second, DepthTimeout: time.Second,
	}, side(sg.White), side(sg.Black))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestForgedResultsRejected publishes forged records with a worker's credentials: each is
// rejected and reported with the worker's name, its pair is played again, and the records
// hold only the honest games.
func TestForgedResultsRejected(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 2)
	cfg.SPRT = nil
	c := newCluster(t, cfg, dir)
	honest := playScheduled(t, c.tour, 0)
	if len(honest.Moves) < 3 || honest.Reason != results.ReasonMoveLimit {
		t.Fatalf("want a drawn game of several moves to forge, got %s after %d moves", honest.Reason, len(honest.Moves))
	}
	forge := func(f func(r *results.Record)) *results.Record {
		r := *honest
		r.Moves = append([]results.Move(nil), honest.Moves...)
		f(&r)
		return &r
	}
	forgeries := []struct {
		name   string
		rec    *results.Record
		reason string
	}{
		{"illegal move", forge(func(r *results.Record) { r.Moves[2].Move = "wQ wQ" }), "is illegal"},
		{"wrong result", forge(func(r *results.Record) { r.Result = results.WhiteWins }), "the final position gives Draw"},
		{"wrong run", forge(func(r *results.Record) { r.Run = "000000000000" }), "belongs to run 000000000000"},
		{"outside the schedule", forge(func(r *results.Record) { r.Game = 4 }), "outside the schedule"},
		{"another game's moves", forge(func(r *results.Record) { r.Game, r.Round, r.Pair = 2, 2, 1 }), "differ from those of game 3"},
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var coordOut *arbiter.Outcome
	var coordErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		coordOut, coordErr = Serve(ctx, c.coord)
	}()
	waitUntil(t, func() bool { return strings.Contains(c.console.String(), "Queued") })

	nc, err := Dial(c.srv.Credentials(), "forger")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	for _, f := range forgeries {
		b := mustJSON(t, Result{Worker: "forger", Record: f.rec, Engines: c.coord.Expect})
		if _, err := js.Publish(ctx, resultsSubject(c.tour.Run(), "forger"), b); err != nil {
			t.Fatalf("publishing the %s: %v", f.name, err)
		}
	}
	waitUntil(t, func() bool { return strings.Count(c.console.String(), "from worker forger") == len(forgeries) })
	for _, f := range forgeries {
		if !strings.Contains(c.console.String(), f.reason) {
			t.Errorf("the %s was not reported as %q:\n%s", f.name, f.reason, c.console)
		}
	}
	if !strings.Contains(c.console.String(), "pair 0 is played again") {
		t.Errorf("the forged pair is not played again:\n%s", c.console)
	}

	w := &Worker{Name: "honest", Creds: c.srv.Credentials()}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := w.Run(ctx); err != nil {
			t.Errorf("worker: %v", err)
		}
	}()
	wg.Wait()
	if coordErr != nil {
		t.Fatal(coordErr)
	}
	if coordOut.Tally.Games != 4 {
		t.Errorf("%d games counted, want 4", coordOut.Tally.Games)
	}
	recs, err := results.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Game == 0 && (r.Result != honest.Result || r.GameString != honest.GameString) {
			t.Errorf("game 1 recorded as %s %q, the honest game is %s %q", r.Result, r.GameString, honest.Result, honest.GameString)
		}
	}
	st := c.coord.Status()
	for _, ws := range st.Workers {
		if ws.Name == "forger" && ws.Rejected != len(forgeries) {
			t.Errorf("forger: %d rejected results, want %d", ws.Rejected, len(forgeries))
		}
	}
}

// TestWorkerPermissions: a worker's credentials cannot touch the queue beyond pulling its
// run's work, nor another run's subjects.
func TestWorkerPermissions(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 1)
	c := newCluster(t, cfg, dir)
	denied := make(chan string, 10)
	nc, err := Dial(c.srv.Credentials(), "probe", nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			denied <- err.Error()
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	run := c.tour.Run()
	for _, subj := range []string{
		workSubject(run), // queueing work
		"$JS.API.STREAM.PURGE." + workStream(run), // emptying the queue
		"$JS.API.CONSUMER.DELETE." + workStream(run) + "." + workConsumer,
		resultsSubject("000000000000", "w"), // another run's results
	} {
		nc.Publish(subj, []byte("{}"))
		nc.Flush()
		select {
		case msg := <-denied:
			if !strings.Contains(msg, subj) {
				t.Errorf("publishing to %s: %s", subj, msg)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("a worker may publish to %s", subj)
		}
	}
	if _, err := nc.Subscribe(resultsSubject(run, "*"), func(*nats.Msg) {}); err == nil {
		nc.Flush()
		select {
		case <-denied:
		case <-time.After(5 * time.Second):
			t.Errorf("a worker may read other workers' results")
		}
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
