package distributed

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/openings"
	"hivearbiter/results"
)

// detConfig is an SPRT between a player and the same player with blunders, on random openings:
// deterministic games with varied results.
func detConfig(out string, rounds int) arbiter.Config {
	st := driver.TimeControl{MoveTime: time.Second}
	return arbiter.Config{
		Engines: []driver.EngineConfig{
			{Name: "strong", Protocol: "det", Command: []string{"det"}, Time: st},
			{Name: "weak", Protocol: "det", Command: []string{"det", "blunder=40"}, Time: st},
		},
		Rounds: rounds, Seed: 11, Openings: openings.Config{RandomPlies: 2},
		Adjudication: arbiter.Adjudication{MaxPlies: 30},
		SPRT:         &arbiter.SPRTConfig{Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05},
		Out:          out,
		// weak blunders often; a streak of its blunders would stop a run at a point that
		// depends on the order games finish, which the comparison with a local run cannot use.
		FailureStreak: -1,
	}
}

// cluster is a coordinator on an embedded loopback server, and its console; newCluster gives
// its tournament the observers.
type cluster struct {
	t       testing.TB
	tour    *arbiter.Tournament
	srv     *Server
	coord   *Coordinator
	console *syncbuf.Buffer
}

func newCluster(t testing.TB, cfg arbiter.Config, dir string, observers ...arbiter.Observer) *cluster {
	t.Helper()
	tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{Observers: observers})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := Identify(context.Background(), tour.Config().Engines, tour.Config().GameType, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := StartServer(ServerConfig{Listen: "127.0.0.1:0", Run: tour.Run(), Dir: filepath.Join(dir, "nats")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := srv.Connect(srv.CoordinatorCredentials())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	con := &syncbuf.Buffer{}
	return &cluster{t: t, tour: tour, srv: srv, console: con,
		coord: &Coordinator{Tournament: tour, Conn: nc, Expect: ids, Console: con, AckWait: 2 * time.Second}}
}

// run plays the run with in-process workers dialling the server over loopback TCP, and returns
// the coordinator's outcome once every worker has stopped.
func (c *cluster) run(ctx context.Context, workers ...*Worker) *arbiter.Outcome {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(workers))
	wctx, stopWorkers := context.WithCancel(ctx)
	for i, w := range workers {
		if w.Creds == nil {
			w.Creds = c.srv.Credentials()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.Run(wctx)
		}()
	}
	out, err := Serve(ctx, c.coord)
	// Workers stop on the coordinator's word; the cancel only bounds a test that failed.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		stopWorkers()
		<-done
		c.t.Errorf("workers did not stop on the coordinator's word")
	}
	stopWorkers()
	if err != nil {
		c.t.Fatalf("coordinator: %v\n%s", err, c.console)
	}
	for i, err := range errs {
		if err != nil {
			c.t.Errorf("worker %s: %v", workers[i].Name, err)
		}
	}
	return out
}

func playLocally(t *testing.T, cfg arbiter.Config) *arbiter.Outcome {
	t.Helper()
	tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := tour.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// upTo counts, by the first engine's results, the games of the pairs before pair n: the
// games the SPRT decided on.
func upTo(t *testing.T, path string, n int) (w, d, l int) {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("%s: game %d recorded twice", path, r.Game)
		}
		seen[r.Game] = true
		if r.Pair >= n {
			continue
		}
		switch r.ScoreOf("strong") {
		case 1:
			w++
		case 0:
			l++
		default:
			d++
		}
	}
	return w, d, l
}

// TestDistributedSPRTEqualsLocal plays one SPRT locally and with three workers: the decision,
// the pair it is taken at, the pentanomial counts and the games they come from are the same.
func TestDistributedSPRTEqualsLocal(t *testing.T) {
	dir := t.TempDir()
	local := playLocally(t, detConfig(filepath.Join(dir, "local.jsonl"), 200))
	if local.SPRT == nil || local.SPRT.Decision == arbiter.Continue {
		t.Fatalf("the local SPRT did not decide: %+v", local.SPRT)
	}
	c := newCluster(t, detConfig(filepath.Join(dir, "dist.jsonl"), 200), dir)
	out := c.run(context.Background(), &Worker{Name: "w1"}, &Worker{Name: "w2", Concurrency: 2}, &Worker{Name: "w3"})
	got, want := out.SPRT, local.SPRT
	if got == nil || got.Decision != want.Decision || got.Pairs != want.Pairs || got.Pentanomial != want.Pentanomial || got.LLR != want.LLR {
		t.Fatalf("distributed SPRT %+v, local %+v\n%s", got, want, c.console)
	}
	lw, ld, ll := upTo(t, filepath.Join(dir, "local.jsonl"), want.Pairs)
	dw, dd, dl := upTo(t, filepath.Join(dir, "dist.jsonl"), want.Pairs)
	if [3]int{lw, ld, ll} != [3]int{dw, dd, dl} {
		t.Errorf("games up to the decision: distributed %d/%d/%d, local %d/%d/%d", dw, dd, dl, lw, ld, ll)
	}
	// Each distributed game names the worker that played it, a local game none.
	for file, workers := range map[string][]string{"local.jsonl": {""}, "dist.jsonl": {"w1", "w2", "w3"}} {
		recs, err := results.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if !slices.Contains(workers, r.Worker) {
				t.Errorf("%s: game %d names worker %q, want one of %q", file, r.Game+1, r.Worker, workers)
			}
		}
	}
	t.Logf("decided %v after %d pairs, pentanomial %v", got.Decision, got.Pairs, got.Pentanomial)
	fmt.Println(c.console)
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
