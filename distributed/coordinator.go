package distributed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// heartbeatInterval is how often workers say they are alive; a worker not heard from for three
// intervals counts as gone.
const heartbeatInterval = 2 * time.Second

// DefaultAckWait is how long a pair may go without a sign of life from its worker before it is
// handed to another.
const DefaultAckWait = 30 * time.Second

// Coordinator serves one run to workers over NATS and is the only writer of its records file.
type Coordinator struct {
	Tournament *arbiter.Tournament
	// Conn is the coordinator's connection, with rights to create the run's streams.
	Conn *nats.Conn
	// Expect are the identities of the run's engines, in configuration order (see Identify).
	Expect []EngineIdentity
	// AckWait is how long a worker may hold a pair without a sign of life (DefaultAckWait if 0).
	AckWait time.Duration
	// Console receives the per-game lines, rejections, progress lines and result blocks.
	Console io.Writer
	// Report writes the result tables, as for a local run.
	Report func(w io.Writer, s arbiter.Standings, final bool)
	// ResumeHint is printed when the run is interrupted.
	ResumeHint string
	// ProgressEvery is how often a progress line is printed (0: never).
	ProgressEvery time.Duration

	mu      sync.Mutex
	workers map[string]*WorkerStats
	spec    *RunSpec
	ref     *referee
	over    bool
	games   int // recorded, for status
	queued  atomic.Bool
	conMu   sync.Mutex
}

