package pool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/internal/proc"
	"hivearbiter/internal/syncbuf"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/cmd/hivebot/hivebotcmd"
	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/openings"
	"hivearbiter/pool/artifact"
	_ "hivearbiter/proto/uhp" // the engines of the tests speak UHP
	"hivearbiter/results"
)

// The test binary is the engines too (uhpfake, and hivebot for a kept list's), and a pool's server or worker to be killed
// (see serverProcess, startWorkerProcess).
func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see proc.Main).
	proc.Main()
	uhpfake.Main()
	if os.Getenv(listHivebotEnv) != "" {
		os.Exit(hivebotcmd.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if dir := os.Getenv(serverDirEnv); dir != "" {
		os.Exit(serveUntilKilled(dir, os.Getenv(serverAddrEnv)))
	}
	if creds := os.Getenv(workerCredsEnv); creds != "" {
		os.Exit(workUntilKilled(creds))
	}
	os.Exit(m.Run())
}

// testPool is a pool's server on loopback, with its admin's and submitter's clients.
type testPool struct {
	t         testing.TB
	dir, addr string
	srv       *Server
	console   *syncbuf.Buffer // the server's lines
	batch     time.Duration   // the server's -batch (2 s if 0)
	admin     *Client
	submitter *Client
	people    PeopleConfig // the server's rules of persons (people_pool_test.go)
}

func newTestPool(t testing.TB) *testPool {
	t.Helper()
	return newTestPoolBatch(t, 0)
}

// newTestPoolBatch is newTestPool with the server's -batch (2 s if 0).
func newTestPoolBatch(t testing.TB, batch time.Duration) *testPool {
	t.Helper()
	p := &testPool{t: t, dir: t.TempDir(), addr: "127.0.0.1:0", console: new(syncbuf.Buffer), batch: batch}
	p.start()
	// A restart must find the server at the same address.
	p.addr = strings.TrimPrefix(p.srv.URL(), "nats://")
	t.Cleanup(p.stop)
	return p
}

func (p *testPool) start() {
	p.t.Helper()
	batch := p.batch
	if batch == 0 {
		batch = 2 * time.Second
	}
	srv, err := Start(context.Background(), Config{Dir: p.dir, Listen: p.addr, Batch: batch, AckWait: 3 * time.Second, Console: p.console,
		People: p.people})
	if err != nil {
		p.t.Fatal(err)
	}
	p.srv = srv
	p.admin = p.client(RoleAdmin)
	p.submitter = p.client(RoleSubmitter)
}

func (p *testPool) client(role string) *Client {
	p.t.Helper()
	creds, err := distributed.ReadCredentials(filepath.Join(p.dir, role+".creds"))
	if err != nil {
		p.t.Fatal(err)
	}
	c, err := Connect(creds, "test "+role)
	if err != nil {
		p.t.Fatal(err)
	}
	return c
}

func (p *testPool) stop() {
	if p.srv == nil {
		return
	}
	p.admin.Close()
	p.submitter.Close()
	p.srv.Close()
	p.srv = nil
}

func (p *testPool) addWorker(name string) *distributed.Credentials {
	p.t.Helper()
	creds, err := p.admin.AddWorker(context.Background(), name)
	if err != nil {
		p.t.Fatal(err)
	}
	return creds
}

// violations connects with creds and collects the server's permission errors.
func violations(t *testing.T, creds *distributed.Credentials) (*nats.Conn, <-chan error) {
	t.Helper()
	errs := make(chan error, 16)
	nc, err := distributed.Dial(creds, "test", nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc, errs
}

// TestWorkerPermissions: a worker's key lets it ask for its own work and publish its own
// results, and nothing a submitter or another worker does.
func TestWorkerPermissions(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	nc, errs := violations(t, p.addWorker("alice"))
	p.addWorker("bob")
	if _, err := nc.Request(assignSubject("alice"), []byte(`{}`), 5*time.Second); err != nil {
		t.Fatalf("alice asking for her work: %v", err)
	}
	for _, subject := range []string{subjectSubmit, subjectControl, subjectAdd, assignSubject("bob"), "arbiter.run1.results.bob", "arbiter.run1.heartbeat.bob", "arbiter.run1.moves.bob", "ARBITER_POOL"} {
		if err := nc.Publish(subject, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		nc.Flush()
		select {
		case err := <-errs:
			if !errors.Is(err, nats.ErrPermissionViolation) {
				t.Errorf("publishing on %s: %v, want a permission violation", subject, err)
			}
		case <-time.After(2 * time.Second):
			t.Errorf("alice published on %s without a permission violation", subject)
		}
	}
	if err := nc.Publish("arbiter.run1.results.alice", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	select {
	case err := <-errs:
		t.Errorf("alice publishing her own result: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestRevokeShutsOut: a revoked worker's connection is closed within seconds and its key is
// refused after; an unknown key is refused from the start.
func TestRevokeShutsOut(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	creds := p.addWorker("carol")
	closed := make(chan struct{})
	nc, err := distributed.Dial(creds, "test", nats.ClosedHandler(func(*nats.Conn) { close(closed) }),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {})) // the revocation's error is expected
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := p.admin.RevokeWorker(context.Background(), "carol"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatalf("the revoked worker is still connected (%v)", nc.Status())
	}
	if _, err := distributed.Dial(creds, "test again", nats.MaxReconnects(0)); !errors.Is(err, nats.ErrAuthorization) {
		t.Errorf("the revoked worker connecting again: %v, want an authorization error", err)
	}
	seed, _, err := NewUserKey()
	if err != nil {
		t.Fatal(err)
	}
	forged := *creds
	forged.Seed = seed
	w := &Worker{Name: "carol", Creds: &forged}
	var refused *RefusedError
	if err := w.Run(context.Background()); !errors.As(err, &refused) {
		t.Errorf("a worker with a key the server never saw: %v, want a *RefusedError", err)
	}
	// A revoked name stays revoked after a restart.
	p.stop()
	p.start()
	if _, err := distributed.Dial(creds, "after restart", nats.MaxReconnects(0)); !errors.Is(err, nats.ErrAuthorization) {
		t.Errorf("the revoked worker after a restart: %v, want an authorization error", err)
	}
}

// fakeSubmission is a match of two instant fake engines (random legal moves at once) from the
// test binary, of pairs game pairs of short games: what the pool does, with engines that cost
// nothing. (Their processes exit without the race detector's second of sleep.)
func fakeSubmission(tb testing.TB, pairs int, seed int64, extra func(*arbiter.Config)) *Submission {
	tb.Helper()
	engine := func(name string) driver.EngineConfig {
		argv, env := uhpfake.Command(uhpfake.Config{ID: "instant-" + name, Play: "random", Seed: uint64(seed)})
		return driver.EngineConfig{Name: name, Command: argv, Env: env, Time: driver.TimeControl{Depth: 1}}
	}
	cfg := arbiter.Config{Engines: []driver.EngineConfig{engine("a"), engine("b")}, Rounds: pairs, Seed: seed,
		Openings: openings.Config{RandomPlies: 2}, Adjudication: arbiter.Adjudication{MaxPlies: 20}}
	if extra != nil {
		extra(&cfg)
	}
	if err := cfg.Normalize(); err != nil {
		tb.Fatal(err)
	}
	expect, err := distributed.Identify(context.Background(), cfg.Engines, cfg.GameType, 10*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	return &Submission{Config: cfg, Expect: expect, Platforms: []string{artifact.ThisPlatform()}}
}

// startWorkers runs pool workers in this process until the test ends.
func startWorkers(t *testing.T, workers ...*Worker) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() {
			if err := w.Run(ctx); err != nil {
				t.Errorf("worker %s: %v", w.Name, err)
			}
		})
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// waitUntil polls cond until it holds, failing the test with what it waited for after timeout
// (a pool that stops making progress fails here, never by the test binary's timeout).
func waitUntil(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not so after %s", what, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRunsAcrossRestartAndPause: two runs share the pool's workers; a run paused gets none
// and resumed goes on; a server closed and started again resumes both; each ends with its
// scheduled games, each once, in the records file a local run would write.
func TestRunsAcrossRestartAndPause(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")}, &Worker{Name: "w2", Creds: p.addWorker("w2")})
	match, err := p.submitter.Submit(ctx, fakeSubmission(t, 6, 9, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.submitter.Submit(ctx, fakeSubmission(t, 6, 9, nil)); err == nil {
		t.Error("the same run submitted twice was taken")
	}
	other, err := p.submitter.Submit(ctx, fakeSubmission(t, 4, 10, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: other.ID, Action: "pause"}); err != nil {
		t.Fatal(err)
	}
	games := func(st RunState) int {
		recs, _ := results.ReadFile(st.Records)
		return len(recs)
	}
	paused := games(*other)
	waitUntil(t, "games of the first run", 20*time.Second, func() bool { return games(*match) >= 4 })
	if n := games(*other); n != paused {
		t.Errorf("the paused run played %d games", n-paused)
	}
	p.stop()
	p.start()
	if _, err := p.submitter.Control(ctx, Control{ID: other.ID, Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "both runs to finish", 20*time.Second, func() bool {
		runs, err := p.submitter.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.State != StateFinished {
				return false
			}
		}
		return len(runs) == 2
	})
	for _, st := range []*RunState{match, other} {
		recs, err := results.ReadFile(st.Records)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, r := range recs {
			if seen[r.Game] {
				t.Errorf("run %s: game %d recorded twice", st.ID, r.Game)
			}
			seen[r.Game] = true
		}
		if len(seen) != st.Scheduled {
			t.Errorf("run %s: %d games recorded, want %d", st.ID, len(seen), st.Scheduled)
		}
	}
	if _, err := p.submitter.Control(ctx, Control{ID: match.ID, Action: "delete"}); err != nil {
		t.Fatal(err)
	}
	if runs, _ := p.submitter.Runs(ctx); len(runs) != 1 {
		t.Errorf("%d runs after a delete, want 1", len(runs))
	}
}
