package pool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/report"
	"hivearbiter/results"
	"hivearbiter/tune"
)

// A tune is a run of the pool, played as fishtest plays one: the server holds theta and the
// tune's records file (a tune.Session); a worker takes one pair at a time, whose perturbation
// the server draws around theta as it is when it hands the pair out, plays its two games, and
// sends their results, which the server applies in the order they arrive. Each pair handed
// out has a ticket: a result is counted only for a ticket this server handed out and for an
// iteration not yet on record, so a pair handed out again (its worker silent past the ack
// wait, or the server restarted) counts once. A server started again resumes the tune from
// its records file; the pairs in flight then are handed out again.
//
// Why a tune does not use the JetStream work queue a match's pairs go through (package
// distributed): a match's schedule is known before its first game, so its pairs are published
// to the run's work stream at the start and redelivered by JetStream after the ack wait. A
// tune's next pair is not known until it is handed out: its perturbation is drawn around theta
// as the results so far have moved it, so a pair queued ahead would be played at a stale theta.
// The tickets, renewals and ack wait here are JetStream's pull, in-progress and redelivery,
// made at the moment of the request.

// The verbs of the tune subjects: a worker takes a pair, says while it plays it that it still
// does, and sends its result.
const (
	verbTake   = "take"
	verbRenew  = "renew"
	verbResult = "result"
)

// tuneSubject is the subject on which a worker takes a tune's pairs or sends their results;
// a worker's permissions bind it to its name.
func tuneSubject(verb, worker string) string { return "arbiterpool.tune." + verb + "." + worker }

// TuneTake is a worker asking for a pair of a tune run.
type TuneTake struct {
	Run string `json:"run"`
}

// TunePair answers a TuneTake: a pair to play (its ticket, its perturbation and opening), a
// wait (every pair left is in flight), or Over (the tune is complete, paused or stopped).
type TunePair struct {
	Ticket       string            `json:"ticket,omitempty"`
	Perturbation tune.Perturbation `json:"perturbation"`
	Opening      string            `json:"opening,omitempty"`
	OpeningIndex int               `json:"opening_index"`
	Wait         time.Duration     `json:"wait,omitempty"`
	Over         bool              `json:"over,omitempty"`
	// Renew is how often the worker says it still plays the pair (a TuneRenew): a pair not
	// renewed for the server's ack wait is handed out again.
	Renew time.Duration `json:"renew,omitempty"`
}

// TuneRenew is a worker saying it still plays the pair of Ticket (published, not answered).
type TuneRenew struct {
	Run    string `json:"run"`
	Ticket string `json:"ticket"`
}

// TuneResult is a worker's result of a pair: its two games' records, the plus side White
// first, which the server re-referees.
type TuneResult struct {
	Run     string            `json:"run"`
	Ticket  string            `json:"ticket"`
	Records []*results.Record `json:"records"`
}

// TuneAck answers a TuneResult: Error says why it was not counted.
type TuneAck struct {
	Error string `json:"error,omitempty"`
	// WrongEngine says the result was refused because the worker's engine says it is another
	// than the run's: every pair it plays would be, so it stops taking the run's pairs.
	WrongEngine bool `json:"wrong_engine,omitempty"`
}

// tuneServe serves an active tune run's pairs.
type tuneServe struct {
	s       *Server
	r       *run
	sess    *tune.Session
	ackWait time.Duration
	// live is the tune's live page, as arbiter tune -http serves it.
	live *report.TuneLive

	mu     sync.Mutex
	closed bool
	// handed are the pairs handed out and not yet answered, by ticket; until says when an
	// iteration's latest hand-out lapses, and it may be handed out again.
	handed   map[string]handout
	until    map[int]time.Time
	low      int // the iterations below are on record
	complete chan struct{}
}

type handout struct {
	pt      tune.Perturbation
	opening string
	worker  string
}

