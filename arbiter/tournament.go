package arbiter

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// StartFunc starts a player for an engine. worker numbers the worker that will own it, so that
// transcripts and the like can be told apart.
type StartFunc func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error)

// Tournament is a configured tournament, ready to run or resume.
type Tournament struct {
	cfg      Config
	run      string
	gameType rules.GameType
	schedule *Schedule
	opts     TournamentOptions
}

// TournamentOptions say how a tournament is played and who watches it. The zero value starts
// the engines through their protocols and tells no one: the arbiter prints nothing itself, and
// a console (package console) is one of the Observers.
type TournamentOptions struct {
	// Start starts the players: through their protocols (StartThroughProtocol) if nil.
	Start StartFunc
	// Observers watch the games and the standings as the run goes; those that are
	// EventObservers are told its events too.
	Observers []Observer
}

// Standings is where a tournament stands: the counts its result tables are computed from.
// It holds no game records (they are on disk), so a run's memory does not grow with its games.
type Standings struct {
	// Tally counts every finished game of the run, resumed ones included.
	Tally *results.Tally
	SPRT  *SPRTStatus // nil without an SPRT
}

// Outcome is what a run of a tournament produced.
type Outcome struct {
	Standings
	Run string
	// Scheduled counts the games the run plays: the schedule, or its shard's share of it.
	Scheduled   int
	Interrupted bool
	// StrictStop marks a Strict run stopped at its first misbehaving engine.
	StrictStop bool
	// FailureStop is why a run stopped at an engine that failed Config.FailureStreak games in
	// a row the same way; nil if it did not.
	FailureStop *FailingError
	// PlayedPairs counts the complete game pairs whose games this run played (not those it
	// resumed from its records, whose moves it does not read), and Mirrors those among them
	// that were mirrors: one game with the colours swapped (see results.Mirrors).
	PlayedPairs, Mirrors int
	// Setup is what the run was played under, as its records show it: each engine's limit and
	// what it said it is, the game type (see results.SetupTally; its openings are the
	// configuration's to name).
	Setup results.Setup
}

// AllFailed reports whether every game counted ended by an engine's failure: a run that
// informs of nothing, whatever its numbers say.
func (o *Outcome) AllFailed() bool {
	return o.Tally.Games > 0 && o.Tally.Faults() == o.Tally.Games
}

// EngineStartError reports an engine that could not be started, or that started but was
// refused before game 1 (Refused): it does not play the run's game type, or failed the new
// game or the first move that the check before the first game asks of it. The run cannot go
// on.
type EngineStartError struct {
	Engine string
	Err    error
	// Refused is set for an engine that started: only an engine that did not is said to
	// have not been started.
	Refused bool
}

// Error returns what went wrong, as a user reads it.
func (e *EngineStartError) Error() string { return "arbiter: " + e.Message() }

// Message is the error without the package's name.
func (e *EngineStartError) Message() string {
	if e.Refused {
		return fmt.Sprintf("engine %q was refused before game 1: %v", e.Engine, e.Err)
	}
	return fmt.Sprintf("engine %q could not be started: %v", e.Engine, e.Err)
}

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *EngineStartError) Unwrap() error { return e.Err }

// NewTournament checks a configuration, loads its openings and lays out its schedule, to be
// played and shown as opts say.
func NewTournament(cfg Config, opts TournamentOptions) (*Tournament, error) {
	if err := cfg.Normalize(); err != nil {
		return nil, err
	}
	gameType, err := rules.ParseGameType(cfg.GameType)
	if err != nil {
		return nil, &driver.ConfigError{Msg: err.Error()}
	}
	book, err := openings.Load(cfg.Openings, gameType, cfg.Seed)
	if err != nil {
		return nil, err
	}
	schedule, err := NewSchedule(cfg.Format, len(cfg.Engines), cfg.Seeds, cfg.Rounds, cfg.GamesPerPairing, book)
	if err != nil {
		return nil, err
	}
	run, err := cfg.Fingerprint()
	if err != nil {
		return nil, err
	}
	if cfg.Out == "" {
		cfg.Out = "arbiter-" + run + ".jsonl"
		if cfg.Shard.Count > 1 {
			cfg.Out = fmt.Sprintf("arbiter-%s-shard%dof%d.jsonl", run, cfg.Shard.Index, cfg.Shard.Count)
		}
	}
	if opts.Start == nil {
		opts.Start = StartThroughProtocol(cfg.TranscriptDir)
	}
	return &Tournament{cfg: cfg, run: run, gameType: gameType, schedule: schedule, opts: opts}, nil
}

