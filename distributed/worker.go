package distributed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// RefusedError is a worker the coordinator will not let play: its engines differ from the run's.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string {
	return "distributed: the coordinator refused this worker: " + e.Reason
}

// Worker plays a run's game pairs with its own engines.
type Worker struct {
	// Name identifies the worker to the coordinator: one NATS subject token (no dots or spaces).
	Name  string
	Creds *Credentials
	// Conn, if set, is used instead of dialling Creds.URL (a coordinator's own worker).
	Conn        *nats.Conn
	Concurrency int
	// Engines are the worker's own engines, matched to the run's by name: how to start them
	// (command, directory, environment). The run's settings (options, time control) apply. A
	// run engine the worker does not name is started as the coordinator starts it.
	Engines []arbiter.EngineConfig
	// Console receives a line per game started and finished; nil discards them.
	Console io.Writer
	// TranscriptDir, if set, receives the engines' conversations.
	TranscriptDir string

	conMu    sync.Mutex
	flightMu sync.Mutex
	inFlight map[int]bool
}

// Run greets the coordinator, checks its engines with it, and plays pairs until the run ends
// (nil), ctx is cancelled (nil), or the worker is refused or cannot start an engine.
func (w *Worker) Run(ctx context.Context) error {
	if w.Concurrency <= 0 {
		w.Concurrency = 1
	}
	w.inFlight = make(map[int]bool)
	nc := w.Conn
	if nc == nil {
		var err error
		if nc, err = w.dial(ctx); err != nil {
			return err
		}
		defer nc.Close()
	}
	run := w.Creds.Run
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	errStopped := errors.New("the coordinator stopped the run")
	ctl, err := nc.Subscribe(controlSubject(run), func(m *nats.Msg) {
		var c Control
		if json.Unmarshal(m.Data, &c) == nil && c.Stop {
			w.printf("The coordinator stopped the run: %s\n", c.Reason)
			cancel(errStopped)
		}
	})
	if err != nil {
		return fmt.Errorf("distributed: %w", err)
	}
	defer ctl.Unsubscribe()

	welcome, err := w.greet(ctx, nc, run, nil)
	if err != nil || welcome.Finished {
		return ignoreStopped(ctx, err, errStopped)
	}
	spec := welcome.Spec
	for _, local := range w.Engines {
		if !slices.ContainsFunc(spec.Engines, func(e arbiter.EngineConfig) bool { return e.Name == local.Name }) {
			return fmt.Errorf("distributed: this worker's engine %q is not one of the run's (engines are matched by name)", local.Name)
		}
	}
	engines := w.runEngines(spec)
	ids, err := Identify(ctx, engines, time.Duration(spec.StartTimeout))
	if err != nil {
		return ignoreStopped(ctx, err, errStopped)
	}
	if welcome, err = w.greet(ctx, nc, run, ids); err != nil || welcome.Finished {
		return ignoreStopped(ctx, err, errStopped)
	}
	w.printf("Worker %s plays run %s with %d slots\n", w.Name, run, w.Concurrency)

	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("distributed: %w", err)
	}
	var cons jetstream.Consumer
	for {
		if cons, err = js.Consumer(ctx, workStream(run), workConsumer); err == nil {
			break
		}
		if ctx.Err() != nil {
			return ignoreStopped(ctx, nil, errStopped)
		}
		time.Sleep(time.Second) // the coordinator is (re)starting
	}
	ackWait := cons.CachedInfo().Config.AckWait

	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { w.heartbeats(gctx, nc, run); return nil })
	for slot := range w.Concurrency {
		g.Go(func() error {
			s := &pairSlot{w: w, id: slot, spec: spec, engines: engines, ids: ids, js: js, cons: cons, ackWait: ackWait}
			defer s.close(gctx)
			return s.loop(gctx)
		})
	}
	return ignoreStopped(ctx, g.Wait(), errStopped)
}

// ignoreStopped turns the end of the run, or an interruption, into a clean return.
func ignoreStopped(ctx context.Context, err, stopped error) error {
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, arbiter.ErrInterrupted)) {
		return nil
	}
	return err
}

