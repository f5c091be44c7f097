package distributed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/results"
)

// heartbeatInterval is how often workers say they are alive; a worker not heard from for three
// intervals counts as gone.
const heartbeatInterval = 2 * time.Second

// DefaultAckWait is how long a pair may go without a sign of life from its worker before it is
// handed to another.
const DefaultAckWait = 30 * time.Second

// DefaultMaxRejections is how many results of one game pair the coordinator rejects before it
// takes the pair out of the run: a pair that no worker plays acceptably is not retried forever.
const DefaultMaxRejections = 3

// DefaultWindow is how many game pairs a coordinator keeps queued for its workers: enough to
// keep many workers busy, few enough that an SPRT that stops leaves little to purge.
const DefaultWindow = 1024

// Coordinator serves one run's game pairs to workers over NATS: it is the run's arbiter.Runner.
// It queues the pairs the tournament's dispatcher hands out, takes the workers' records, checks
// each with the referee, passes it to the tournament's collector (which appends it to the
// records file, synced, and keeps the tables and the SPRT exactly as for a local run) and only
// then acknowledges it.
type Coordinator struct {
	Tournament *arbiter.Tournament
	// Conn is the coordinator's connection, with rights to create the run's streams.
	Conn *nats.Conn
	// Expect are the identities of the run's engines, in configuration order (see Identify).
	Expect []EngineIdentity
	// AckWait is how long a worker may hold a pair without a sign of life (DefaultAckWait if 0).
	AckWait time.Duration
	// Window is how many pairs are queued at once (DefaultWindow if 0).
	Window int
	// Console receives rejections, workers joining and progress lines; nil discards them.
	Console io.Writer
	// ProgressEvery is how often a progress line with the workers is printed (0: never).
	ProgressEvery time.Duration
	// MaxRejections is how many rejected results take a pair out of the run
	// (DefaultMaxRejections if 0). Results refused from a quarantined worker do not count.
	MaxRejections int
	// TakenOut and Workers are where an earlier coordinator of the run left it (its Status,
	// kept across a restart): the pairs it took out are not queued again, and the workers'
	// statistics (games, faults, rejections, the chi-square flags) go on from there.
	TakenOut []TakenOut
	Workers  []WorkerStats
	// Excluded are workers a person took out of the run (their games taken out of its records
	// file before this coordinator started): they may not join it again, and a result of theirs
	// still on its way is refused, its pair played again by others.
	Excluded []string
	// Changed, if set, is called when the run's status changes other than by a game recorded
	// (a pair taken out), for a caller that keeps it, before the console says so; not with the
	// coordinator's lock held.
	Changed func()

	mu        sync.Mutex
	workers   map[string]*WorkerStats
	takenOut  []TakenOut
	spec      *RunSpec
	ref       *referee
	over      bool
	collected int
	js        jetstream.JetStream
	work      jetstream.Stream
	subs      []*nats.Subscription
	con       syncbuf.Printer
	started   bool // by Start, which Serve then skips
}

// Serve plays the coordinator's tournament through its workers: the outcome, the records and so
// the exit codes are those of a local run. At the end of the run (not when ctx interrupts it)
// the queue is purged, the workers are told to stop, and their statistics are printed.
func Serve(ctx context.Context, c *Coordinator) (*arbiter.Outcome, error) {
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	defer c.Close()
	out, err := c.Tournament.PlayOn(ctx, c)
	if err != nil || out.Interrupted {
		return out, err
	}
	reason := "the schedule is complete"
	if out.SPRT != nil && out.SPRT.Decision != arbiter.Continue {
		reason = "the SPRT has decided"
	}
	c.Finish(context.WithoutCancel(ctx), reason)
	c.writeWorkers()
	return out, nil
}

// WriteReport implements console.Reporter: each result block says who played the games, the
// workers and their games in flight.
func (c *Coordinator) WriteReport(w io.Writer) {
	c.mu.Lock()
	line := progressWorkers(c.sortedWorkers(), time.Now())
	c.mu.Unlock()
	fmt.Fprintf(w, "Workers: %s\n", line)
}