// Run serves the run until the schedule is played, the SPRT decides, or ctx is cancelled; the
// records file already written is resumed from. Its outcome is that of a local run of the same
// games.
func (c *Coordinator) Run(ctx context.Context) (*arbiter.Outcome, error) {
	t := c.Tournament
	cfg := t.Config()
	sched := t.Schedule()
	if c.AckWait <= 0 {
		c.AckWait = DefaultAckWait
	}
	c.workers = make(map[string]*WorkerStats)
	c.spec = newRunSpec(t, c.Expect)
	c.ref = &referee{spec: c.spec, schedule: sched}

	log, existing, err := results.OpenLog(cfg.Out)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	names := t.EngineNames()
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	out := &arbiter.Outcome{Run: t.Run(), Scheduled: sched.Len(), Standings: arbiter.Standings{Tally: results.NewTally(nil, names)}}
	done := make([]bool, sched.Len())
	perPair := sched.PairGames()
	pairs := &pairCounter{perPair: perPair, partial: make(map[int]int)}
	sprt := newSPRTTracker(cfg.SPRT, names[0], perPair)
	record := func(r *results.Record) {
		done[r.Game] = true
		c.mu.Lock()
		c.games++
		c.mu.Unlock()
		out.Tally.Add(r)
		pairs.add(r.Pair)
		if sprt != nil {
			sprt.add(r)
		}
	}
	for i := range existing {
		r := &existing[i]
		if r.Run != t.Run() {
			return nil, &arbiter.ConfigError{Msg: fmt.Sprintf("%s holds games of another run (%s, this configuration is %s): use another -out file", cfg.Out, r.Run, t.Run())}
		}
		if r.Game < len(done) && !done[r.Game] {
			record(r)
		}
	}
	pgn, err := openPGN(cfg, existing)
	if err != nil {
		return nil, err
	}
	if pgn != nil {
		defer pgn.Close()
	}
	if len(existing) > 0 {
		c.printf("Resuming run %s: %d of %d games already played (%s)\n", t.Run(), c.games, out.Scheduled, cfg.Out)
	}
	existing = nil
	standings := func() arbiter.Standings {
		s := arbiter.Standings{Tally: out.Tally}
		if sprt != nil {
			st := sprt.status()
			s.SPRT = &st
		}
		return s
	}
	finished := func() bool {
		return c.games == sched.Len() || (sprt != nil && sprt.status().Decision != arbiter.Continue)
	}

	js, err := jetstream.New(c.Conn)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	work, err := c.streams(ctx, js)
	if err != nil {
		return nil, err
	}
	if finished() {
		c.stop(ctx, work, "the run is already complete")
		out.SPRT = standings().SPRT
		c.report(standings(), true)
		return out, nil
	}

	subs, err := c.subscribe()
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, s := range subs {
			s.Unsubscribe()
		}
	}()

	// The queue is rebuilt from the records file: whatever it held before a restart is
	// replaced, and results of the old items that still arrive are duplicates.
	if err := work.Purge(ctx); err != nil {
		return nil, fmt.Errorf("distributed: purging the work queue: %w", err)
	}
	queued := 0
	for pair := 0; pair*perPair < sched.Len(); pair++ {
		left := 0
		for g := pair * perPair; g < (pair+1)*perPair; g++ {
			if !done[g] {
				left++
			}
		}
		if left == 0 {
			continue
		}
		if err := c.publishPair(ctx, js, pair, true); err != nil {
			return nil, err
		}
		queued++
	}
	if err := c.waitPublished(ctx, js); err != nil {
		return nil, err
	}
	c.queued.Store(true)
	c.printf("Queued %d game pairs for workers on %s\n", queued, workSubject(t.Run()))

	cons, err := js.Consumer(ctx, resultsStream(t.Run()), resultsConsumer)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	msgs, err := cons.Messages(jetstream.PullMaxMessages(64))
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	var receiving sync.WaitGroup
	defer receiving.Wait() // last: after the iterator is stopped and quit closed
	stopMsgs := context.AfterFunc(ctx, msgs.Stop)
	defer stopMsgs()
	defer msgs.Stop()

	var progress <-chan time.Time
	if c.ProgressEvery > 0 {
		tick := time.NewTicker(c.ProgressEvery)
		defer tick.Stop()
		progress = tick.C
	}
	incoming := make(chan jetstream.Msg, 64)
	recvDone := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	receiving.Add(1)
	go func() {
		defer receiving.Done()
		defer close(incoming)
		for {
			m, err := msgs.Next()
			if err != nil {
				recvDone <- err
				return
			}
			select {
			case incoming <- m:
			case <-quit:
				return
			}
		}
	}()

	pairsReported := pairs.complete
	type accepted struct {
		msg    jetstream.Msg
		worker string
		rec    *results.Record
	}
	var (
		batch []jetstream.Msg
		good  []accepted
		recs  []*results.Record
	)
	for !finished() {
		batch = batch[:0]
		select {
		case <-progress:
			c.printProgress(out.Tally.Games, sched.Len(), sprt)
			continue
		case m, ok := <-incoming:
			if !ok && ctx.Err() == nil {
				return out, fmt.Errorf("distributed: receiving results: %w", <-recvDone)
			}
			if ok {
				batch = append(batch, m)
			}
		case <-ctx.Done():
		}
		if len(batch) == 0 {
			out.Interrupted = true
			break
		}
		// Whatever else has arrived is checked with it, and the records file synced once for
		// all of them: a group commit, acknowledged only after the sync.
	more:
		for len(batch) < cap(incoming) {
			select {
			case m, ok := <-incoming:
				if !ok {
					break more
				}
				batch = append(batch, m)
			default:
				break more
			}
		}
		good, recs = good[:0], recs[:0]
		for _, m := range batch {
			worker := m.Subject()[strings.LastIndexByte(m.Subject(), '.')+1:]
			var res Result
			if err := json.Unmarshal(m.Data(), &res); err != nil {
				c.reject(&RejectedError{Worker: worker, Game: -1, Reason: "unreadable: " + err.Error()}, -1, js, ctx)
				m.Ack()
				continue
			}
			if r := res.Record; r != nil && r.Run == t.Run() && r.Game >= 0 && r.Game < len(done) && (done[r.Game] || inBatch(recs, r.Game)) {
				c.withWorker(worker, func(w *WorkerStats) { w.Duplicates++ })
				m.Ack()
				continue
			}
			if err := c.ref.check(worker, &res); err != nil {
				pair := -1
				if r := res.Record; r != nil && r.Run == t.Run() && r.Game >= 0 && r.Game < len(done) {
					pair = r.Game / perPair
				}
				c.reject(err, pair, js, ctx)
				m.Ack()
				continue
			}
			good = append(good, accepted{m, worker, res.Record})
			recs = append(recs, res.Record)
		}
		if err := log.AppendBatch(recs); err != nil {
			return out, err // not acknowledged: the results are redelivered after a restart
		}
		for _, a := range good {
			r := a.rec
			if pgn != nil {
				if err := results.WritePGN(pgn, r, results.PGNOptions{Event: cfg.Event}); err != nil {
					return out, fmt.Errorf("distributed: writing %s: %w", cfg.PGNOut, err)
				}
			}
			record(r)
			a.msg.Ack()
			c.withWorker(a.worker, func(w *WorkerStats) {
				first := r.White.Name
				if index[r.Black.Name] < index[r.White.Name] {
					first = r.Black.Name
				}
				w.count(r, first)
			})
			c.printf("Finished game %d (%s vs %s): %s {%s} on %s\n", r.Game+1, r.White.Name, r.Black.Name, r.Result, r.Detail, a.worker)
			if n := pairs.complete; cfg.RatingInterval > 0 && n/cfg.RatingInterval > pairsReported/cfg.RatingInterval {
				pairsReported = n
				c.report(standings(), false)
				c.printProgress(out.Tally.Games, sched.Len(), sprt)
			}
		}
	}
	out.SPRT = standings().SPRT
	if out.Interrupted {
		c.printf("Run was interrupted after %d of %d games; the workers wait for it.\n", out.Tally.Games, out.Scheduled)
		if c.ResumeHint != "" {
			c.printf("To resume it, run: %s\n", c.ResumeHint)
		}
	} else {
		reason := "the schedule is complete"
		if out.SPRT != nil && out.SPRT.Decision != arbiter.Continue {
			reason = "the SPRT has decided"
		}
		c.stop(context.WithoutCancel(ctx), work, reason)
	}
	c.writeWorkers()
	c.report(standings(), true)
	return out, nil
}