// greet sends a hello until the coordinator answers: first (ids nil) to learn the run, then
// with the worker's engines to be let in.
func (w *Worker) greet(ctx context.Context, nc *nats.Conn, run string, ids []EngineIdentity) (*Welcome, error) {
	b, _ := json.Marshal(Hello{Worker: w.Name, Slots: w.Concurrency, Engines: ids})
	for {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		m, err := nc.RequestWithContext(rctx, helloSubject(run), b)
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			if errors.Is(err, nats.ErrPermissionViolation) || errors.Is(err, nats.ErrAuthorization) {
				return nil, fmt.Errorf("distributed: %w", err)
			}
			time.Sleep(500 * time.Millisecond) // no coordinator yet, or it is restarting
			continue
		}
		var wel Welcome
		if err := json.Unmarshal(m.Data, &wel); err != nil {
			return nil, fmt.Errorf("distributed: unreadable welcome: %w", err)
		}
		if wel.Refused != "" {
			return nil, &RefusedError{Reason: wel.Refused}
		}
		if wel.Spec == nil && !wel.Finished {
			return nil, errors.New("distributed: the coordinator sent no run settings")
		}
		return &wel, nil
	}
}

// runEngines are the run's engines as this worker starts them.
func (w *Worker) runEngines(spec *RunSpec) []arbiter.EngineConfig {
	engines := slices.Clone(spec.Engines)
	for i := range engines {
		for _, local := range w.Engines {
			if local.Name == engines[i].Name {
				engines[i].Command, engines[i].Dir, engines[i].Env, engines[i].Addr = local.Command, local.Dir, local.Env, local.Addr
			}
		}
	}
	return engines
}