// Start creates (or finds again, after a restart) the run's streams and answers workers' hellos,
// heartbeats and status requests. Serve starts the coordinator unless it was started before.
func (c *Coordinator) Start(ctx context.Context) error {
	if c.started {
		return nil
	}
	t := c.Tournament
	if c.AckWait <= 0 {
		c.AckWait = DefaultAckWait
	}
	if c.Window <= 0 {
		c.Window = DefaultWindow
	}
	if c.MaxRejections <= 0 {
		c.MaxRejections = DefaultMaxRejections
	}
	// Status may be asked from the start (a pool's scheduler holds the coordinator before it
	// serves): what it reads is set under the lock.
	c.mu.Lock()
	c.workers = make(map[string]*WorkerStats)
	for _, w := range c.Workers {
		w.InFlight = nil
		c.workers[w.Name] = &w
	}
	c.takenOut = slices.Clone(c.TakenOut)
	c.spec = newRunSpec(t, c.Expect)
	c.ref = &referee{spec: c.spec, schedule: t.Schedule()}
	c.mu.Unlock()
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return fmt.Errorf("distributed: %w", err)
	}
	c.js = js
	if c.work, err = c.streams(ctx); err != nil {
		return err
	}
	if err := c.subscribe(); err != nil {
		return err
	}
	c.started = true
	return nil
}

// Close stops answering workers, and lets go of what the run held on the connection.
func (c *Coordinator) Close() {
	for _, s := range c.subs {
		s.Unsubscribe()
	}
	c.subs = nil
	if c.js != nil {
		// The publisher of its queue's pairs keeps a subscription and a goroutine on the
		// connection until it is cleaned up: on a pool's connection, which outlives its runs,
		// one of each for every run the pool ever served.
		c.js.CleanupPublisher()
	}
}

// Run implements arbiter.Runner: it keeps up to Window pairs of the dispatcher's queued and
// passes every checked record to collect. It returns when every pair handed out is recorded and
// the dispatcher has no more, or when ctx ends (an SPRT decided, or the run is interrupted).
func (c *Coordinator) Run(ctx context.Context, d *arbiter.Dispatcher, collect func(*results.Record) error) error {
	// The queue is rebuilt from the dispatcher, which knows from the records file what is left:
	// whatever it held before a restart goes, and results of that which still arrive are
	// duplicates.
	if err := c.work.Purge(ctx); err != nil {
		return fmt.Errorf("distributed: purging the work queue: %w", err)
	}
	q := &pairQueue{c: c, d: d, pending: make(map[int]*arbiter.PairJob), rejected: make(map[int]int)}
	if err := q.refill(ctx, true); err != nil {
		return ignoreCancel(err)
	}
	c.printf("Queued %d game pairs for workers on %s\n", len(q.pending), workSubject(c.Tournament.Run()))
	in, err := c.receive(ctx)
	if err != nil {
		return err
	}
	defer in.stop()
	var progress <-chan time.Time
	if c.ProgressEvery > 0 {
		tick := time.NewTicker(c.ProgressEvery)
		defer tick.Stop()
		progress = tick.C
	}
	for len(q.pending) > 0 {
		select {
		case <-progress:
			c.printProgress()
		case m, ok := <-in.msgs:
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("distributed: receiving results: %w", <-in.err)
			}
			if err := c.take(ctx, m, q, collect); err != nil {
				return err
			}
		case <-ctx.Done():
			return nil // the games in flight are played again on resume
		}
	}
	return nil
}

// pairQueue is the pairs a coordinator has queued, each with its games not yet recorded.
type pairQueue struct {
	c       *Coordinator
	d       *arbiter.Dispatcher
	pending map[int]*arbiter.PairJob
	// rejected counts the rejected results of each pending pair.
	rejected map[int]int
}

// refill queues the dispatcher's next pairs until Window are pending: asynchronously, waiting
// for them all at the end, at start-up; one at a time afterwards.
func (q *pairQueue) refill(ctx context.Context, async bool) error {
	for len(q.pending) < q.c.Window {
		job, ok := q.d.Next()
		if !ok {
			break
		}
		if q.c.isTakenOut(job.Pair) {
			continue // by an earlier coordinator of the run
		}
		q.pending[job.Pair] = &job
		if err := q.c.publish(ctx, job, async); err != nil {
			return err
		}
	}
	if async {
		return q.c.waitPublished(ctx)
	}
	return nil
}