// Observers are the observers of its options, which a remote runner shows the moves its
// workers play.
func (t *Tournament) Observers() []Observer { return t.opts.Observers }

// Config returns the tournament's configuration with its defaults filled in.
func (t *Tournament) Config() Config { return t.cfg }

// Run is the tournament's fingerprint, written into every record.
func (t *Tournament) Run() string { return t.run }

// Plays reports whether this tournament plays game i of the schedule: every game, unless it
// is one shard of the run.
func (t *Tournament) Plays(i int) bool { return t.cfg.Shard.Has(i / t.schedule.PairGames()) }

// Scheduled counts the games this tournament plays: the whole schedule, or its shard's share.
func (t *Tournament) Scheduled() int {
	n := 0
	for i := 0; i < t.schedule.Len(); i++ {
		if t.Plays(i) {
			n++
		}
	}
	return n
}

// Schedule returns the tournament's schedule.
func (t *Tournament) Schedule() *Schedule { return t.schedule }

// Play runs the games of the schedule that the records file does not hold yet on this
// machine's engines (its LocalRunner), appending each finished game to the records file before
// it is reported. It stops early when an SPRT reaches a decision. Cancelling ctx interrupts the
// games in flight: they are not recorded and are played again when the run resumes. When the
// run ends (decided, finished or interrupted), a JSON summary of its results goes to
// Config.JSONOut, if set.
func (t *Tournament) Play(ctx context.Context) (*Outcome, error) {
	return t.PlayOn(ctx, t.LocalRunner())
}

// PlayOn is Play with the games played by runner: this machine's engines, or others (a
// remote runner). A runner that is a Preflighter tries its engines before the first game.
func (t *Tournament) PlayOn(ctx context.Context, runner Runner) (*Outcome, error) {
	out, err := t.play(ctx, runner)
	if err == nil && t.cfg.JSONOut != "" {
		err = out.Summary().WriteFile(t.cfg.JSONOut)
	}
	return out, err
}

// LocalRunner is the runner that plays the tournament's games on this machine: Concurrency
// workers, the players started by Start and shown to the Observers of its options.
func (t *Tournament) LocalRunner() *LocalRunner {
	return &LocalRunner{Tournament: t, Concurrency: t.cfg.Concurrency, Start: t.opts.Start, Observers: t.opts.Observers}
}

// A Preflighter is a Runner that tries each engine before the first game (the local runner),
// so that a broken one is found then, with the others that are, and not when its first game
// comes up. PlayOn calls it with the engines of the games that remain.
type Preflighter interface {
	Preflight(ctx context.Context, engines []int) error
}

func (t *Tournament) play(ctx context.Context, runner Runner) (*Outcome, error) {
	names := t.EngineNames()
	out := &Outcome{Run: t.run, Scheduled: t.Scheduled(), Standings: Standings{Tally: results.NewTally(nil, names)}}
	out.Tally.SetGamesPerPair(t.schedule.PairGames())
	done := make([]bool, t.schedule.Len())
	col := &collector{t: t, out: out, sprt: t.newSPRT(), observers: t.opts.Observers, runner: runner}
	defer col.settle()
	sink, existing, err := t.resume(col, done)
	if err != nil {
		return nil, err
	}
	defer sink.Close()
	col.sink = sink
	log := sink.Records()
	col.reported = out.Tally.CompletePairs()
	if damage := log.Damage(); damage.Any() {
		t.emit(RecordsDamaged{Damage: damage})
	}
	if existing > 0 {
		t.sayResumed(existing, done, out.Scheduled)
	}
	t.emit(RunStarted{Engines: names, Scheduled: out.Scheduled, Resumed: out.Tally.Games, Standings: t.standings(out.Tally, col.sprt)})
	defer t.emit(GamesEnded{})
	if col.sprt != nil {
		if st := col.sprt.status(); st.Decision != Continue {
			out.SPRT = &st
			col.report(out.Standings, true)
			return out, nil
		}
	}

	plays := func(i int) bool { return !done[i] && t.Plays(i) }
	dispatcher := NewDispatcher(t.schedule, plays)
	playCtx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	col.stop = func() { dispatcher.Stop(); stopPlay() }
	if p, ok := runner.(Preflighter); ok {
		if err := p.Preflight(playCtx, t.enginesToPlay(plays)); err != nil && ctx.Err() == nil {
			return out, err
		}
	}
	runErr := runner.Run(playCtx, dispatcher, col.collect)
	out.SPRT = t.standings(out.Tally, col.sprt).SPRT
	if runErr != nil {
		return out, runErr
	}
	t.emit(GamesEnded{})
	if ctx.Err() != nil {
		out.Interrupted = true
		t.emit(RunInterrupted{Played: out.Tally.Games, Scheduled: out.Scheduled})
	}
	col.report(out.Standings, true)
	return out, nil
}

