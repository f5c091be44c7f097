package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/pool/artifact"
)

// RefusedError is a worker the pool's NATS server does not let in: credentials it does not
// know (forged, or of another pool), or a worker revoked.
type RefusedError struct{ Err error }

// Error says the server refused the worker's credentials, with the server's reply.
func (e *RefusedError) Error() string {
	return "pool: the server refused this worker's credentials (unknown or revoked): " + e.Err.Error()
}

// Unwrap returns the server's reply.
func (e *RefusedError) Unwrap() error { return e.Err }

// Worker is a long-lived worker of a pool: it stays connected across runs, asks the server for
// the run it is most needed by, plays that run's pairs for a batch, and asks again.
type Worker struct {
	// Name is the worker's name: the one its credentials were made for.
	Name  string
	Creds *distributed.Credentials
	// Concurrency is the game pairs played at once.
	Concurrency int
	// Platform is the platform it tells the server (this machine's if empty): a run is played
	// only by workers of its platforms.
	Platform string
	// Engines are this machine's builds of engines, matched to a run's by name (see
	// distributed.Worker.Engines); a run's engine this worker does not name is started as
	// the submission says.
	Engines []driver.EngineConfig
	// IdleLeave is how long a slot waits for a pair of its run before the worker asks for
	// another (3 s if 0).
	IdleLeave time.Duration
	// Cache is the directory of the artifacts it fetches (DefaultCache() if empty).
	Cache string
	// UnfitRetry is how long the worker keeps away from a run it found it cannot play
	// (DefaultUnfitRetry if 0).
	UnfitRetry time.Duration
	// SkipBench skips measuring each engine before the worker first plays it (see
	// EngineBench): the server's tables then show no engine speeds for this worker.
	SkipBench bool
	// Console receives a line per run joined and per game; nil discards them.
	Console       io.Writer
	TranscriptDir string

	con     syncbuf.Printer
	benches benches
	host    artifact.Host // this machine, with the platform it tells the server
	// reconnected is signalled when the connection to the server comes back: a server
	// started again knows nothing of the worker until it asks (see play).
	reconnected chan struct{}
}

// DefaultCache is where a worker keeps the artifacts it fetched: the user's cache directory.
func DefaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "hive-arbiter", "artifacts")
}