// inbox is the workers' results as they arrive; err says why msgs closed, unless ctx ended.
type inbox struct {
	msgs <-chan jetstream.Msg
	err  <-chan error
	stop func() // stops receiving and waits for the receiver
}

// receive starts taking the workers' results from the run's results stream.
func (c *Coordinator) receive(ctx context.Context) (*inbox, error) {
	cons, err := c.js.Consumer(ctx, resultsStream(c.Tournament.Run()), resultsConsumer)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	iter, err := cons.Messages(jetstream.PullMaxMessages(64))
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	msgs, errs, quit := make(chan jetstream.Msg), make(chan error, 1), make(chan struct{})
	var receiving sync.WaitGroup
	stopIter := context.AfterFunc(ctx, iter.Stop)
	receiving.Add(1)
	go func() {
		defer receiving.Done()
		defer close(msgs)
		for {
			m, err := iter.Next()
			if err != nil {
				errs <- err
				return
			}
			select {
			case msgs <- m:
			case <-quit:
				return
			}
		}
	}()
	stop := func() {
		stopIter()
		iter.Stop()
		close(quit)
		receiving.Wait()
	}
	return &inbox{msgs: msgs, err: errs, stop: stop}, nil
}

// take checks a worker's result and, if the run can count it, collects it and acknowledges it;
// a pair whose games are all recorded makes room for the next. An error ends the run (collect
// failed): the result is not acknowledged, so it comes again after a restart.
func (c *Coordinator) take(ctx context.Context, m jetstream.Msg, q *pairQueue, collect func(*results.Record) error) error {
	t := c.Tournament
	run, perPair, scheduled := t.Run(), t.Schedule().PairGames(), t.Schedule().Len()
	worker := m.Subject()[strings.LastIndexByte(m.Subject(), '.')+1:]
	var res Result
	if err := json.Unmarshal(m.Data(), &res); err != nil {
		c.reject(ctx, &RejectedError{Worker: worker, Game: -1, Reason: "unreadable: " + err.Error()}, nil, q)
		m.Ack()
		return nil
	}
	r := res.Record
	var job *arbiter.PairJob
	if r != nil && r.Run == run && r.Game >= 0 && r.Game < scheduled {
		job = q.pending[r.Game/perPair]
		if job == nil || !slices.ContainsFunc(job.Games, func(g arbiter.ScheduledGame) bool { return g.Index == r.Game }) {
			// Recorded already: a pair played again after its worker was thought lost, or
			// the queue of a coordinator that restarted.
			c.withWorker(worker, func(w *WorkerStats) { w.Duplicates++ })
			m.Ack()
			return nil
		}
	}
	err := c.ref.check(worker, &res)
	if err == nil && slices.Contains(c.Excluded, worker) {
		// Sent before it was taken out, and not acknowledged then: its pair is played again
		// by others, and this does not count against the pair.
		err = &RejectedError{Worker: worker, Game: r.Game, Reason: ExcludedReason, quarantine: true}
	}
	if err == nil && c.quarantined(worker) {
		// Its results are improbable against the others': what it sends now is played again
		// by others, and does not count against the pair.
		err = &RejectedError{Worker: worker, Game: r.Game, Reason: "the worker is quarantined (its results are improbable against the others')", quarantine: true}
	}
	if err != nil {
		c.reject(ctx, err, job, q)
		m.Ack()
		return nil
	}
	// Who played it is the subject's worker, whom the NATS server let publish there, not what
	// the record says.
	r.Worker = worker
	if err := collect(r); err != nil {
		return err
	}
	m.Ack()
	c.counted(worker, r)
	job.Games = slices.DeleteFunc(job.Games, func(g arbiter.ScheduledGame) bool { return g.Index == r.Game })
	if len(job.Games) == 0 {
		delete(q.pending, job.Pair)
		if err := q.refill(ctx, false); err != nil {
			return ignoreCancel(err)
		}
	}
	return nil
}

