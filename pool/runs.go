package pool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/console"
	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
	"hivearbiter/report"
	"hivearbiter/results"
)

// run is a run the server knows: its state as the bucket keeps it, and while it is active
// the coordinator that serves it.
type run struct {
	state RunState
	sub   *Submission
	// While active: the coordinator, how to stop it, and when it has stopped.
	coord *distributed.Coordinator
	// live is the run's live page while it is active.
	live *report.Live
	// final is where the run stood with its workers when its coordinator last stopped.
	final  *distributed.Status
	cancel context.CancelFunc
	done   chan struct{}
	// tune serves a tune run's pairs while it is active (pool/tune.go).
	tune *tuneServe
	// assigned are the workers playing it, with their slots, until their batch ends.
	assigned map[string]assignment
	// started and startGames measure the run's rate since the server started it.
	started    time.Time
	startGames int
	saved      time.Time
}

type assignment struct {
	slots int
	until time.Time
}

// runKey and subKey are the bucket's keys of a run.
func runKey(id string) string { return "run." + id }
func subKey(id string) string { return "sub." + id }

// loadRuns reads the runs from the bucket and starts those that were active.
func (s *Server) loadRuns(ctx context.Context) error {
	keys, err := s.kv.ListKeys(ctx)
	if err != nil {
		return fmt.Errorf("pool: listing runs: %w", err)
	}
	var ids []string
	for k := range keys.Keys() {
		if id, ok := strings.CutPrefix(k, "run."); ok {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		r := &run{assigned: map[string]assignment{}}
		if err := s.get(ctx, runKey(id), &r.state); err != nil {
			return err
		}
		r.sub = new(Submission)
		if err := s.get(ctx, subKey(id), r.sub); errors.Is(err, jetstream.ErrKeyNotFound) {
			// A state without its submission (written late, after the run was deleted): not
			// a run to play, and no reason to keep the others from being served.
			s.printf("Run %s has a state but no submission in the bucket: skipped\n", id)
			continue
		} else if err != nil {
			return err
		}
		if r.state.Seeds == 0 {
			r.state.Seeds = r.sub.Config.Seeds // a state of an arbiter that did not keep them
		}
		s.mu.Lock()
		s.runs[id] = r
		s.mu.Unlock()
		if r.state.Over() {
			// Left by a server killed as the run ended, or by one that kept them.
			s.dropStreams(id)
		}
		if r.state.State == StateActive {
			if err := s.startRun(r); err != nil {
				s.ended(r, StateFailed, err.Error(), nil)
			}
		}
	}
	return nil
}

func (s *Server) get(ctx context.Context, key string, v any) error {
	e, err := s.kv.Get(ctx, key)
	if err != nil {
		return fmt.Errorf("pool: reading %s: %w", key, err)
	}
	if err := json.Unmarshal(e.Value(), v); err != nil {
		return fmt.Errorf("pool: reading %s: %w", key, err)
	}
	return nil
}

func (s *Server) put(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// The last state of a run is written as the server closes, too.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 10*time.Second)
	defer cancel()
	if _, err := s.kv.Put(ctx, key, b); err != nil {
		return fmt.Errorf("pool: writing %s: %w", key, err)
	}
	return nil
}

// saveState writes a run's state to the bucket, with where it stands with its workers; s.mu
// is not held.
func (s *Server) saveState(r *run) {
	// One save at a time, from the copy to the write: saves racing (a run's timer, a command,
	// its end) would otherwise land out of order, and an older "active" after "stopped".
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	if status := r.status(); status != nil {
		r.state.TakenOut, r.state.Workers = status.TakenOut, status.Workers
	}
	st := r.state
	r.saved = time.Now()
	s.mu.Unlock()
	if err := s.put(runKey(st.ID), st); err != nil {
		s.printf("%v\n", err)
	}
}

// Submit adds a run to the pool and starts it. Its id is the tournament's fingerprint, so the
// same run submitted twice is refused.
func (s *Server) Submit(sub *Submission) (*RunState, error) {
	if sub.Tune != nil {
		return s.submitTune(sub)
	}
	t, err := s.tournament(sub, "")
	if err != nil {
		return nil, err
	}
	id := t.Run()
	if t, err = s.tournament(sub, id); err != nil {
		return nil, err
	}
	if sub.Share <= 0 {
		sub.Share = 1
	}
	cfg := t.Config()
	if sub.Scale != nil {
		if err := sub.Scale.check(cfg.Engines); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	r := &run{sub: sub, assigned: map[string]assignment{}, state: RunState{
		ID: id, Format: string(cfg.Format), Engines: names, Seeds: cfg.Seeds, Priority: sub.Priority, Share: sub.Share,
		Platforms: sub.Platforms, State: StateActive, Submitted: time.Now().UTC(),
		Records: cfg.Out, Scheduled: t.Scheduled(), Scale: sub.Scale,
	}}
	return s.admit(r, s.startRun, fmt.Sprintf("%s of %s, %d games", r.state.Format, strings.Join(names, ", "), r.state.Scheduled))
}

// admit enters a new run in the pool, writes its submission and state to the bucket and starts
// it with start; a run of the same id is refused. what describes it on the console.
func (s *Server) admit(r *run, start func(*run) error, what string) (*RunState, error) {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	if err := s.checkArtifacts(r.sub); err != nil {
		return nil, err
	}
	if err := s.admitPerson(r); err != nil { // its submitter's limits, and whether it waits for approval
		return nil, err
	}
	id := r.state.ID
	s.mu.Lock()
	if old := s.runs[id]; old != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("pool: run %s is in the pool already (%s)", id, old.state.State)
	}
	s.runs[id] = r
	s.mu.Unlock()
	if err := s.put(subKey(id), r.sub); err != nil {
		// Not in the bucket, so not in the pool: the same run may be submitted again.
		s.mu.Lock()
		delete(s.runs, id)
		s.mu.Unlock()
		return nil, err
	}
	s.saveState(r)
	if r.state.State != StatePending {
		if err := start(r); err != nil {
			s.ended(r, StateFailed, err.Error(), nil)
			return nil, err
		}
	}
	s.admitted(r, what)
	s.printf("Run %s submitted: %s\n", id, what)
	s.mu.Lock()
	judged := s.judge(r, time.Now())
	if by := r.state.PlayableBy(); len(by) > 0 {
		judged = fmt.Sprintf("Run %s can be played by %s\n", id, strings.Join(by, ", "))
	}
	s.mu.Unlock()
	if judged != "" {
		s.printf("%s", judged)
	}
	st := s.runState(id)
	return &st, nil
}

// openingsFile writes a submission's openings (the content of the file its submitter named)
// under the server's directory, named by their hash, and returns its path there; "" when the
// submission names no file.
func (s *Server) openingsFile(sub *Submission, named string) (string, error) {
	if named == "" {
		return "", nil
	}
	sum := sha256.Sum256(sub.Openings)
	path := filepath.Join(s.cfg.Dir, "runs", "openings-"+hex.EncodeToString(sum[:8])+filepath.Ext(named))
	if err := os.WriteFile(path, sub.Openings, 0o600); err != nil {
		return "", fmt.Errorf("pool: %w", err)
	}
	return path, nil
}

// tournament lays out a submission's tournament as the server plays it (see runConfig).
func (s *Server) tournament(sub *Submission, id string) (*arbiter.Tournament, error) {
	cfg, err := s.runConfig(sub, id)
	if err != nil {
		return nil, err
	}
	return arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
}

// runConfig is a submission's configuration as the server plays it, its defaults filled in:
// its records file under the server's directory (when its id is known), its openings file
// beside it, and nothing written on the submitter's paths.
func (s *Server) runConfig(sub *Submission, id string) (arbiter.Config, error) {
	cfg := sub.Config
	cfg.PGNOut, cfg.JSONOut, cfg.TranscriptDir, cfg.Shard = "", "", "", arbiter.Shard{}
	cfg.Out = filepath.Join(s.cfg.Dir, "runs", "pending.jsonl")
	if id != "" {
		cfg.Out = filepath.Join(s.cfg.Dir, "runs", id+".jsonl")
	}
	if sub.Records != "" {
		cfg.Out = sub.Records // a list's batch: the list's one records file
	}
	var err error
	if cfg.Openings.File, err = s.openingsFile(sub, cfg.Openings.File); err != nil {
		return cfg, err
	}
	if len(sub.Expect) != len(cfg.Engines) {
		return cfg, errors.New("pool: the submission does not identify each of its engines")
	}
	return cfg, cfg.Normalize()
}

// startRun starts a coordinator for the run, which resumes from its records file.
func (s *Server) startRun(r *run) error {
	if r.sub.Tune != nil {
		return s.startTune(r)
	}
	cfg, err := s.runConfig(r.sub, r.state.ID)
	if err != nil {
		return err
	}
	if err := s.takeOutExcluded(r); err != nil {
		return err
	}
	live := report.NewLive(s.pageOptions(r.state))
	pages, err := report.ObserveRun(cfg, live)
	if err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(s.cfg.Dir, "runs", r.state.ID+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	obs := &runObserver{s: s, r: r}
	lines := console.New(log, console.Options{Report: func(w io.Writer, r arbiter.StandingsReport) {
		console.WriteStandings(w, r.Tournament, r.Standings, r.Final, false)
	}})
	t, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{lines, obs, pages}})
	if err != nil {
		log.Close()
		return err
	}
	obs.scheduled = t.Scheduled()
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	takenOut, workers, excluded := slices.Clone(r.state.TakenOut), slices.Clone(r.state.Workers), r.state.ExcludedWorkers()
	s.mu.Unlock()
	coord := &distributed.Coordinator{Tournament: t, Conn: s.nc, Expect: r.sub.Expect, AckWait: s.cfg.AckWait,
		Console: lines, TakenOut: takenOut, Workers: workers, Excluded: excluded,
		Changed: func() { s.saveState(r) }}
	err = coord.Start(ctx)
	if err != nil {
		cancel()
		coord.Close()
		log.Close()
		return err
	}
	s.mu.Lock()
	r.coord, r.cancel, r.done, r.live = coord, cancel, make(chan struct{}), live
	r.started, r.startGames = time.Now(), r.state.Games()
	r.state.State, r.state.Reason = StateActive, ""
	done := r.done
	s.mu.Unlock()
	s.runWG.Add(1)
	go func() {
		defer s.runWG.Done()
		defer close(done)
		defer log.Close()
		out, err := distributed.Serve(ctx, coord)
		obs.flush()
		s.mu.Lock()
		r.final = coord.Status()
		s.mu.Unlock()
		switch {
		case err != nil && ctx.Err() == nil:
			// Its workers are told before its streams go (ended), or one holding a pair
			// would wait for them.
			coord.Finish(context.WithoutCancel(ctx), "the run failed: "+err.Error())
			s.ended(r, StateFailed, err.Error(), nil)
		case err != nil, out.Interrupted:
			// An error of the cancellation itself (the coordinator cut short while it
			// purged or read its streams) is an interruption too: a server closing while a
			// run starts must not fail the run it resumes when it starts again.
			// Paused, stopped, or the server is closing: whoever cancelled says what it is.
			coord.Finish(context.WithoutCancel(ctx), "the run was paused or stopped")
		default:
			s.ended(r, StateFinished, outcomeReason(out), out.Summary())
		}
	}()
	return nil
}

