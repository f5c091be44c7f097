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
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// RefusedError is a worker the coordinator will not let play: its engines differ from the run's.
type RefusedError struct{ Reason string }

// Error says that the coordinator refused this worker, and why.
func (e *RefusedError) Error() string {
	return "distributed: the coordinator refused this worker: " + e.Reason
}

// Worker plays a run's game pairs with its own engines.
type Worker struct {
	// Name identifies the worker to the coordinator: one NATS subject token (no dots or
	// spaces); DefaultWorkerName if empty.
	Name  string
	Creds *Credentials
	// Conn, if set, is used instead of dialling Creds.URL (a coordinator's own worker).
	Conn        *nats.Conn
	Concurrency int
	// Engines are the worker's own engines, matched to the run's by name. A run's engine is the
	// run's: its arguments, options, protocol settings, time control, margin and restart policy
	// come from the run. Only where its program is comes from here: the command (whose
	// arguments must be the run's, but for the local paths: see driver.IsLocalPath), the
	// directory, the environment and the address. A setting left at its zero value is the
	// run's; one that is given must be the run's, or the worker is refused (an
	// *EngineMismatchError) before any game. A run engine the worker does not name is started
	// as the coordinator starts it.
	Engines []driver.EngineConfig
	// Console receives a line per game started and finished; nil discards them.
	Console io.Writer
	// TranscriptDir, if set, receives the engines' conversations.
	TranscriptDir string
	// Yield, if set, lets the worker leave the run while it goes on: once it is closed, each
	// slot finishes the pair it plays and Run returns nil. A pool's worker leaves a run so to
	// play another that is further behind its share.
	Yield <-chan struct{}
	// IdleLeave, if above 0, is how long a slot waits for a pair before it leaves the run; Run
	// returns nil when every slot has left. 0 waits for as long as the run lasts.
	IdleLeave time.Duration
	// Prepare, if set, is called once the worker is let in, before any slot plays, with the
	// first slot's seats: what it seats (a pool's worker measures its engines there) is the
	// player that slot's games then use, not an engine started a second time.
	Prepare func(ctx context.Context, seats *arbiter.Seats)
	// TimeScale, if set, is asked after Prepare, with the same seats, for the factor by which
	// this worker scales the run's limits (a clock's base and increment, a time per move;
	// depths and node counts stay): OpenBench's time scaling by a worker's speed. 0 or 1 plays
	// the run's limits. Each record then says the limit each side played under and the factor
	// (results.Player.Played, results.Record.TimeScale), beside the run's limit. An error says
	// why this worker cannot play the run so (it ends Run).
	TimeScale func(seats *arbiter.Seats) (float64, error)

	con      syncbuf.Printer
	flightMu sync.Mutex
	inFlight map[int]bool
}

// Run greets the coordinator, checks its engines with it, and plays pairs until the run ends
// (nil), ctx is cancelled (nil), or the worker is refused (a *RefusedError, or an
// *EngineMismatchError when its engines would change the run's) or cannot seat an engine (an
// *arbiter.EngineStartError).
func (w *Worker) Run(ctx context.Context) error {
	if w.Concurrency <= 0 {
		w.Concurrency = 1
	}
	if w.Name == "" {
		w.Name = DefaultWorkerName()
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

	spec, engines, ids, err := w.join(ctx, nc, run)
	if err != nil || spec == nil {
		return ignoreStopped(ctx, err, errStopped)
	}
	gameType, _ := rules.ParseGameType(spec.GameType) // join's Identify has read it
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
		if ctx.Err() != nil || w.yielded() {
			// Stopped; or sent elsewhere: a pool run that ended while this worker joined it
			// has no streams any more, and its Stop may have been missed.
			return ignoreStopped(ctx, nil, errStopped)
		}
		time.Sleep(time.Second) // the coordinator is (re)starting
	}
	ackWait := cons.CachedInfo().Config.AckWait

	var forfeits *arbiter.Forfeits // shared by the slots, as a local run's workers share theirs
	if spec.OnEngineFailure == arbiter.ForfeitOnFailure {
		forfeits = &arbiter.Forfeits{Broke: func(e int, why error) {
			w.printf("Engine %s is broken on this worker (%v): it forfeits its games here, and the others play on\n", engines[e].Name, why)
		}}
	}
	g, gctx := errgroup.WithContext(ctx)
	// The heartbeats last as long as the slots: a worker that yields the run stops them.
	beating, stopBeating := context.WithCancel(gctx)
	defer stopBeating()
	var beats sync.WaitGroup
	beats.Go(func() { w.heartbeats(beating, nc, run) })
	defer beats.Wait()
	seats := make([]*arbiter.Seats, w.Concurrency)
	start := arbiter.StartThroughProtocol(w.TranscriptDir) // one for the run's seats: what is learned of an engine lasts the run
	for slot := range seats {
		seats[slot] = &arbiter.Seats{Engines: engines, GameType: gameType, StartTimeout: time.Duration(spec.StartTimeout),
			Start: start, Worker: slot}
	}
	if w.Prepare != nil {
		w.Prepare(gctx, seats[0])
	}
	scale := 0.0
	if w.TimeScale != nil {
		if scale, err = w.TimeScale(seats[0]); err != nil {
			seats[0].Close(gctx)
			return err
		}
		if scale > 0 && scale != 1 {
			scaled := scaledEngines(engines, scale)
			for _, seat := range seats {
				seat.Engines = scaled
			}
			w.printf("Worker %s plays run %s at %.3g times its limits (its speed against the run's reference)\n", w.Name, run, scale)
		} else {
			scale = 0
		}
	}
	for slot := range w.Concurrency {
		g.Go(func() error {
			s := &pairSlot{w: w, spec: spec, seats: seats[slot], forfeits: forfeits, ids: ids, nc: nc, js: js, cons: cons, ackWait: ackWait, scale: scale}
			defer seats[slot].Close(gctx)
			return s.loop(gctx)
		})
	}
	err = g.Wait()
	stopBeating()
	return ignoreStopped(ctx, err, errStopped)
}