// Finish ends the run for the workers: nothing more to pull, every worker told to stop, and
// latecomers told the run is over.
func (c *Coordinator) Finish(ctx context.Context, reason string) {
	c.mu.Lock()
	c.over = true
	c.mu.Unlock()
	if c.work == nil {
		// It failed before it had a queue (Start): there is none to purge, and the workers
		// that came are told all the same.
	} else if err := c.work.Purge(ctx); err != nil {
		c.printf("distributed: purging the work queue: %v\n", err)
	}
	b, _ := json.Marshal(Control{Stop: true, Reason: reason})
	c.Conn.Publish(controlSubject(c.Tournament.Run()), b)
	c.Conn.Flush()
}

// counted adds a recorded game to its worker's statistics.
func (c *Coordinator) counted(worker string, r *results.Record) {
	first := r.White.Name
	for _, e := range c.spec.Engines {
		if e.Name == r.Black.Name {
			first = r.Black.Name
			break
		}
		if e.Name == r.White.Name {
			break
		}
	}
	c.withWorker(worker, func(w *WorkerStats) { w.count(r, first) })
	c.mu.Lock()
	c.collected++
	c.mu.Unlock()
}

// newRunSpec is what workers are told of the run.
func newRunSpec(t *arbiter.Tournament, expect []EngineIdentity) *RunSpec {
	cfg := t.Config()
	return &RunSpec{
		Run: t.Run(), Seed: cfg.Seed, GameType: cfg.GameType, Scheduled: t.Schedule().Len(),
		Adjudication: cfg.Adjudication,
		StartTimeout: int64(cfg.StartTimeout), CommandTimeout: int64(cfg.CommandTimeout),
		DepthTimeout: int64(cfg.DepthTimeout), Expect: expect, OnEngineFailure: cfg.OnEngineFailure,
		// Where an engine lives on the coordinator's machine (command, directory, environment)
		// is a default for workers that do not say where theirs is: on a shared file system, or
		// on the coordinator's own machine, it is the same.
		Engines: cfg.Engines,
	}
}

// streams creates (or finds again, after a restart) the run's work queue, its results stream,
// and their consumers.
func (c *Coordinator) streams(ctx context.Context) (jetstream.Stream, error) {
	run := c.Tournament.Run()
	work, err := c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: workStream(run), Subjects: []string{workSubject(run)},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("distributed: work stream: %w", err)
	}
	if _, err := c.js.CreateOrUpdateConsumer(ctx, workStream(run), jetstream.ConsumerConfig{
		Durable: workConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: c.AckWait,
		MaxDeliver: -1, MaxAckPending: 100000,
	}); err != nil {
		return nil, fmt.Errorf("distributed: work consumer: %w", err)
	}
	if _, err := c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: resultsStream(run), Subjects: []string{resultsSubject(run, "*")},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
		MaxMsgSize: 8 << 20,
	}); err != nil {
		return nil, fmt.Errorf("distributed: results stream: %w", err)
	}
	if _, err := c.js.CreateOrUpdateConsumer(ctx, resultsStream(run), jetstream.ConsumerConfig{
		Durable: resultsConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
		MaxDeliver: -1, MaxAckPending: 1024,
	}); err != nil {
		return nil, fmt.Errorf("distributed: results consumer: %w", err)
	}
	return work, nil
}

// publish queues a game pair, each game with the configuration the tournament gives it. At
// start-up pairs are published asynchronously, many at once (waitPublished waits for them);
// afterwards one at a time.
func (c *Coordinator) publish(ctx context.Context, job arbiter.PairJob, async bool) error {
	t := c.Tournament
	item := WorkItem{Run: t.Run(), Pair: job.Pair}
	for _, sg := range job.Games {
		item.Games = append(item.Games, WorkGame{Game: sg, Config: t.GameConfig(sg)})
	}
	b, err := json.Marshal(item)
	if err != nil {
		return err
	}
	subject := workSubject(item.Run)
	if !async {
		if _, err := c.js.Publish(ctx, subject, b); err != nil {
			return fmt.Errorf("distributed: queueing pair %d: %w", job.Pair, err)
		}
		return nil
	}
	for {
		_, err := c.js.PublishAsync(subject, b)
		if !errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
			if err != nil {
				return fmt.Errorf("distributed: queueing pair %d: %w", job.Pair, err)
			}
			return nil
		}
		if err := c.waitPublished(ctx); err != nil {
			return err
		}
	}
}