// outcomeReason says why a run ended by itself.
func outcomeReason(out *arbiter.Outcome) string {
	if out.SPRT != nil && out.SPRT.Decision != arbiter.Continue {
		reason := "the SPRT accepted " + out.Summary().SPRT.Decision
		if out.SPRT.AtCap {
			reason += fmt.Sprintf(" at its cap (LLR %.2f against the final threshold %.2f)", out.SPRT.LLR, out.SPRT.Threshold)
		}
		return reason
	}
	return "the schedule is complete"
}

// ended records the end of a run.
func (s *Server) ended(r *run, state, reason string, summary *results.Summary) {
	s.mu.Lock()
	r.state.State, r.state.Reason, r.state.Ended = state, reason, time.Now().UTC()
	if summary != nil {
		r.state.Summary = summary
	}
	cancel := r.cancel
	// The live page goes with the play (the dashboard links it only while the run is active,
	// and its report is drawn from the records): it holds every game of the run, which the
	// server would otherwise keep for its life (docs/experiments/soak/README.md measured it).
	r.coord, r.cancel, r.live = nil, nil, nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.saveState(r)
	s.printf("Run %s %s: %s\n", r.state.ID, state, reason)
	s.dropStreams(r.state.ID)
}

// dropStreams deletes a run's streams, its work queue and its results, once it is over: they
// serve only while it is played (its records file is the truth), and each kept a dozen
// goroutines and two descriptors of the NATS server's for as long as the pool lived, and at
// every start again.
func (s *Server) dropStreams(id string) {
	if s.js == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 10*time.Second)
	defer cancel()
	for _, name := range distributed.RunStreams(id) {
		if err := s.js.DeleteStream(ctx, name); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
			s.printf("Run %s: its stream %s stays on the NATS server: %v\n", id, name, err)
		}
	}
}

