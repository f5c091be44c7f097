package distributed

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// serve runs the cluster's coordinator in the background; stop ends it and waits for it.
func (c *cluster) serve() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Serve(ctx, c.coord)
	}()
	return func() { cancel(); <-done }
}

// refusedWorker runs a worker with engines of its own against a run served on loopback, and
// returns why it stopped; the run must have recorded no game.
func refusedWorker(t *testing.T, cfg arbiter.Config, engines ...driver.EngineConfig) error {
	t.Helper()
	c := newCluster(t, cfg, t.TempDir())
	stop := c.serve()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := (&Worker{Name: "w", Creds: c.srv.Credentials(), Engines: engines}).Run(ctx)
	stop()
	if err != nil && !strings.Contains(c.console.String(), "Worker w cannot play the run: "+err.Error()) {
		t.Errorf("the coordinator does not say why the worker cannot play (%v):\n%s", err, c.console)
	}
	if recs, _ := results.ReadFile(cfg.Out); len(recs) > 0 {
		t.Errorf("the refused worker played %d games", len(recs))
	}
	return err
}

// TestWorkerRefusedForFewerArguments: a worker whose engine leaves out the run's arguments
// would play another engine under the run's name; it is refused, before any game, naming what
// differs.
func TestWorkerRefusedForFewerArguments(t *testing.T) {
	cfg := detConfig(filepath.Join(t.TempDir(), "games.jsonl"), 2)
	cfg.SPRT = nil
	err := refusedWorker(t, cfg, driver.EngineConfig{Name: "weak", Command: []string{"det"}})
	var me *EngineMismatchError
	want := `distributed: engine "weak": the run passes arg blunder=40; this worker's -engine has none`
	if !errors.As(err, &me) || err.Error() != want {
		t.Fatalf("err = %v, want an EngineMismatchError: %s", err, want)
	}
}

// TestWorkerRefusesEngineWithoutExpansions: a worker's engine that does not play the run's
// game type is refused before any game, with the error a local run gives.
func TestWorkerRefusesEngineWithoutExpansions(t *testing.T) {
	cfg := detConfig(filepath.Join(t.TempDir(), "games.jsonl"), 2)
	cfg.SPRT = nil
	narrow := cfg.Engines[1]
	narrow.Env = []string{"DET_PLAYS=Base+M"}
	err := refusedWorker(t, cfg, narrow)
	var se *arbiter.EngineStartError
	var xe *arbiter.ExpansionError
	if !errors.As(err, &se) || se.Engine != "weak" || !errors.As(err, &xe) {
		t.Fatalf("err = %v, want an arbiter.EngineStartError with an arbiter.ExpansionError for weak", err)
	}

	local := detConfig(filepath.Join(t.TempDir(), "local.jsonl"), 2)
	local.SPRT = nil
	local.Engines[1].Env = narrow.Env
	tour, err2 := arbiter.NewTournament(local, arbiter.TournamentOptions{})
	if err2 != nil {
		t.Fatal(err2)
	}
	if _, err2 = tour.Play(context.Background()); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("a local run says %v; the worker %v: want the same", err2, err)
	}
}

// TestWorkerPlaysWithTheRunsArguments: a worker's engine whose arguments are the run's but for a
// local path plays with them, and with the run's options, which it does not give.
func TestWorkerPlaysWithTheRunsArguments(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 2)
	cfg.SPRT = nil
	cfg.Engines[1].Command = []string{"det", "blunder=40", "--book=/coordinator/book.txt"}
	cfg.Engines[1].Options = []driver.EngineOption{{Name: "Hash", Value: "64"}}
	c := newCluster(t, cfg, dir)
	startedDet()
	mine := []string{"det", "blunder=40", "--book=/worker/book.txt"}
	out := c.run(context.Background(), &Worker{Name: "w", Engines: []driver.EngineConfig{{Name: "weak", Command: mine}}})
	weak := 0
	for _, e := range startedDet() {
		if e.Name != "weak" {
			continue
		}
		weak++
		if !slices.Equal(e.Command, mine) || !slices.Equal(e.Options, cfg.Engines[1].Options) || e.Time != cfg.Engines[1].Time {
			t.Errorf("the worker started weak as %q with options %v at %s, want %q with the run's %v at %s",
				e.Command, e.Options, e.Time, mine, cfg.Engines[1].Options, cfg.Engines[1].Time)
		}
	}
	if weak == 0 {
		t.Errorf("the worker never started weak")
	}
	if out.Tally.Games != 4 {
		t.Errorf("%d games played, want 4", out.Tally.Games)
	}
}

// TestWorkerRestartsOnRequest: an engine with restart=on gets a fresh process for every game
// on a worker, as in a local run; the other engine keeps its one.
func TestWorkerRestartsOnRequest(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 2)
	cfg.SPRT = nil
	cfg.Engines[1].Command = []string{"det"} // never at fault, so never restarted for a fault
	cfg.Engines[0].Restart = true
	c := newCluster(t, cfg, dir)
	startedDet()
	out := c.run(context.Background(), &Worker{Name: "w"})
	starts := map[string]int{}
	for _, e := range startedDet() {
		starts[e.Name]++
	}
	// Each is started once more, to be identified before the worker joins.
	if starts["strong"] != 1+4 || starts["weak"] != 1+1 {
		t.Errorf("in 4 games the worker started strong (restart=on) %d times and weak %d times; want 5 and 2", starts["strong"], starts["weak"])
	}
	if out.Tally.Games != 4 {
		t.Errorf("%d games played, want 4", out.Tally.Games)
	}
}

// TestWorkerDefaultName: a worker given no name takes DefaultWorkerName, as the command's
// -name says, before it first dials.
func TestWorkerDefaultName(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := &Worker{Creds: &Credentials{URL: "nats://127.0.0.1:1", Run: "r"}}
	if err := w.Run(ctx); err == nil {
		t.Fatal("a worker ran with no coordinator")
	}
	if w.Name != DefaultWorkerName() {
		t.Errorf("name %q, want %q", w.Name, DefaultWorkerName())
	}
}