func (c *Coordinator) waitPublished(ctx context.Context) error {
	select {
	case <-c.js.PublishAsyncComplete():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reject reports a refused result with its worker's name and queues the rest of its pair again,
// or, when the pair has had too many results rejected, takes it out of the run.
func (c *Coordinator) reject(ctx context.Context, err error, job *arbiter.PairJob, q *pairQueue) {
	var re *RejectedError
	if !errors.As(err, &re) {
		re = &RejectedError{Game: -1, Reason: err.Error()}
	}
	c.withWorker(re.Worker, func(w *WorkerStats) { w.Rejected++ })
	if job == nil {
		c.printf("Rejected a result from worker %s: %s\n", re.Worker, re.Reason)
		return
	}
	if !re.quarantine {
		q.rejected[job.Pair]++
	}
	if q.rejected[job.Pair] >= c.MaxRejections {
		c.mu.Lock()
		c.takenOut = append(c.takenOut, TakenOut{Pair: job.Pair, Reason: re.Reason})
		c.mu.Unlock()
		if c.Changed != nil {
			c.Changed() // kept before it is said
		}
		c.printf("Rejected the result of game %d from worker %s: %s; pair %d is taken out of the run after %d rejected results\n",
			re.Game+1, re.Worker, re.Reason, job.Pair, q.rejected[job.Pair])
		delete(q.pending, job.Pair)
		delete(q.rejected, job.Pair)
		if err := q.refill(ctx, false); err != nil {
			c.printf("%v\n", err)
		}
		return
	}
	c.printf("Rejected the result of game %d from worker %s: %s; pair %d is played again\n", re.Game+1, re.Worker, re.Reason, job.Pair)
	if err := c.publish(ctx, *job, false); err != nil {
		c.printf("%v\n", err)
	}
}

// subscribe answers workers' hellos, heartbeats and status requests.
func (c *Coordinator) subscribe() error {
	run := c.Tournament.Run()
	for subj, h := range map[string]nats.MsgHandler{
		helloSubject(run):          c.hello,
		heartbeatSubject(run, "*"): c.heartbeat,
		movesSubject(run, "*"):     c.moveNote,
		statusSubject(run):         c.status,
	} {
		s, err := c.Conn.Subscribe(subj, h)
		if err != nil {
			c.Close()
			return fmt.Errorf("distributed: %w", err)
		}
		c.subs = append(c.subs, s)
	}
	return c.Conn.Flush()
}

func (c *Coordinator) hello(m *nats.Msg) {
	var h Hello
	if err := json.Unmarshal(m.Data, &h); err != nil || h.Worker == "" || strings.ContainsAny(h.Worker, ".*> \t") {
		reply(m, Welcome{Refused: "unreadable hello, or a worker name that is not one NATS subject token"})
		return
	}
	c.mu.Lock()
	over := c.over
	c.mu.Unlock()
	if over {
		reply(m, Welcome{Finished: true})
		return
	}
	if slices.Contains(c.Excluded, h.Worker) {
		reply(m, Welcome{Refused: ExcludedReason})
		return
	}
	if h.Unfit != "" {
		c.withWorker(h.Worker, func(w *WorkerStats) { w.Slots, w.LastSeen, w.Refused = h.Slots, time.Now(), h.Unfit })
		c.printf("Worker %s cannot play the run: %s\n", h.Worker, h.Unfit)
		reply(m, Welcome{Refused: h.Unfit})
		return
	}
	if h.Engines == nil { // the worker asks which engines the run plays
		reply(m, Welcome{Spec: c.spec})
		return
	}
	refused := ""
	if err := sameEngines(c.spec.Expect, h.Engines); err != nil {
		refused = err.Error()
	}
	c.withWorker(h.Worker, func(w *WorkerStats) {
		w.Slots, w.LastSeen, w.Refused = h.Slots, time.Now(), refused
	})
	if refused != "" {
		c.printf("Refused worker %s: %s\n", h.Worker, refused)
		reply(m, Welcome{Refused: refused})
		return
	}
	c.printf("Worker %s joined with %d slots\n", h.Worker, h.Slots)
	reply(m, Welcome{Spec: c.spec})
}

func (c *Coordinator) heartbeat(m *nats.Msg) {
	var h Heartbeat
	if json.Unmarshal(m.Data, &h) != nil {
		return
	}
	worker := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	c.withWorker(worker, func(w *WorkerStats) { w.Slots, w.InFlight, w.LastSeen = h.Slots, h.InFlight, time.Now() })
}

func (c *Coordinator) status(m *nats.Msg) { reply(m, c.Status()) }

// moveNote shows the tournament's observers (its live pages) a game a worker plays as it is
// played: its start, and each move.
func (c *Coordinator) moveNote(m *nats.Msg) {
	var n MoveNote
	t := c.Tournament
	if json.Unmarshal(m.Data, &n) != nil || n.Game < 0 || n.Game >= t.Schedule().Len() {
		return
	}
	for _, o := range t.Observers() {
		if n.Move == nil {
			o.GameStarted(t.Schedule().Game(n.Game), n.White, n.Black)
		} else {
			o.MovePlayed(n.Game, *n.Move)
		}
	}
}

// Status is where the run stands with its workers.
func (c *Coordinator) Status() *Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &Status{Run: c.Tournament.Run(), Scheduled: c.Tournament.Schedule().Len(), Collected: c.collected,
		TakenOut: slices.Clone(c.takenOut)}
	for _, w := range c.sortedWorkers() {
		s.Workers = append(s.Workers, *w)
	}
	return s
}

// sortedWorkers lists the workers by name, judged; c.mu is held.
func (c *Coordinator) sortedWorkers() []*WorkerStats {
	ws := make([]*WorkerStats, 0, len(c.workers))
	for _, w := range c.workers {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].Name < ws[j].Name })
	judge(ws)
	return ws
}