// pairCounter counts the game pairs all of whose games are recorded, remembering only the
// pairs still incomplete.
type pairCounter struct {
	perPair  int
	partial  map[int]int
	complete int
}

func (c *pairCounter) add(pair int) {
	c.partial[pair]++
	if c.partial[pair] == c.perPair {
		delete(c.partial, pair)
		c.complete++
	}
}

// newRunSpec is what workers are told of the run.
func newRunSpec(t *arbiter.Tournament, expect []EngineIdentity) *RunSpec {
	cfg := t.Config()
	spec := &RunSpec{
		Run: t.Run(), Seed: cfg.Seed, GameType: cfg.GameType, Scheduled: t.Schedule().Len(),
		Adjudication: cfg.Adjudication,
		StartTimeout: int64(cfg.StartTimeout), CommandTimeout: int64(cfg.CommandTimeout),
		DepthTimeout: int64(cfg.DepthTimeout), Expect: expect,
	}
	// Where an engine lives on the coordinator's machine (command, directory, environment) is
	// a default for workers that do not say where theirs is: on a shared file system, or the
	// coordinator's own machine, it is the same.
	spec.Engines = cfg.Engines
	return spec
}

// streams creates (or finds again, after a restart) the run's work queue, its results stream,
// and their consumers.
func (c *Coordinator) streams(ctx context.Context, js jetstream.JetStream) (jetstream.Stream, error) {
	run := c.Tournament.Run()
	work, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: workStream(run), Subjects: []string{workSubject(run)},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("distributed: work stream: %w", err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, workStream(run), jetstream.ConsumerConfig{
		Durable: workConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: c.AckWait,
		MaxDeliver: -1, MaxAckPending: 100000,
	}); err != nil {
		return nil, fmt.Errorf("distributed: work consumer: %w", err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: resultsStream(run), Subjects: []string{resultsSubject(run, "*")},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
		MaxMsgSize: 8 << 20,
	}); err != nil {
		return nil, fmt.Errorf("distributed: results stream: %w", err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, resultsStream(run), jetstream.ConsumerConfig{
		Durable: resultsConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
		MaxDeliver: -1, MaxAckPending: 1024,
	}); err != nil {
		return nil, fmt.Errorf("distributed: results consumer: %w", err)
	}
	return work, nil
}

// publishPair queues a game pair. At start-up pairs are published asynchronously, many at once
// (waitPublished waits for them); a pair played again after a rejection is published at once.
func (c *Coordinator) publishPair(ctx context.Context, js jetstream.JetStream, pair int, async bool) error {
	sched := c.Tournament.Schedule()
	item := WorkItem{Run: c.Tournament.Run(), Pair: pair}
	for g := pair * sched.PairGames(); g < (pair+1)*sched.PairGames(); g++ {
		item.Games = append(item.Games, sched.Game(g))
	}
	b, err := json.Marshal(item)
	if err != nil {
		return err
	}
	if async {
		for {
			_, err := js.PublishAsync(workSubject(item.Run), b)
			if !errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
				if err != nil {
					return fmt.Errorf("distributed: queueing pair %d: %w", pair, err)
				}
				return nil
			}
			if err := c.waitPublished(ctx, js); err != nil {
				return err
			}
		}
	}
	if _, err := js.Publish(ctx, workSubject(item.Run), b); err != nil {
		return fmt.Errorf("distributed: queueing pair %d again: %w", pair, err)
	}
	return nil
}