// submitTune adds a tune run to the pool and starts it. Its id is a hash of the tune, so the
// same tune submitted twice is refused. A tune whose engine's protocol has no options is
// refused, with the reason (a *tune.RefusedError).
func (s *Server) submitTune(sub *Submission) (*RunState, error) {
	if len(sub.Manifests) > 1 {
		return nil, errors.New("pool: a tune has one engine, and at most one artifact")
	}
	if len(sub.Expect) != 1 {
		// Its workers' games are checked against the engine's identity.
		return nil, errors.New("pool: the submission does not identify the tune's engine")
	}
	// Where the submitter would write its records, and its concurrency, are not the tune's.
	sub.Tune.Out, sub.Tune.Concurrency = "", 0
	cfg, err := s.tuneConfig(sub, "")
	if err != nil {
		return nil, err
	}
	pairs, err := tune.NewPairs(cfg)
	if err != nil {
		return nil, err
	}
	// Workers match their own builds to the run's engine by its name.
	if sub.Tune.Engine.Name == "" {
		sub.Tune.Engine.Name = pairs.Engine()
	}
	sub.Config = arbiter.Config{Engines: []driver.EngineConfig{sub.Tune.Engine}}
	if sub.Share <= 0 {
		sub.Share = 1
	}
	id := tuneID(sub)
	r := &run{sub: sub, assigned: map[string]assignment{}, state: RunState{
		ID: id, Format: "tune", Engines: []string{sub.Tune.Engine.Name}, Priority: sub.Priority, Share: sub.Share,
		Platforms: sub.Platforms, State: StateActive, Submitted: time.Now().UTC(),
		Records: filepath.Join(s.cfg.Dir, "runs", id+".jsonl"), Scheduled: 2 * sub.Tune.Gains.Iterations,
	}}
	return s.admit(r, s.startTune, fmt.Sprintf("a tune of %s, %d pairs", sub.Tune.Engine.Name, sub.Tune.Gains.Iterations))
}

// tuneID names a tune run by a hash of what it is.
func tuneID(sub *Submission) string {
	b, _ := json.Marshal(struct {
		Tune      *tune.Config
		Openings  []byte
		Platforms []string
	}{sub.Tune, sub.Openings, sub.Platforms})
	sum := sha256.Sum256(b)
	return "t" + hex.EncodeToString(sum[:])[:11]
}

// tuneConfig is a submission's tune as the server plays it: its records file under the
// server's directory (once its id is known), its openings file beside it.
func (s *Server) tuneConfig(sub *Submission, id string) (tune.Config, error) {
	cfg := *sub.Tune
	cfg.Out, cfg.Progress, cfg.Observer, cfg.Start = "", nil, nil, nil
	if id != "" {
		cfg.Out = filepath.Join(s.cfg.Dir, "runs", id+".jsonl")
	}
	var err error
	if cfg.Openings.File, err = s.openingsFile(sub, cfg.Openings.File); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// startTune serves a tune run's pairs, resuming from its records file, until it is complete
// (finished), or paused, stopped or the server closes.
func (s *Server) startTune(r *run) error {
	cfg, err := s.tuneConfig(r.sub, r.state.ID)
	if err != nil {
		return err
	}
	live := report.NewTuneLive()
	cfg.Observer = live
	sess, err := tune.Open(cfg)
	if err != nil {
		return err
	}
	ackWait := s.cfg.AckWait
	if ackWait <= 0 {
		ackWait = distributed.DefaultAckWait
	}
	ts := &tuneServe{s: s, r: r, sess: sess, ackWait: ackWait, live: live, handed: map[string]handout{}, until: map[int]time.Time{},
		low: 1, complete: make(chan struct{})}
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	r.tune, r.cancel, r.done = ts, cancel, make(chan struct{})
	r.started, r.startGames = time.Now(), r.state.Games()
	r.state.State, r.state.Reason = StateActive, ""
	done := r.done
	s.mu.Unlock()
	ts.mu.Lock()
	ts.publish(sess.Outcome())
	if sess.Outcome().Pairs >= sess.Iterations() {
		// Every pair was on record when the server stopped, before it wrote the run finished:
		// no result will come to end it.
		close(ts.complete)
	}
	ts.mu.Unlock()
	s.runWG.Add(1)
	go func() {
		defer s.runWG.Done()
		defer close(done)
		select {
		case <-ctx.Done():
		case <-ts.complete:
		}
		ts.close()
		s.mu.Lock()
		if r.tune == ts {
			r.tune = nil
		}
		s.mu.Unlock()
		if ctx.Err() != nil {
			s.saveState(r)
			return
		}
		s.mu.Lock()
		sum := *r.state.Summary
		s.mu.Unlock()
		sum.Status = StateFinished
		s.ended(r, StateFinished, "the tune is complete", &sum)
	}()
	return nil
}

// checked returns the games of a pair's records once the referee passes them as it passes a
// match's (checkTunePair): the pair's games, played by the run's engine under the
// run's settings.
func (ts *tuneServe) checked(worker string, h handout, recs []*results.Record) ([]tune.Game, error) {
	if len(ts.r.sub.Expect) != 1 {
		return nil, errors.New("pool: the tune's submission does not identify its engine")
	}
	pairs := ts.sess.Pairs()
	k := h.pt.Iteration
	_, index := pairs.Opening(k)
	if err := checkTunePair(worker, pairs, ts.r.sub.Expect[0], k, h.opening, index, recs); err != nil {
		return nil, err
	}
	return pairs.Games(h.opening, recs)
}

// checkTunePair checks a pair's records, as a coordinator checks each of a match's (see
// distributed.CheckGame): iteration k's two games from opening (index in the book), the plus side White
// first, played by the tune's sides (each at its time control) of the engine that says it is
// expect, with the tune's seed, game type and adjudication. The tuned options' values are the
// server's to know: a record does not say them.
func checkTunePair(worker string, pairs *tune.Pairs, expect distributed.EngineIdentity, k int, opening string, index int, recs []*results.Record) error {
	cfg, sides := pairs.Config(), pairs.Sides()
	spec := &distributed.RunSpec{Run: tune.RecordRun, Seed: cfg.Seed, GameType: cfg.GameType, Adjudication: cfg.Adjudication,
		Engines: sides[:], Expect: []distributed.EngineIdentity{expect, expect}}
	sgs := pairs.Scheduled(k, opening, index)
	if len(recs) != len(sgs) {
		return &distributed.RejectedError{Worker: worker, Game: sgs[0].Index, Reason: fmt.Sprintf("a pair of %d games, want %d", len(recs), len(sgs))}
	}
	for g, sg := range sgs {
		if err := distributed.CheckGame(spec, worker, sg, recs[g]); err != nil {
			return err
		}
	}
	return nil
}

// close stops handing pairs out and closes the records file.
func (ts *tuneServe) close() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if !ts.closed {
		ts.closed = true
		ts.sess.Close()
	}
}