// ignoreStopped turns the end of the run, or an interruption, into a clean return.
func ignoreStopped(ctx context.Context, err, stopped error) error {
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, arbiter.ErrInterrupted)) {
		return nil
	}
	return err
}

// join learns the run from the coordinator, makes its engines this worker's (refusing those
// that would change them), identifies them and is let in with them. A nil spec and error: the
// run is over.
func (w *Worker) join(ctx context.Context, nc *nats.Conn, run string) (*RunSpec, []driver.EngineConfig, []EngineIdentity, error) {
	welcome, err := w.greet(ctx, nc, run, nil)
	if err != nil || welcome.Finished {
		return nil, nil, nil, err
	}
	spec := welcome.Spec
	engines, err := workerEngines(spec, w.Engines)
	var ids []EngineIdentity
	if err == nil {
		ids, err = Identify(ctx, engines, spec.GameType, time.Duration(spec.StartTimeout))
	}
	if err != nil {
		if ctx.Err() == nil {
			w.unfit(ctx, nc, run, err)
		}
		return nil, nil, nil, err
	}
	if welcome, err = w.greet(ctx, nc, run, ids); err != nil || welcome.Finished {
		return nil, nil, nil, err
	}
	return spec, engines, ids, nil
}

// unfit tells the coordinator why this worker cannot play its run, so that its operator sees
// it too; the worker stops whether or not the word arrives.
func (w *Worker) unfit(ctx context.Context, nc *nats.Conn, run string, why error) {
	b, _ := json.Marshal(Hello{Worker: w.Name, Slots: w.Concurrency, Unfit: why.Error()})
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	nc.RequestWithContext(rctx, helloSubject(run), b)
}

