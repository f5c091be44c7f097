package arbiter

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/proc"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// A tournament runs in three stages with a seam between each: a Dispatcher hands out the game
// pairs that remain to be played, a Runner plays them (the local runner on this machine's
// engine processes; a remote runner on other machines), and the collector appends every
// finished game to the records file before it counts it, and keeps the tables, the SPRT and
// the reports. Observers watch the games as they are played, and word them: the arbiter prints
// nothing.

// PairJob is the part of one game pair of the schedule that remains to be played: a pair is
// handed out whole, so that its games run on one runner, but a resumed run plays only the games
// its records do not hold.
type PairJob struct {
	Pair  int
	Games []ScheduledGame
}

// Dispatcher hands out the game pairs of a run that remain to be played, in schedule order; a
// pair handed back (its runner was lost) is handed out again before any new one. It is safe for
// concurrent use. It keeps no list of the pairs ahead, only where it stands, so a run of any
// length is dispatched in flat memory.
type Dispatcher struct {
	mu       sync.Mutex
	schedule *Schedule
	plays    func(game int) bool // whether the run plays the game (and has not yet)
	next     int                 // the next pair to consider
	returned []PairJob
	stopped  bool
}

// NewDispatcher dispatches the pairs of schedule, leaving out the games for which plays is false
// (played already, or another shard's).
func NewDispatcher(schedule *Schedule, plays func(game int) bool) *Dispatcher {
	return &Dispatcher{schedule: schedule, plays: plays}
}

// Next returns the next pair to play, and false when there is none (all dispatched, or the
// dispatcher was stopped).
func (d *Dispatcher) Next() (PairJob, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return PairJob{}, false
	}
	if n := len(d.returned); n > 0 {
		job := d.returned[0]
		d.returned = d.returned[1:]
		return job, true
	}
	per := d.schedule.PairGames()
	pairs := d.schedule.Len() / per
	for ; d.next < pairs; d.next++ {
		job := PairJob{Pair: d.next}
		for i := d.next * per; i < (d.next+1)*per; i++ {
			if d.plays(i) {
				job.Games = append(job.Games, d.schedule.Game(i))
			}
		}
		if len(job.Games) > 0 {
			d.next++
			return job, true
		}
	}
	return PairJob{}, false
}

// Return hands a pair back to be played again, by another runner or later: its runner was
// lost before it finished the games in it.
func (d *Dispatcher) Return(job PairJob) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.stopped && len(job.Games) > 0 {
		d.returned = append(d.returned, job)
	}
}

// Stop ends the dispatch: Next hands out nothing more (an SPRT has decided, or the run is
// stopping).
func (d *Dispatcher) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	d.returned = nil
}

// Runner plays the pairs a dispatcher hands out and passes every finished game to collect,
// which appends it to the records file durably before it returns. A runner stops when the
// dispatcher has nothing more, when ctx ends, or when collect fails; its error is one that
// ends the run (an engine that cannot start, say). A game stopped by ctx is not collected:
// it is played again when the run resumes.
type Runner interface {
	Run(ctx context.Context, d *Dispatcher, collect func(*results.Record) error) error
}

// Observer watches a tournament: the games as they start, every move as it is played, and the
// standings as each game is counted; one that is also an EventObserver hears the rest of what
// the run says. Its methods are called from the runner's goroutines and the collector's, so
// they must be safe for concurrent use and quick: an observer that blocks holds up the games.
type Observer interface {
	GameStarted(g ScheduledGame, white, black string)
	MovePlayed(game int, move results.Move)
	GameFinished(r *results.Record, s Standings)
}

// GameConfig is the configuration of a scheduled game: a function of the schedule and the run's
// configuration alone, so that a runner on another machine builds exactly the game a local one
// would.
func (t *Tournament) GameConfig(g ScheduledGame) GameConfig {
	return GameConfig{
		Run: t.run, Seed: t.cfg.Seed, Index: g.Index, Round: g.Round, Pair: g.Pair,
		Opening: g.Opening, OpeningIndex: g.OpeningIndex, Adjudication: t.cfg.Adjudication,
		CommandTimeout: t.cfg.CommandTimeout, DepthTimeout: t.cfg.DepthTimeout,
	}
}