// Run plays the pool's runs until ctx ends (nil) or the server refuses the worker (a
// *RefusedError): at first, or at any time later when the worker is revoked.
func (w *Worker) Run(ctx context.Context) error {
	if w.Concurrency <= 0 {
		w.Concurrency = 1
	}
	w.host = artifact.ThisHost()
	if w.Platform == "" {
		w.Platform = w.host.Platform
	}
	w.host.Platform = w.Platform
	if w.IdleLeave <= 0 {
		w.IdleLeave = 3 * time.Second
	}
	if w.Cache == "" {
		w.Cache = DefaultCache()
	}
	if w.UnfitRetry <= 0 {
		w.UnfitRetry = DefaultUnfitRetry
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w.reconnected = make(chan struct{}, 1)
	nc, err := w.dial(ctx, cancel)
	if err != nil {
		return err
	}
	defer nc.Close()
	w.printf("Worker %s connected to %s with %d slots (%s)\n", w.Name, w.Creds.URL, w.Concurrency, w.Platform)
	unfit := unfitRuns{}
	var next *Assignment // where the server sent the worker as it left a run
	for ctx.Err() == nil {
		reasons := unfit.reasons(time.Now(), w.UnfitRetry)
		a := next
		if next = nil; a == nil {
			if a, err = w.ask(ctx, nc, reasons); err != nil {
				a = &Assignment{Wait: idleWait}
			}
		}
		if a.Run == "" {
			select {
			case <-time.After(max(a.Wait, 100*time.Millisecond)):
			case <-w.reconnected:
			case <-ctx.Done():
			}
			continue
		}
		if next, err = w.play(ctx, nc, a, reasons); err != nil && ctx.Err() == nil {
			if unfit.note(a.Run, err, time.Now()) {
				w.printf("Worker %s cannot play run %s: %v\n", w.Name, a.Run, err)
			} else {
				w.printf("Worker %s could not join run %s, and will try again: %v\n", w.Name, a.Run, err)
				next = &Assignment{Wait: idleWait}
			}
		}
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return nil
}

// dial connects to the pool's server, waiting for it while it is down; the server refusing the
// credentials ends the worker, then or later (cancel gets a *RefusedError).
func (w *Worker) dial(ctx context.Context, cancel context.CancelCauseFunc) (*nats.Conn, error) {
	refused := func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthRevoked) || errors.Is(err, nats.ErrAuthExpired) {
			cancel(&RefusedError{Err: err})
		}
	}
	closed := func(nc *nats.Conn) {
		if err := nc.LastError(); err != nil {
			refused(nc, nil, err)
		}
		cancel(errors.New("pool: the connection to the server is closed"))
	}
	creds := w.Creds
	if creds.Inbox == "" { // credentials written before workers had inboxes of their own
		c := *creds
		c.Inbox = InboxPrefix(RoleWorker, w.Name)
		creds = &c
	}
	// A worker started as it is being added may be refused once: only a refusal that persists
	// is one.
	for tries := 1; ; tries++ {
		nc, err := distributed.DialWaiting(ctx, creds, "arbiter pool worker "+w.Name, func(err error) {
			w.printf("Waiting for the pool's server at %s: %v\n", w.Creds.URL, err)
		}, nats.ErrorHandler(refused), nats.ClosedHandler(closed), nats.ReconnectHandler(func(*nats.Conn) {
			select {
			case w.reconnected <- struct{}{}:
			default: // one to come already
			}
		}))
		if !errors.Is(err, nats.ErrAuthorization) {
			return nc, err
		}
		if tries == authTries {
			return nil, &RefusedError{Err: err}
		}
		select {
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// authTries is how many times a worker's credentials must be refused before it gives up.
const authTries = 3

// ask asks the server for a run.
func (w *Worker) ask(ctx context.Context, nc *nats.Conn, unfit map[string]string) (*Assignment, error) {
	b, _ := json.Marshal(AssignRequest{Worker: w.Name, Slots: w.Concurrency, Cores: runtime.NumCPU(),
		Platform: w.Platform, Runtimes: w.host.Runtimes, Unfit: unfit, Benches: w.benches.list()})
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	m, err := nc.RequestWithContext(rctx, assignSubject(w.Name), b)
	if err != nil {
		return nil, fmt.Errorf("pool: asking for work: %w", err)
	}
	var a Assignment
	if err := json.Unmarshal(m.Data, &a); err != nil {
		return nil, fmt.Errorf("pool: unreadable assignment: %w", err)
	}
	return &a, nil
}

// play plays a run until the server, asked again at the end of each batch, sends the worker
// elsewhere (that assignment is returned), or until the run has no pair for it (nil). An error
// says why the worker could not join the run: it cannot play it (see cannotPlay), or its
// artifacts could not be fetched. A worker the server keeps on its run stays in it: it does
// not join it again, which starts and identifies its engines anew.
func (w *Worker) play(ctx context.Context, nc *nats.Conn, a *Assignment, unfit map[string]string) (*Assignment, error) {
	if a.Tune != nil {
		played, err := w.playTune(ctx, nc, a)
		if err == nil && played == 0 {
			// The tune had no pair for the worker (it is ending, or every pair is in flight):
			// it asks for work again after a while, not at once.
			return &Assignment{Wait: idleWait}, nil
		}
		return nil, err
	}
	engines, err := w.engines(ctx, nc, a)
	if err != nil {
		return nil, err
	}
	yield := make(chan struct{})
	var next *Assignment
	var asking sync.WaitGroup
	leave, stopAsking := context.WithCancel(ctx)
	// The engines are measured before the worker first plays them, on the players the first
	// slot then plays with (not started a second time), once the run has let the worker in
	// (engines that differ from the run's are not measured: joining says why); new measures
	// reach the server at once, whose answer may send the worker elsewhere.
	measured := make(chan struct{}, 1)
	var prepare func(context.Context, *arbiter.Seats)
	if !w.SkipBench {
		prepare = func(ctx context.Context, seats *arbiter.Seats) {
			if w.benches.measure(ctx, seats, "") {
				measured <- struct{}{}
			}
		}
	}
	// The worker asks again at its batch's end, at once when it has new measures, and when its
	// connection comes back (a server started again shows it "unknown" until it asks, with no
	// slots); an ask that found no answer (the server is starting) is made again a second
	// later.
	asking.Go(func() {
		tick := time.NewTicker(max(a.Batch, time.Second))
		defer tick.Stop()
		var again <-chan time.Time
		for {
			select {
			case <-tick.C:
			case <-measured:
			case <-w.reconnected:
			case <-again:
			case <-leave.Done():
				return
			}
			again = nil
			b, err := w.ask(leave, nc, unfit)
			switch {
			case err != nil && leave.Err() == nil:
				again = time.After(time.Second)
			case err == nil && b.Run != a.Run:
				next = b
				close(yield)
				return
			}
		}
	})
	creds := *w.Creds
	creds.Run = a.Run
	dw := &distributed.Worker{Name: w.Name, Creds: &creds, Conn: nc, Concurrency: w.Concurrency, Engines: engines,
		Console: w.Console, TranscriptDir: w.TranscriptDir, Yield: yield, IdleLeave: w.IdleLeave, Prepare: prepare}
	if a.Scale != nil {
		dw.TimeScale = func(seats *arbiter.Seats) (float64, error) { return w.scaleFactor(*a.Scale, seats) }
	}
	err = dw.Run(ctx)
	stopAsking()
	asking.Wait()
	if cannotPlay(err) {
		return nil, err
	}
	if err != nil && ctx.Err() == nil {
		w.printf("Worker %s left run %s: %v\n", w.Name, a.Run, err)
	}
	return next, nil
}

// engines are the run's engines as this worker starts them: its own builds of those it names,
// and the run's artifacts, fetched into its cache from the server (see relay.go).
func (w *Worker) engines(ctx context.Context, nc *nats.Conn, a *Assignment) ([]driver.EngineConfig, error) {
	var engines []driver.EngineConfig
	for _, e := range w.Engines {
		if slices.Contains(a.Engines, e.Name) {
			engines = append(engines, e)
		}
	}
	if !slices.ContainsFunc(a.Manifests, func(m artifact.Manifest) bool { return m.SHA256 != "" }) {
		return engines, nil
	}
	from := artifact.NewFetcher(relayGetter{nc: nc, worker: w.Name}, artifact.Limits{})
	return from.WorkerEngines(ctx, w.host, w.Cache, a.RunEngines, a.Manifests, engines)
}

// scaleFactor is the factor by which this worker plays a run's limits that scale by its speed:
// of its measures of the run's engines, seated in seats (Prepare measured them).
func (w *Worker) scaleFactor(scale TimeScale, seats *arbiter.Seats) (float64, error) {
	if w.SkipBench {
		return 0, &ScaleError{Reason: "it does not measure its engines (arbiter worker -bench=false)"}
	}
	names := make([]string, len(seats.Engines))
	for i, e := range seats.Engines {
		names[i] = e.Name
	}
	return scale.Factor(names, func(engine string) (int64, string) {
		i := slices.Index(names, engine)
		b, ok := w.benches.of(seats.Engines[i], "")
		if !ok {
			return 0, "not measured"
		}
		return b.NPS, b.Error
	})
}

func (w *Worker) printf(format string, args ...any) {
	w.con.Printf(w.Console, format, args...)
}