// greet sends a hello until the coordinator answers: first (ids nil) to learn the run, then
// with the worker's engines to be let in.
func (w *Worker) greet(ctx context.Context, nc *nats.Conn, run string, ids []EngineIdentity) (*Welcome, error) {
	b, _ := json.Marshal(Hello{Worker: w.Name, Slots: w.Concurrency, Engines: ids})
	since := time.Now()
	for {
		if w.IdleLeave > 0 && time.Since(since) > max(w.IdleLeave, 10*time.Second) {
			return &Welcome{Finished: true}, nil // no coordinator serves the run now: leave it
		}
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
	w.con.Printf(w.Console, format, args...)
}

// pairSlot plays one pair at a time with engine processes of its own (its seats), as a local
// run's worker does.
type pairSlot struct {
	w     *Worker
	spec  *RunSpec
	seats *arbiter.Seats
	// forfeits, under the forfeit policy, seats a broken engine as a player that fails at once.
	forfeits *arbiter.Forfeits
	ids      []EngineIdentity
	nc       *nats.Conn
	js       jetstream.JetStream
	cons     jetstream.Consumer
	ackWait  time.Duration
	// scale is the factor its seats' limits are scaled by (Worker.TimeScale), 0 for none.
	scale float64
}

func (s *pairSlot) loop(ctx context.Context) error {
	wait := 2 * time.Second
	if idle := s.w.IdleLeave; idle > 0 {
		wait = min(wait, idle)
	}
	lastPair := time.Now()
	// A slot asked to yield leaves once it has played a pair since it joined, or found none to
	// play: however long joining took, a worker that joins a run plays in it. (A slot that
	// yielded before its first pair left a worker whose joining outlasted its batch joining
	// again and again, playing nothing.)
	played, idle := false, false
	for ctx.Err() == nil {
		if s.w.yielded() && (played || idle) {
			return nil
		}
		if s.w.IdleLeave > 0 && time.Since(lastPair) >= s.w.IdleLeave {
			return nil
		}
		batch, err := s.cons.Fetch(1, jetstream.FetchMaxWait(wait))
		if err != nil {
			if ctx.Err() == nil {
				time.Sleep(500 * time.Millisecond) // reconnecting, or the coordinator is restarting
			}
			continue
		}
		idle = true
		for m := range batch.Messages() {
			idle = false
			if err := s.play(ctx, m); err != nil {
				return err
			}
			played, lastPair = true, time.Now()
		}
	}
	return nil
}

// yielded reports whether the worker was asked to leave the run (see Worker.Yield).
func (w *Worker) yielded() bool {
	select {
	case <-w.Yield:
		return true
	default:
		return false
	}
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
			if s.w.yielded() {
				// Sent elsewhere while the result waited: the run ended (a pool deletes its
				// streams then) and its Stop did not reach this worker. Left unacknowledged,
				// the pair goes to another worker if the run is still played.
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
	var white, black arbiter.Side
	var err error
	if s.forfeits != nil {
		white, black, err = s.forfeits.Sides(ctx, s.seats, sg)
	} else {
		white, black, err = s.seats.Sides(ctx, sg)
	}
	if err != nil {
		return nil, ignoreCancel(err)
	}
	s.w.printf("Started game %d of %d (%s vs %s)\n", sg.Index+1, s.spec.Scheduled, white.Name, black.Name)
	s.w.flying(sg.Index, true)
	defer s.w.flying(sg.Index, false)
	rec, err := s.playGame(ctx, work.Config, white, black)
	if errors.Is(err, arbiter.ErrInterrupted) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.seats.Played(ctx, sg, rec)
	if s.forfeits != nil {
		s.forfeits.Judge(sg, rec)
	}
	if s.scale != 0 {
		s.markScaled(rec)
	}
	s.w.printf("Finished game %d (%s vs %s): %s {%s}\n", rec.Game+1, rec.White.Name, rec.Black.Name, rec.Result, rec.Detail)
	return rec, nil
}

// markScaled writes into a record played at scaled limits the run's limit of each side (what
// the coordinator checks, and the tables group by), the limit it played under, and the factor.
func (s *pairSlot) markScaled(rec *results.Record) {
	rec.TimeScale = s.scale
	for _, p := range []*results.Player{&rec.White, &rec.Black} {
		for _, e := range s.spec.Engines {
			if e.Name == p.Name {
				p.Played, p.Time = p.Time, e.Time.String()
			}
		}
	}
}

// scaledEngines are engines whose limits are scaled by factor: a clock's base and increment
// and a time per move, to the millisecond; a depth or a node count is no time, and stays.
func scaledEngines(engines []driver.EngineConfig, factor float64) []driver.EngineConfig {
	out := slices.Clone(engines)
	scale := func(d time.Duration) time.Duration {
		return (time.Duration(float64(d) * factor)).Round(time.Millisecond)
	}
	for i := range out {
		tc := &out[i].Time
		tc.Base, tc.Increment, tc.MoveTime = scale(tc.Base), scale(tc.Increment), scale(tc.MoveTime)
	}
	return out
}

// playGame plays a game as arbiter.PlayGame does, and tells the coordinator of it as it goes:
// the game started, and each move (MoveNote), so that its live pages show the game as a local
// run's do.
func (s *pairSlot) playGame(ctx context.Context, cfg arbiter.GameConfig, white, black arbiter.Side) (*results.Record, error) {
	subject := movesSubject(s.spec.Run, s.w.Name)
	note := func(n MoveNote) {
		b, _ := json.Marshal(n)
		s.nc.Publish(subject, b) // a note lost is a live page a move behind, no more
	}
	note(MoveNote{Game: cfg.Index, White: white.Name, Black: black.Name})
	return arbiter.PlayGameWatched(ctx, cfg, white, black, func(m results.Move) { note(MoveNote{Game: cfg.Index, Move: &m}) })
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
	return DialWaiting(ctx, w.Creds, "arbiter worker "+w.Name, func(err error) {
		w.printf("Waiting for the coordinator at %s: %v\n", w.Creds.URL, err)
	})
}

// DialWaiting connects as Dial does, trying again every second while the server is not up;
// credentials the server refuses (nats.ErrAuthorization) or the end of ctx end the wait.
// waiting, if set, is told once why it waits.
func DialWaiting(ctx context.Context, c *Credentials, name string, waiting func(error), opts ...nats.Option) (*nats.Conn, error) {
	for tries := 0; ; tries++ {
		nc, err := Dial(c, name, opts...)
		if err == nil {
			return nc, nil
		}
		if errors.Is(err, nats.ErrAuthorization) || ctx.Err() != nil {
			return nil, err
		}
		if tries == 0 && waiting != nil {
			waiting(err)
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