func (w *Worker) heartbeats(ctx context.Context, nc *nats.Conn, run string) {
	tick := time.NewTicker(heartbeatInterval)
	defer tick.Stop()
	for {
		w.flightMu.Lock()
		hb := Heartbeat{Worker: w.Name, Slots: w.Concurrency, InFlight: []int{}}
		for g := range w.inFlight {
			hb.InFlight = append(hb.InFlight, g)
		}
		w.flightMu.Unlock()
		slices.Sort(hb.InFlight)
		b, _ := json.Marshal(hb)
		nc.Publish(heartbeatSubject(run, w.Name), b)
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

func (w *Worker) flying(game int, on bool) {
	w.flightMu.Lock()
	defer w.flightMu.Unlock()
	if on {
		w.inFlight[game] = true
	} else {
		delete(w.inFlight, game)
	}
}

func (w *Worker) printf(format string, args ...any) {
	if w.Console == nil {
		return
	}
	w.conMu.Lock()
	defer w.conMu.Unlock()
	fmt.Fprintf(w.Console, format, args...)
}

// pairSlot plays one pair at a time with engine processes of its own, as a local run's worker does.
type pairSlot struct {
	w       *Worker
	id      int
	spec    *RunSpec
	engines []arbiter.EngineConfig
	ids     []EngineIdentity
	js      jetstream.JetStream
	cons    jetstream.Consumer
	ackWait time.Duration
	players map[int]arbiter.Player
}

func (s *pairSlot) loop(ctx context.Context) error {
	s.players = make(map[int]arbiter.Player)
	for ctx.Err() == nil {
		batch, err := s.cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			if ctx.Err() == nil {
				time.Sleep(500 * time.Millisecond) // reconnecting, or the coordinator is restarting
			}
			continue
		}
		for m := range batch.Messages() {
			if err := s.play(ctx, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// play plays a pair's games, publishes their records, and only then acknowledges the pair. A
// pair cut short (the worker stopped, an engine that cannot start) is left unacknowledged: it
// goes to another worker after the AckWait.
func (s *pairSlot) play(ctx context.Context, m jetstream.Msg) error {
	var item WorkItem
	if err := json.Unmarshal(m.Data(), &item); err != nil || item.Run != s.spec.Run {
		m.Term() // not a pair of this run: no one can play it
		return nil
	}
	// Keep the pair ours while its games last.
	alive, stopAlive := context.WithCancel(ctx)
	defer stopAlive()
	go func() {
		tick := time.NewTicker(max(s.ackWait/3, 100*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				m.InProgress()
			case <-alive.Done():
				return
			}
		}
	}()
	for _, sg := range item.Games {
		rec, err := s.game(ctx, sg)
		if err != nil {
			m.Nak() // this worker cannot play it (an engine does not start): another may
			return err
		}
		if rec == nil {
			m.Nak() // interrupted: another worker may take the pair at once
			return nil
		}
		b, err := json.Marshal(Result{Worker: s.w.Name, Record: rec, Engines: s.ids})
		if err != nil {
			return err
		}
		for {
			pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, err := s.js.Publish(pctx, resultsSubject(s.spec.Run, s.w.Name), b)
			cancel()
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			time.Sleep(500 * time.Millisecond) // the coordinator is restarting: the result waits
		}
	}
	m.Ack()
	return nil
}

// game plays one scheduled game with the configuration the coordinator's tournament gave it;
// nil, nil when it was interrupted.
func (s *pairSlot) game(ctx context.Context, work WorkGame) (*results.Record, error) {
	sg := work.Game
	white, err := s.seat(ctx, sg.White)
	if err != nil {
		return nil, ignoreCancel(err)
	}
	black, err := s.seat(ctx, sg.Black)
	if err != nil {
		return nil, ignoreCancel(err)
	}
	we, be := s.engines[sg.White], s.engines[sg.Black]
	s.w.printf("Started game %d of %d (%s vs %s)\n", sg.Index+1, s.spec.Scheduled, we.Name, be.Name)
	s.w.flying(sg.Index, true)
	defer s.w.flying(sg.Index, false)
	rec, err := arbiter.PlayGame(ctx, work.Config, arbiter.Side{Name: we.Name, Player: white, Time: we.Time, Margin: we.Margin},
		arbiter.Side{Name: be.Name, Player: black, Time: be.Time, Margin: be.Margin})
	if errors.Is(err, arbiter.ErrInterrupted) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// An engine that misbehaved is restarted for its next game, as in a local run.
	for side, e := range [2]int{sg.White, sg.Black} {
		if rec.Culprit == colorNames[side] {
			s.drop(ctx, e)
		}
	}
	s.w.printf("Finished game %d (%s vs %s): %s {%s}\n", rec.Game+1, rec.White.Name, rec.Black.Name, rec.Result, rec.Detail)
	return rec, nil
}

func (s *pairSlot) seat(ctx context.Context, e int) (arbiter.Player, error) {
	if p := s.players[e]; p != nil {
		return p, nil
	}
	sctx, cancel := context.WithTimeout(ctx, time.Duration(s.spec.StartTimeout))
	defer cancel()
	p, err := arbiter.StartPlayer(sctx, s.engines[e], arbiter.StartEnv{Worker: s.id, TranscriptDir: s.w.TranscriptDir, Grace: time.Second})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &arbiter.EngineStartError{Engine: s.engines[e].Name, Err: err}
	}
	s.players[e] = p
	return p, nil
}

func (s *pairSlot) drop(ctx context.Context, e int) {
	if p := s.players[e]; p != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		p.Close(cctx)
		cancel()
		delete(s.players, e)
	}
}

func (s *pairSlot) close(ctx context.Context) {
	for e := range s.players {
		s.drop(ctx, e)
	}
}

func ignoreCancel(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// dial connects to the coordinator's server, waiting for it if it is not up yet; credentials
// the server refuses end the worker.
func (w *Worker) dial(ctx context.Context) (*nats.Conn, error) {
	for tries := 0; ; tries++ {
		nc, err := Dial(w.Creds, "arbiter worker "+w.Name)
		if err == nil {
			return nc, nil
		}
		if errors.Is(err, nats.ErrAuthorization) || ctx.Err() != nil {
			return nil, err
		}
		if tries == 0 {
			w.printf("Waiting for the coordinator at %s: %v\n", w.Creds.URL, err)
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
