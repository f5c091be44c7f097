package arbiter

import (
	"hivearbiter/results"
)

// An EventObserver is an Observer that is also told what a run says as it goes, beyond its
// games and their moves: a resumed run, an engine's preflight notes, a game stopped or not
// counted, a stop, the result tables due. The arbiter prints nothing: a front end (the
// console of package console, say) words the events. Event is called from the runner's
// goroutines and the collector's, as the Observer's methods are, and must be as quick.
type EventObserver interface {
	Observer
	Event(e Event)
}

// Event is one of the events below: data, whose wording is the front end's.
type Event interface{ isEvent() }

// RecordsDamaged is a records file resumed that was found damaged, and repaired or passed over
// (its cut tail removed).
type RecordsDamaged struct{ Damage results.Damage }

// RunResumed is a run that resumes from its records file: Played of its Scheduled games are in
// it, and Beyond more games that lie beyond the schedule (as after fewer rounds), which count
// in the tables all the same.
type RunResumed struct {
	Run, Records              string
	Played, Scheduled, Beyond int
}

// RunStarted is a run about to play its games (or to report a decision its records hold)
// between Engines (their names, in configuration order): it plays Scheduled games, Resumed of
// which were finished before it started, and stands at Standings.
type RunStarted struct {
	Engines   []string
	Scheduled int
	Resumed   int
	Standings Standings
}

// EngineTiming is how the preflight found an engine to be sent its time (Timing, in its
// protocol's words: see driver.TimingAdvisor), and what in its time control it cannot play
// (Problem, "" if nothing).
type EngineTiming struct {
	Engine, Timing, Problem string
}

// EngineFailedPreflight is an engine whose first move failed the preflight under
// -on-engine-failure forfeit: it plays on, and its games judge it.
type EngineFailedPreflight struct {
	Engine string
	Err    error
}

// EngineBroken is an engine the forfeit policy found broken: it forfeits its remaining games,
// and the others play on.
type EngineBroken struct {
	Engine string
	Err    error
}

// LocalGameStarted is a game started by a worker of this machine (the LocalRunner), game
// Game.Index of the Of games in the schedule. A remote runner's games reach the observers'
// GameStarted only.
type LocalGameStarted struct {
	Game         ScheduledGame
	Of           int
	White, Black string
}

// LocalGameEnded is a game of the LocalRunner that ended, played to its end or Stopped before
// it (the run was interrupted: it is not counted, and is played again when the run resumes).
type LocalGameEnded struct {
	Game         ScheduledGame
	White, Black string
	Stopped      bool
}

// GameDiscarded is a game that finished after the run stopped at a misbehaving engine: it is
// not counted, and is played again when the run resumes.
type GameDiscarded struct{ Record *results.Record }

// StrictStopped is a Strict run that stops at its first misbehaviour, that of Record: the
// games in flight are not counted.
type StrictStopped struct{ Record *results.Record }

// FailureStreakStopped is a run that stops at an engine that failed Failure.Games games in a
// row the same way: the games in flight are not counted.
type FailureStreakStopped struct{ Failure *FailingError }

// RunInterrupted is a run interrupted (its context cancelled) after Played of its Scheduled
// games; it resumes from its records.
type RunInterrupted struct{ Played, Scheduled int }

// GamesEnded says that the run plays and counts no more games: what follows is its end (the
// final report). It may come more than once.
type GamesEnded struct{}

// StandingsReport is a time to show the result tables: every Config.RatingInterval complete
// game pairs, and at the end (Final). Runner is the runner whose games they are (a Reporter
// has lines of its own for each block).
type StandingsReport struct {
	Tournament *Tournament
	Runner     Runner
	Standings  Standings
	Final      bool
}

func (RecordsDamaged) isEvent()        {}
func (RunResumed) isEvent()            {}
func (RunStarted) isEvent()            {}
func (EngineTiming) isEvent()          {}
func (EngineFailedPreflight) isEvent() {}
func (EngineBroken) isEvent()          {}
func (LocalGameStarted) isEvent()      {}
func (LocalGameEnded) isEvent()        {}
func (GameDiscarded) isEvent()         {}
func (StrictStopped) isEvent()         {}
func (FailureStreakStopped) isEvent()  {}
func (RunInterrupted) isEvent()        {}
func (GamesEnded) isEvent()            {}
func (StandingsReport) isEvent()       {}

// emit tells the tournament's observers that are EventObservers of e.
func (t *Tournament) emit(e Event) {
	for _, o := range t.opts.Observers {
		if eo, ok := o.(EventObserver); ok {
			eo.Event(e)
		}
	}
}