// take hands out the first iteration neither on record nor in flight, perturbed around theta
// as it is now.
func (ts *tuneServe) take(worker string, now time.Time) TunePair {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n := ts.sess.Iterations()
	for ts.low <= n && ts.sess.Done(ts.low) {
		ts.low++
	}
	if ts.closed || ts.low > n {
		return TunePair{Over: true}
	}
	for k := ts.low; k <= n; k++ {
		if ts.sess.Done(k) || ts.until[k].After(now) {
			continue
		}
		pt := ts.sess.Perturb(k)
		opening, index := ts.sess.Pairs().Opening(k)
		ticket := distributed.Secret(12)
		ts.handed[ticket] = handout{pt: pt, opening: opening, worker: worker}
		ts.until[k] = now.Add(ts.ackWait)
		return TunePair{Ticket: ticket, Perturbation: pt, Opening: opening, OpeningIndex: index, Renew: ts.ackWait / 3}
	}
	return TunePair{Wait: 500 * time.Millisecond}
}

// renew pushes back the lapse of a pair its worker still plays, as a match's workers mark
// their games in progress: a pair longer than the ack wait is not handed out again while its
// worker is alive.
func (ts *tuneServe) renew(worker, ticket string, now time.Time) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if h, ok := ts.handed[ticket]; ok && h.worker == worker && !ts.sess.Done(h.pt.Iteration) {
		ts.until[h.pt.Iteration] = now.Add(ts.ackWait)
	}
}

// result applies a pair's result, once: for a ticket this server handed out to this worker, of
// an iteration not yet on record, with games that are the pair's and that the referee passes.
func (ts *tuneServe) result(worker string, res TuneResult) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return errors.New("pool: the tune is not active")
	}
	h, ok := ts.handed[res.Ticket]
	if !ok || h.worker != worker {
		return errors.New("pool: not a pair this server handed out to this worker (it was answered already, or handed out before a restart)")
	}
	k := h.pt.Iteration
	games, err := ts.checked(worker, h, res.Records)
	if err != nil {
		// Refused: the pair is handed out again at once, not when its ticket would lapse (the
		// ticket stays good until a result of the pair is counted).
		delete(ts.until, k)
		return err
	}
	for t, o := range ts.handed {
		if o.pt.Iteration == k {
			delete(ts.handed, t)
		}
	}
	delete(ts.until, k)
	if _, err := ts.sess.Finish(h.pt, h.opening, games); err != nil {
		// The records cannot be written: the tune cannot go on.
		ts.closed = true
		ts.sess.Close()
		ts.s.runWG.Go(func() { ts.s.ended(ts.r, StateFailed, err.Error(), nil) })
		return err
	}
	out := ts.sess.Outcome()
	ts.publish(out)
	ts.s.mu.Lock()
	if w := ts.s.workers[worker]; w != nil {
		w.Games += len(games)
	}
	ts.s.mu.Unlock()
	if out.Pairs >= ts.sess.Iterations() {
		ts.closed = true
		ts.sess.Close()
		close(ts.complete)
	}
	return nil
}