func reply(m *nats.Msg, v any) {
	b, _ := json.Marshal(v)
	m.Respond(b)
}

func (c *Coordinator) withWorker(name string, f func(w *WorkerStats)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.workers[name]
	if w == nil {
		w = &WorkerStats{Name: name, PValue: 1}
		c.workers[name] = w
	}
	f(w)
}

func (c *Coordinator) printf(format string, args ...any) {
	c.con.Printf(c.Console, format, args...)
}

// printProgress prints the workers connected and their games in flight.
func (c *Coordinator) printProgress() {
	c.mu.Lock()
	line := fmt.Sprintf("Progress: %d games recorded from workers since start; %s", c.collected, progressWorkers(c.sortedWorkers(), time.Now()))
	c.mu.Unlock()
	c.printf("%s\n", line)
}

// writeWorkers prints the per-worker statistics at the end of the run.
func (c *Coordinator) writeWorkers() {
	if c.Console == nil {
		return
	}
	s := c.Status()
	c.con.Print(c.Console, func(out io.Writer) {
		WriteStatus(out, s, time.Now())
		for _, w := range s.Workers {
			if w.Flagged {
				fmt.Fprintf(out, "Worker %s is flagged: its results are improbable against the others' (p = %.2g)\n", w.Name, w.PValue)
			}
		}
	})
}

// ExcludedReason is why a worker taken out of a run (Coordinator.Excluded) is refused.
const ExcludedReason = "the worker was taken out of the run: its games were taken out of the records, and others play them again"

// TakenOut is a game pair taken out of a run, and why: its results were rejected
// Coordinator.MaxRejections times. A coordinator started again on the run queues it again,
// unless it is given it (Coordinator.TakenOut).
type TakenOut struct {
	Pair   int    `json:"pair"`
	Reason string `json:"reason"` // the last rejection's
}

// quarantined reports whether a worker's results are improbable against the others' (see
// judge): its results are no longer counted.
func (c *Coordinator) quarantined(worker string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.workers[worker] == nil {
		return false
	}
	c.sortedWorkers() // judges every worker
	return c.workers[worker].Flagged
}

// isTakenOut reports whether a pair was taken out of the run.
func (c *Coordinator) isTakenOut(pair int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.ContainsFunc(c.takenOut, func(t TakenOut) bool { return t.Pair == pair })
}
