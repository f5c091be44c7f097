package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// RefusedError is a worker the pool's NATS server does not let in: credentials it does not
// know (forged, or of another pool), or a worker revoked.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string {
	return "pool: the server refused this worker's credentials (unknown or revoked): " + e.Err.Error()
}

func (e *RefusedError) Unwrap() error { return e.Err }

// Worker is a long-lived worker of a pool: it stays connected across runs, asks the server for
// the run it is most needed by, plays that run's pairs for a batch, and asks again.
type Worker struct {
	// Name is the worker's name: the one its credentials were made for.
	Name  string
	Creds *distributed.Credentials
	// Concurrency is the game pairs played at once.
	Concurrency int
	// Platform is the platform it tells the server (Platform() if empty): a run is played
	// only by workers of its platforms.
	Platform string
	// Engines are this machine's builds of engines, matched to a run's by name (see
	// distributed.Worker.Engines); a run's engine this worker does not name is started as
	// the submission says.
	Engines []arbiter.EngineConfig
	// IdleLeave is how long a slot waits for a pair of its run before the worker asks for
	// another (3 s if 0).
	IdleLeave time.Duration
	// Cache is the directory of the artifacts it fetches (DefaultCache() if empty).
	Cache string
	// Console receives a line per run joined and per game; nil discards them.
	Console       io.Writer
	TranscriptDir string

	conMu sync.Mutex
}

// DefaultCache is where a worker keeps the artifacts it fetched: the user's cache directory.
func DefaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "hive-arbiter", "artifacts")
}

// Runtimes are the interpreters of scripted engines this machine has.
func Runtimes() []string {
	var have []string
	for _, rt := range []string{"python3", "node"} {
		if _, err := exec.LookPath(rt); err == nil {
			have = append(have, rt)
		}
	}
	return have
}

// Run plays the pool's runs until ctx ends (nil) or the server refuses the worker (a
// *RefusedError): at first, or at any time later when the worker is revoked.
func (w *Worker) Run(ctx context.Context) error {
	if w.Concurrency <= 0 {
		w.Concurrency = 1
	}
	if w.Platform == "" {
		w.Platform = Platform()
	}
	if w.IdleLeave <= 0 {
		w.IdleLeave = 3 * time.Second
	}
	if w.Cache == "" {
		w.Cache = DefaultCache()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	nc, err := w.dial(ctx, cancel)
	if err != nil {
		return err
	}
	defer nc.Close()
	w.printf("Worker %s connected to %s with %d slots (%s)\n", w.Name, w.Creds.URL, w.Concurrency, w.Platform)
	unfit := map[string]string{}
	for ctx.Err() == nil {
		a, err := w.ask(ctx, nc, unfit)
		if err != nil || a.Run == "" {
			wait := idleWait
			if err == nil {
				wait = a.Wait
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
			}
			continue
		}
		if err := w.play(ctx, nc, a); err != nil {
			w.printf("Worker %s cannot play run %s: %v\n", w.Name, a.Run, err)
			unfit[a.Run] = err.Error()
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
	// A NATS server that reloads its users (another worker added) may refuse a client whose
	// handshake it is in the middle of: only a refusal that persists is one.
	for tries := 1; ; tries++ {
		nc, err := distributed.DialWaiting(ctx, w.Creds, "arbiter pool worker "+w.Name, func(err error) {
			w.printf("Waiting for the pool's server at %s: %v\n", w.Creds.URL, err)
		}, nats.ErrorHandler(refused), nats.ClosedHandler(closed))
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
		Platform: w.Platform, Runtimes: Runtimes(), Unfit: unfit})
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

// play plays a run for the assignment's batch, or until the run has no pair for it, and
// returns nil; an error says why this worker cannot play the run (its engines differ from the
// run's, or do not start).
func (w *Worker) play(ctx context.Context, nc *nats.Conn, a *Assignment) error {
	var engines []arbiter.EngineConfig
	for _, e := range w.Engines {
		if slices.Contains(a.Engines, e.Name) {
			engines = append(engines, e)
		}
	}
	if slices.ContainsFunc(a.Manifests, func(m artifact.Manifest) bool { return m.SHA256 != "" }) {
		obs, err := jetstream.New(nc)
		if err != nil {
			return fmt.Errorf("pool: %w", err)
		}
		bucket, err := obs.ObjectStore(ctx, artifact.DefaultBucket)
		if err != nil {
			return fmt.Errorf("pool: the artifacts' bucket: %w", err)
		}
		host := artifact.Host{Platform: w.Platform, Runtimes: Runtimes()}
		engines, err = artifact.NewStore(bucket, artifact.Limits{}).WorkerEngines(ctx, host, w.Cache, a.RunEngines, a.Manifests, engines)
		if err != nil {
			return err
		}
	}
	yield := make(chan struct{})
	batch := time.AfterFunc(max(a.Batch, time.Second), func() { close(yield) })
	defer batch.Stop()
	creds := *w.Creds
	creds.Run = a.Run
	dw := &distributed.Worker{Name: w.Name, Creds: &creds, Conn: nc, Concurrency: w.Concurrency, Engines: engines,
		Console: w.Console, TranscriptDir: w.TranscriptDir, Yield: yield, IdleLeave: w.IdleLeave}
	err := dw.Run(ctx)
	var refused *distributed.RefusedError
	var mismatch *distributed.EngineMismatchError
	var start *arbiter.EngineStartError
	if errors.As(err, &refused) || errors.As(err, &mismatch) || errors.As(err, &start) {
		return err
	}
	if err != nil && ctx.Err() == nil {
		w.printf("Worker %s left run %s: %v\n", w.Name, a.Run, err)
	}
	return nil
}

func (w *Worker) printf(format string, args ...any) {
	if w.Console == nil {
		return
	}
	w.conMu.Lock()
	defer w.conMu.Unlock()
	fmt.Fprintf(w.Console, format, args...)
}