func (c *Coordinator) waitPublished(ctx context.Context, js jetstream.JetStream) error {
	select {
	case <-js.PublishAsyncComplete():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reject reports a refused result with its worker's name and queues its pair again.
func (c *Coordinator) reject(err error, pair int, js jetstream.JetStream, ctx context.Context) {
	var re *RejectedError
	if !errors.As(err, &re) {
		re = &RejectedError{Game: -1, Reason: err.Error()}
	}
	c.withWorker(re.Worker, func(w *WorkerStats) { w.Rejected++ })
	if pair < 0 {
		c.printf("Rejected a result from worker %s: %s\n", re.Worker, re.Reason)
		return
	}
	c.printf("Rejected the result of game %d from worker %s: %s; pair %d is played again\n", re.Game+1, re.Worker, re.Reason, pair)
	if err := c.publishPair(ctx, js, pair, false); err != nil {
		c.printf("%v\n", err)
	}
}

// stop ends the run for the workers: nothing more to pull, and every worker told.
func (c *Coordinator) stop(ctx context.Context, work jetstream.Stream, reason string) {
	c.mu.Lock()
	c.over = true
	c.mu.Unlock()
	if err := work.Purge(ctx); err != nil {
		c.printf("distributed: purging the work queue: %v\n", err)
	}
	b, _ := json.Marshal(Control{Stop: true, Reason: reason})
	c.Conn.Publish(controlSubject(c.Tournament.Run()), b)
	c.Conn.Flush()
}

// subscribe answers workers' hellos, heartbeats and status requests.
func (c *Coordinator) subscribe() ([]*nats.Subscription, error) {
	run := c.Tournament.Run()
	var subs []*nats.Subscription
	for subj, h := range map[string]nats.MsgHandler{
		helloSubject(run):          c.hello,
		heartbeatSubject(run, "*"): c.heartbeat,
		statusSubject(run):         c.status,
	} {
		s, err := c.Conn.Subscribe(subj, h)
		if err != nil {
			for _, s := range subs {
				s.Unsubscribe()
			}
			return nil, fmt.Errorf("distributed: %w", err)
		}
		subs = append(subs, s)
	}
	return subs, c.Conn.Flush()
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

// Status is the run's state and its workers'.
func (c *Coordinator) Status() *Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &Status{Run: c.Tournament.Run(), Scheduled: c.Tournament.Schedule().Len(), Recorded: c.games}
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
	if c.Console == nil {
		return
	}
	c.conMu.Lock()
	defer c.conMu.Unlock()
	fmt.Fprintf(c.Console, format, args...)
}

func (c *Coordinator) report(s arbiter.Standings, final bool) {
	if c.Report == nil || c.Console == nil {
		return
	}
	c.conMu.Lock()
	defer c.conMu.Unlock()
	c.Report(c.Console, s, final)
}

// printProgress prints where the run stands, with the workers and their games in flight.
func (c *Coordinator) printProgress(played, scheduled int, sprt *sprtTracker) {
	c.mu.Lock()
	workers := progressWorkers(c.sortedWorkers(), time.Now())
	c.mu.Unlock()
	line := fmt.Sprintf("Progress: %d of %d games; %s", played, scheduled, workers)
	if sprt != nil {
		st := sprt.status()
		line += fmt.Sprintf("; LLR %.2f (%.2f, %.2f)", st.LLR, st.Lower, st.Upper)
	}
	c.printf("%s\n", line)
}

// writeWorkers prints the per-worker statistics at the end of the run.
func (c *Coordinator) writeWorkers() {
	if c.Console == nil {
		return
	}
	s := c.Status()
	c.conMu.Lock()
	defer c.conMu.Unlock()
	WriteStatus(c.Console, s, time.Now())
	for _, w := range s.Workers {
		if w.Flagged {
			fmt.Fprintf(c.Console, "Worker %s is flagged: its results are improbable against the others' (p = %.2g)\n", w.Name, w.PValue)
		}
	}
}

// openPGN rewrites the PGN file from the records already played and leaves it open for
// appending, as a local run does.
func openPGN(cfg arbiter.Config, existing []results.Record) (*os.File, error) {
	if cfg.PGNOut == "" {
		return nil, nil
	}
	f, err := os.Create(cfg.PGNOut)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	for i := range existing {
		if err := results.WritePGN(f, &existing[i], results.PGNOptions{Event: cfg.Event}); err != nil {
			f.Close()
			return nil, fmt.Errorf("distributed: writing %s: %w", cfg.PGNOut, err)
		}
	}
	return f, nil
}

// inBatch reports whether a game is among records about to be written.
func inBatch(recs []*results.Record, game int) bool {
	for _, r := range recs {
		if r.Game == game {
			return true
		}
	}
	return false
}