// resume opens the run's sink, the records file and the PGN, and counts the games the records
// hold in col, marking them in done; it returns the sink and how many games they held. The
// records are read one at a time, and only what the tally needs of each: a run of any length
// resumes in the memory of one record, and the moves, most of a record, are not decoded. The
// PGN is rewritten from the records already played (so that it matches them even if the
// arbiter was killed between the two writes of a game), reading them again whole.
func (t *Tournament) resume(col *collector, done []bool) (*results.Sink, int, error) {
	n := 0
	errForeign := errors.New("a game of another run")
	opts := results.SinkOptions{Read: results.ReadOptions{SkipBad: t.cfg.SkipBadRecords, Counts: true},
		PGN: t.cfg.PGNOut, Event: t.cfg.Event, RebuildPGN: true}
	sink, err := results.OpenSink(t.cfg.Out, opts, func(r *results.Record) error {
		if r.Run != t.run {
			if t.cfg.SharedRecords {
				return nil // another run's game in a shared file: not this run's to count
			}
			return errForeign
		}
		if r.Game < len(done) {
			done[r.Game] = true
		}
		col.count(r)
		n++
		return nil
	})
	if errors.Is(err, errForeign) {
		return nil, 0, t.foreignRun()
	}
	return sink, n, err
}

// foreignRun is the error for a records file that holds games of another run: it reads the
// first of them whole, for the settings that differ.
func (t *Tournament) foreignRun() error {
	var first *results.Record
	_, err := results.ReadFileFunc(t.cfg.Out, results.ReadOptions{SkipBad: t.cfg.SkipBadRecords}, func(r *results.Record) error {
		if r.Run != t.run {
			first = r
			return errStop
		}
		return nil
	})
	if first == nil {
		return fmt.Errorf("arbiter: %s changed while it was read: %w", t.cfg.Out, err)
	}
	return &driver.ConfigError{Msg: fmt.Sprintf("%s holds games of another run (%s; this configuration is run %s): %s. Use another -out file, or the settings that run was started with",
		t.cfg.Out, first.Run, t.run, t.cfg.differences(first))}
}

// errStop ends a reading of records that found what it looked for.
var errStop = errors.New("arbiter: found")

// sayResumed tells the observers that the run resumes from a records file holding n games,
// done the games of the schedule among them.
func (t *Tournament) sayResumed(n int, done []bool, scheduled int) {
	played := 0
	for i := range done {
		if done[i] && t.Plays(i) {
			played++
		}
	}
	t.emit(RunResumed{Run: t.run, Records: t.cfg.Out, Played: played, Scheduled: scheduled, Beyond: max(n-played, 0)})
}

// EngineNames lists the engines' names in configuration order.
func (t *Tournament) EngineNames() []string {
	names := make([]string, len(t.cfg.Engines))
	for i, e := range t.cfg.Engines {
		names[i] = e.Name
	}
	return names
}

// standings is where the run stands now.
func (t *Tournament) standings(tally *results.Tally, sprt *sprtTracker) Standings {
	s := Standings{Tally: tally}
	if sprt != nil {
		st := sprt.status()
		s.SPRT = &st
	}
	return s
}

// report tells the observers that the result tables are due.
func (c *collector) report(s Standings, final bool) {
	c.t.emit(StandingsReport{Tournament: c.t, Runner: c.runner, Standings: s, Final: final})
}

// ExpansionError is a player that does not play an expansion the game type needs.
type ExpansionError struct {
	GameType rules.GameType
	Missing  []rules.Bug
	Plays    rules.GameType // the widest game type the player plays
}

// Error returns what went wrong, as a user reads it.
func (e *ExpansionError) Error() string {
	names := make([]string, len(e.Missing))
	for i, b := range e.Missing {
		names[i] = b.String()
	}
	return fmt.Sprintf("it does not play %s, which %s needs (it plays %s): to play it, give -gametype %s (or game_type = \"%s\" in a config file)",
		strings.Join(names, ", "), e.GameType, e.Plays, e.Plays, e.Plays)
}

// checkExpansions returns an ExpansionError when a player that says which expansions it plays
// lacks one that the game type needs.
func checkExpansions(t rules.GameType, info driver.PlayerInfo) error {
	if !info.ExpansionsKnown {
		return nil
	}
	if missing := t.Missing(info.Expansions); len(missing) > 0 {
		return &ExpansionError{GameType: t, Missing: missing, Plays: info.Expansions}
	}
	return nil
}

func ignoreCancel(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