// LocalRunner plays game pairs on this machine: Concurrency workers, each owning its engine
// processes (its Seats).
type LocalRunner struct {
	Tournament  *Tournament
	Concurrency int
	// Start starts a player for an engine of the tournament.
	Start StartFunc
	// Observers see every game start and every move.
	Observers []Observer
	// forfeits says which engines are broken, for the forfeit policy.
	forfeits Forfeits
}

// Preflight implements Preflighter: the tournament's Preflight.
func (r *LocalRunner) Preflight(ctx context.Context, engines []int) error {
	return r.Tournament.Preflight(ctx, engines)
}

// Run implements Runner.
func (r *LocalRunner) Run(ctx context.Context, d *Dispatcher, collect func(*results.Record) error) error {
	var allowed []int // the CPUs to pin workers to, under Affinity
	if cfg := r.Tournament.cfg; cfg.Affinity && proc.AffinitySupported {
		var err error
		if allowed, err = proc.AllowedCPUs(); err != nil {
			return err
		}
	}
	r.forfeits.FailureStreak = r.Tournament.cfg.FailureStreak
	r.forfeits.Broke = func(e int, why error) {
		r.Tournament.emit(EngineBroken{Engine: r.Tournament.cfg.Engines[e].Name, Err: why})
	}
	group, ctx := errgroup.WithContext(ctx)
	for w := range max(r.Concurrency, 1) {
		cpus := r.Tournament.cfg.WorkerCPUs(w, allowed)
		group.Go(func() error { return r.worker(ctx, w, cpus, d, collect) })
	}
	return group.Wait()
}

// worker plays pairs until there are none left. It owns its seats, whose players run on cpus
// if any are given.
func (r *LocalRunner) worker(ctx context.Context, id int, cpus []int, d *Dispatcher, collect func(*results.Record) error) error {
	seats := r.Tournament.Seats(id)
	seats.Start = pinned(r.Start, cpus)
	defer seats.Close(ctx)
	for {
		job, ok := d.Next()
		if !ok {
			return nil
		}
		for i, sg := range job.Games {
			rec, err := r.play(ctx, sg, seats)
			if err != nil {
				d.Return(PairJob{Pair: job.Pair, Games: job.Games[i:]})
				return ignoreCancel(err)
			}
			if rec == nil {
				return nil // interrupted: played again on resume
			}
			seats.Played(ctx, sg, rec)
			r.judge(sg, rec)
			if err := collect(rec); err != nil {
				return err
			}
		}
	}
}

// sides seats the players of a game, under the forfeit policy when the run has it (see
// Forfeits).
func (r *LocalRunner) sides(ctx context.Context, sg ScheduledGame, seats *Seats) (white, black Side, err error) {
	if r.Tournament.cfg.OnEngineFailure != ForfeitOnFailure {
		return seats.Sides(ctx, sg)
	}
	return r.forfeits.Sides(ctx, seats, sg)
}

// judge notes, under the forfeit policy, how a game went for its engines.
func (r *LocalRunner) judge(sg ScheduledGame, rec *results.Record) {
	if r.Tournament.cfg.OnEngineFailure == ForfeitOnFailure {
		r.forfeits.Judge(sg, rec)
	}
}

// play plays one scheduled game; a nil record means ctx stopped it.
func (r *LocalRunner) play(ctx context.Context, sg ScheduledGame, seats *Seats) (*results.Record, error) {
	t := r.Tournament
	ws, bs, err := r.sides(ctx, sg, seats)
	if err != nil {
		return nil, err
	}
	t.emit(LocalGameStarted{Game: sg, Of: t.schedule.Len(), White: ws.Name, Black: bs.Name})
	stopped := false
	defer func() { t.emit(LocalGameEnded{Game: sg, White: ws.Name, Black: bs.Name, Stopped: stopped}) }()
	for _, o := range r.Observers {
		o.GameStarted(sg, ws.Name, bs.Name)
	}
	var moved func(results.Move) // the observers are shown each move as it is played
	if len(r.Observers) > 0 {
		moved = func(m results.Move) {
			for _, o := range r.Observers {
				o.MovePlayed(sg.Index, m)
			}
		}
	}
	rec, err := PlayGameWatched(ctx, t.GameConfig(sg), ws, bs, moved)
	if errors.Is(err, ErrInterrupted) {
		stopped = true
		return nil, nil
	}
	return rec, err
}