// publish shows where the tune stands in the run's state: the plus side's games and theta
// as option words; the bucket is written at most twice a second. ts.mu is held.
func (ts *tuneServe) publish(out tune.Outcome) {
	s, r := ts.s, ts.r
	name := ts.sess.Pairs().Engine()
	sum := &results.Summary{Status: StateActive, Games: 2 * out.Pairs, Pairings: []results.PairingSummary{{
		First: name + tune.PlusSuffix, Second: name + tune.MinusSuffix, Games: 2 * out.Pairs,
		Wins: out.Wins, Draws: out.Draws, Losses: out.Losses}}}
	s.mu.Lock()
	r.state.Summary, r.state.Values = sum, tune.Words(out.Params, out.Theta)
	if el := time.Since(r.started).Seconds(); el > 0 {
		r.state.Rate = float64(sum.Games-r.startGames) / el
	}
	due := time.Since(r.saved) > 500*time.Millisecond
	s.mu.Unlock()
	if due {
		s.saveState(r)
	}
}

// tuneOf is the active tune run id's server, or nil.
func (s *Server) tuneOf(id string) *tuneServe {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.runs[id]; r != nil {
		return r.tune
	}
	return nil
}

// subjectWorker is the worker a subject names (its last token), which its permissions bind to
// its key.
func subjectWorker(subject string) string { return subject[strings.LastIndexByte(subject, '.')+1:] }

func (s *Server) onTuneTake(m *nats.Msg) {
	var req TuneTake
	ts := (*tuneServe)(nil)
	if json.Unmarshal(m.Data, &req) == nil {
		ts = s.tuneOf(req.Run)
	}
	if ts == nil {
		respond(m, TunePair{Over: true})
		return
	}
	respond(m, ts.take(subjectWorker(m.Subject), time.Now()))
}

func (s *Server) onTuneRenew(m *nats.Msg) {
	var req TuneRenew
	if json.Unmarshal(m.Data, &req) != nil {
		return
	}
	if ts := s.tuneOf(req.Run); ts != nil {
		ts.renew(subjectWorker(m.Subject), req.Ticket, time.Now())
	}
}

func (s *Server) onTuneResult(m *nats.Msg) {
	var res TuneResult
	if err := json.Unmarshal(m.Data, &res); err != nil {
		respond(m, TuneAck{Error: "pool: unreadable result: " + err.Error()})
		return
	}
	ts := s.tuneOf(res.Run)
	if ts == nil {
		respond(m, TuneAck{Error: "pool: no active tune " + res.Run})
		return
	}
	if err := ts.result(subjectWorker(m.Subject), res); err != nil {
		var rejected *distributed.RejectedError
		respond(m, TuneAck{Error: err.Error(), WrongEngine: errors.As(err, &rejected) && rejected.WrongEngine})
		return
	}
	respond(m, TuneAck{})
}

// tuneLive is the live page of the tune run id while it is active, or nil.
func (s *Server) tuneLive(id string) http.Handler {
	if ts := s.tuneOf(id); ts != nil {
		return ts.live
	}
	return nil
}

// serveTuneReport serves the report of a tune run's records, as arbiter report draws them, and
// reports whether the run is a tune's.
func (s *Server) serveTuneReport(w http.ResponseWriter, st RunState) bool {
	if st.Format != "tune" {
		return false
	}
	h, recs, _, err := tune.ReadRecords(st.Records)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return true
	}
	d := report.BuildTune(h, recs)
	d.Title = "Tune of " + h.Engine + " (run " + st.ID + ")"
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := report.WriteTune(w, d); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
	return true
}