// runObserver keeps a run's summary up to date as its games are recorded, and writes it to the
// bucket at most twice a second (the records file is the truth, the summary a view of it).
type runObserver struct {
	s         *Server
	r         *run
	scheduled int
	mu        sync.Mutex
	timer     *time.Timer // a write to come
}

func (o *runObserver) GameStarted(arbiter.ScheduledGame, string, string) {}
func (o *runObserver) MovePlayed(int, results.Move)                      {}

func (o *runObserver) GameFinished(_ *results.Record, st arbiter.Standings) {
	sum := (&arbiter.Outcome{Standings: st, Scheduled: o.scheduled}).Summary()
	sum.Status = StateActive
	o.s.mu.Lock()
	o.r.state.Summary = sum
	if el := time.Since(o.r.started).Seconds(); el > 0 {
		o.r.state.Rate = float64(sum.Games-o.r.startGames) / el
	}
	o.s.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.timer == nil {
		o.timer = time.AfterFunc(500*time.Millisecond, o.flush)
	}
}

// flush writes the run's state now, and cancels a write to come.
func (o *runObserver) flush() {
	o.mu.Lock()
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	o.mu.Unlock()
	o.s.saveState(o.r)
}

// stopRun stops a run's coordinator (its queue purged, its workers told) and waits for it.
func (s *Server) stopRun(r *run) {
	s.mu.Lock()
	cancel, done := r.cancel, r.done
	r.coord, r.cancel, r.live = nil, nil, nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// Control pauses, resumes, stops, deletes or reprioritizes a run, or takes a worker's games
// out of it.
func (s *Server) Control(c Control) (*RunState, error) { return s.controlBy(c, "") }

// controlBy is Control on behalf of the person named by ("" for none), whom an exclusion
// names.
func (s *Server) controlBy(c Control, by string) (*RunState, error) {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	s.mu.Lock()
	r := s.runs[c.ID]
	s.mu.Unlock()
	if r == nil {
		return nil, fmt.Errorf("pool: no run %s", c.ID)
	}
	st := s.runState(c.ID)
	switch c.Action {
	case "pause":
		if st.State != StateActive {
			return nil, fmt.Errorf("pool: run %s is %s, not active", c.ID, st.State)
		}
		s.stopRun(r)
		s.setState(r, StatePaused, "paused by a submitter")
	case "resume":
		if st.State != StatePaused {
			return nil, fmt.Errorf("pool: run %s is %s, not paused", c.ID, st.State)
		}
		if err := s.startRun(r); err != nil {
			return nil, err
		}
		s.saveState(r)
	case "stop":
		if st.Over() {
			return nil, fmt.Errorf("pool: run %s is %s already", c.ID, st.State)
		}
		s.stopRun(r)
		s.ended(r, StateStopped, "stopped by a submitter", nil)
	case "delete":
		s.stopRun(r)
		return &st, s.deleteRun(r)
	case "priority":
		s.mu.Lock()
		r.state.Priority = c.Priority
		if c.Share > 0 {
			r.state.Share = c.Share
		}
		s.mu.Unlock()
		s.saveState(r)
	case "exclude":
		if err := s.exclude(r, c.Worker, by); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("pool: unknown action %q (pause, resume, stop, delete, priority, exclude)", c.Action)
	}
	st = s.runState(c.ID)
	return &st, nil
}

func (s *Server) setState(r *run, state, reason string) {
	s.mu.Lock()
	r.state.State, r.state.Reason = state, reason
	s.mu.Unlock()
	s.saveState(r)
}

// deleteRun takes a run out of the pool: its state and its streams go; its records file stays
// on the server's disk.
func (s *Server) deleteRun(r *run) error {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	for _, k := range []string{runKey(r.state.ID), subKey(r.state.ID)} {
		if err := s.kv.Delete(ctx, k); err != nil {
			return fmt.Errorf("pool: %w", err)
		}
	}
	s.dropStreams(r.state.ID)
	s.mu.Lock()
	delete(s.runs, r.state.ID)
	s.mu.Unlock()
	s.printf("Run %s deleted (its records stay in %s)\n", r.state.ID, r.state.Records)
	s.forgetArtifacts(ctx, r)
	return nil
}

// forgetArtifacts deletes the artifacts of a deleted run that no run left in the pool uses, from
// the store and the server's copies. Run commands hold ctl, so no submission is admitted
// meanwhile; one whose engine was uploaded before it is refused by admit (checkArtifacts) and
// submitted again uploads it again.
func (s *Server) forgetArtifacts(ctx context.Context, gone *run) {
	if s.depot == nil || gone.sub == nil {
		return
	}
	used := map[string]bool{}
	s.mu.Lock()
	for _, r := range s.runs {
		if r.sub == nil {
			continue
		}
		for _, m := range r.sub.Manifests {
			used[m.SHA256] = true
		}
	}
	s.mu.Unlock()
	for _, m := range gone.sub.Manifests {
		if m.SHA256 == "" || used[m.SHA256] {
			continue
		}
		used[m.SHA256] = true
		if err := s.depot.Forget(ctx, m.SHA256); err != nil {
			s.printf("Run %s: its artifact %s stays in the pool: %v\n", gone.state.ID, m.SHA256, err)
		}
	}
}

// checkArtifacts refuses a submission whose engines' artifacts the store does not hold: uploaded,
// then deleted with a run that used them before this submission came, or never uploaded.
func (s *Server) checkArtifacts(sub *Submission) error {
	if s.depot == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	for i, m := range sub.Manifests {
		if m.SHA256 == "" {
			continue
		}
		if err := s.depot.Has(ctx, m.SHA256); err != nil {
			name := fmt.Sprint("engine ", i+1)
			if i < len(sub.Config.Engines) {
				name = fmt.Sprintf("engine %q", sub.Config.Engines[i].Name)
			}
			if errors.Is(err, artifact.ErrNotFound) {
				return fmt.Errorf("pool: %s: its artifact %s is not in the pool (deleted with a run that used it as this one was submitted?): submit again, which uploads it", name, m.SHA256)
			}
			return fmt.Errorf("pool: %s: %w", name, err)
		}
	}
	return nil
}

// runState is a copy of a run's state.
func (s *Server) runState(id string) RunState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runs[id].state
}