// collector takes finished games in any order, from any runner: it appends each to the
// records file (synced) and the PGN before it counts it, so a game is never reported that is
// not on disk, and it keeps the tally, the SPRT and the reports.
type collector struct {
	t         *Tournament
	sink      *results.Sink // the run's records file and PGN
	out       *Outcome
	sprt      *sprtTracker
	observers []Observer
	runner    Runner // the runner whose games it takes, for the reports
	stop      func() // stops the run: the SPRT decided
	mu        sync.Mutex
	reported  int                 // complete pairs at the last periodic report
	streaks   failureStreaks      // each engine's games in a row failed the same way
	err       error               // a write that failed: no game is collected after it
	mirrors   results.MirrorTally // the pairs played in this run, not resumed
	setup     results.SetupTally  // every game counted
}

// settle writes into the outcome what the collector gathered of the games: the mirrors and
// the setup.
func (c *collector) settle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Mirrors, c.out.PlayedPairs = c.mirrors.Counts()
	c.out.Setup = c.setup.Setup()
}

// judgeStreaks stops a run under the abort policy whose engine has failed the failure
// streak's games in a row the same way (under the forfeit policy the runner's Forfeits break
// it instead).
func (c *collector) judgeStreaks(r *results.Record) {
	cfg := c.t.cfg
	if cfg.FailureStreak < 1 || cfg.OnEngineFailure == ForfeitOnFailure {
		return
	}
	for side, name := range [2]string{r.White.Name, r.Black.Name} {
		e := slices.IndexFunc(cfg.Engines, func(e driver.EngineConfig) bool { return e.Name == name })
		if e < 0 {
			continue
		}
		if n := c.streaks.add(e, rules.Color(side), r); n >= cfg.FailureStreak && c.out.FailureStop == nil {
			c.out.FailureStop = &FailingError{Engine: name, Reason: r.Reason, Games: n, Detail: r.Detail}
			c.t.emit(FailureStreakStopped{Failure: c.out.FailureStop})
			c.stop()
		}
	}
}

// count adds a game that is on disk already (a resumed run's) or was just appended.
func (c *collector) count(r *results.Record) {
	c.setup.Add(r)
	if pair, complete := c.out.Tally.Add(r); complete && c.sprt != nil {
		c.sprt.addPair(r.Pair, pair)
	}
}

// collect appends a finished game and counts it. It is safe for concurrent use.
func (c *collector) collect(r *results.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.Run != c.t.run {
		return fmt.Errorf("arbiter: a game of another run (%s) reached the collector of run %s", r.Run, c.t.run)
	}
	if r.Settings == nil {
		r.Settings = c.t.cfg.RunSettings()
	}
	for k, v := range c.t.cfg.Labels {
		r.Settings[k] = v
	}
	r.Test = c.t.recordTest()
	for _, p := range []*results.Player{&r.White, &r.Black} {
		if p.Program == "" {
			p.Program = c.t.cfg.program(p.Name)
		}
	}
	if c.err != nil {
		return c.err // the run is stopping: this game is played again when it resumes
	}
	if c.out.StrictStop || c.out.FailureStop != nil {
		// The run stopped at a misbehaving engine: a game in flight that finishes after it is
		// not counted, as the console said, and is played again when the run resumes.
		c.t.emit(GameDiscarded{Record: r})
		return nil
	}
	// A PGN that could not be written after the record (*results.PGNWriteError) stops the run
	// too: the game is in the records, and a resumed run rewrites the PGN from them.
	if err := c.sink.Append(r); err != nil {
		c.err = err
		return err
	}
	c.count(r)
	c.mirrors.Add(r) // a resumed game is counted without its moves: only a played one compares
	standings := c.t.standings(c.out.Tally, c.sprt)
	for _, o := range c.observers {
		o.GameFinished(r, standings)
	}
	if c.t.cfg.Strict && r.Reason.IsFault() && !c.out.StrictStop {
		c.out.StrictStop = true
		c.t.emit(StrictStopped{Record: r})
		c.stop()
	}
	c.judgeStreaks(r)
	if standings.SPRT != nil && standings.SPRT.Decision != Continue {
		c.stop()
	}
	if n, every := c.out.Tally.CompletePairs(), c.t.cfg.RatingInterval; every > 0 && n/every > c.reported/every {
		c.reported = n
		c.report(standings, false)
	}
	return nil
}