// Runs lists the pool's runs, by submission time.
func (s *Server) Runs() []RunState {
	var judged []string // for the log, once s.mu is let go
	defer func() {
		for _, line := range judged {
			s.printf("%s", line)
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]RunState, 0, len(s.runs))
	now := time.Now()
	for _, r := range s.runs {
		if line := s.judge(r, now); line != "" {
			judged = append(judged, line)
		}
		st := r.state
		if status := r.status(); status != nil {
			st.TakenOut = status.TakenOut
		}
		list = append(list, st)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Submitted.Before(list[j].Submitted) })
	return list
}

func (s *Server) onSubmit(m *nats.Msg) {
	var sub Submission
	if err := json.Unmarshal(m.Data, &sub); err != nil {
		respondError(m, fmt.Errorf("pool: unreadable submission: %w", err))
		return
	}
	if sub.Records != "" {
		// A path on the server's disk to append to is the server's own to choose.
		respondError(m, errors.New("pool: a submission may not name its records file: a rating list's batches are the server's own (arbiter server -list)"))
		return
	}
	st, err := s.Submit(&sub)
	if err != nil {
		respondError(m, err)
		return
	}
	respond(m, Reply{Run: st})
}

func (s *Server) onRuns(m *nats.Msg) { respond(m, Reply{Runs: s.Runs()}) }

func (s *Server) onControl(m *nats.Msg) {
	var c Control
	if err := json.Unmarshal(m.Data, &c); err != nil {
		respondError(m, fmt.Errorf("pool: unreadable request: %w", err))
		return
	}
	// A pause or a stop waits for the coordinator: not in the subscription's goroutine.
	s.runWG.Go(func() {
		st, err := s.Control(c)
		if err != nil {
			respondError(m, err)
			return
		}
		respond(m, Reply{Run: st})
	})
}
