package results

import (
	"time"

	"hivearbiter/results/outcome"
)

// SchemaVersion is the version of the Record layout written by this package.
const SchemaVersion = 1

// Result values: the GameStateString of a finished game, as UHP and PGN write it.
const (
	WhiteWins = "WhiteWins"
	BlackWins = "BlackWins"
	Draw      = "Draw"
)

// Reason says why a game ended: outcome.Reason, the word the protocols speak, written into
// the records.
type Reason = outcome.Reason

// Every way a game can end (outcome's).
const (
	ReasonQueenSurrounded = outcome.ReasonQueenSurrounded
	ReasonIllegalMove     = outcome.ReasonIllegalMove
	ReasonIllegalPass     = outcome.ReasonIllegalPass
	ReasonTimeForfeit     = outcome.ReasonTimeForfeit
	ReasonCrash           = outcome.ReasonCrash
	ReasonStall           = outcome.ReasonStall
	ReasonProtocol        = outcome.ReasonProtocol
	ReasonDesync          = outcome.ReasonDesync
	ReasonFalseClaim      = outcome.ReasonFalseClaim
	ReasonRepetition      = outcome.ReasonRepetition
	ReasonMoveLimit       = outcome.ReasonMoveLimit
	ReasonForfeit         = outcome.ReasonForfeit
)

// Player describes one side of a game.
type Player struct {
	Name string `json:"name"`           // the name the tournament gives the engine
	ID   string `json:"id,omitempty"`   // what the engine said of itself ("id ..." line)
	Time string `json:"time,omitempty"` // its time control, as configured (e.g. "10+0.1")
	// Played is the limit it played under when the run scales its limits by each worker's
	// speed (see Record.TimeScale): Time scaled ("5+0.05" of "10+0.1" at 0.5). Empty when it
	// played Time.
	Played string `json:"played,omitempty"`
	// NotCrossChecked marks a player that reports no game state of its own (a UGI engine, a
	// Hive API module, a one-engine bot): its moves are refereed, but there is no game of its
	// to cross-check against the referee's.
	NotCrossChecked bool `json:"not_cross_checked,omitempty"`
	// Transcript is the file holding the engine's conversation in this game (-transcripts).
	Transcript string `json:"transcript,omitempty"`
	// TimePolicy says how the engine was sent its time budgets, and how that was learned: for
	// UHP, whether it reads fractions of a second and whether it may be interrupted.
	TimePolicy string `json:"time_policy,omitempty"`
	// Program identifies the exact build the engine ran, when the run knows it (a rating
	// list's hash of the engine's files, command and settings).
	Program string `json:"program,omitempty"`
}

// Move is one ply as the referee recorded it.
type Move struct {
	Move string `json:"move"` // MoveString in Mzinga's notation, or "pass"
	// Millis is the wall time the engine took to answer bestmove, in milliseconds.
	Millis int64 `json:"ms"`
	// ClockMillis is the mover's clock after the move, when the game runs on a clock.
	ClockMillis *int64 `json:"clock_ms,omitempty"`
	// Info is what the engine said of its search, for protocols that report it (UGI).
	Info *SearchInfo `json:"info,omitempty"`
}

// SearchInfo is what an engine reported of its search for one move (outcome's).
type SearchInfo = outcome.SearchInfo

// Record is one finished game: everything needed to rate it, replay it and explain its end.
type Record struct {
	Schema  int    `json:"schema"`
	Run     string `json:"run"`     // fingerprint of the tournament (config and seed) that scheduled the game
	Game    int    `json:"game"`    // index of the game in the schedule, from 0
	Round   int    `json:"round"`   // round number, from 1
	Pair    int    `json:"pair"`    // index of the game pair (same opening, colours swapped), from 0
	White   Player `json:"white"`   //
	Black   Player `json:"black"`   //
	Opening string `json:"opening"` // the GameString the game started from
	// OpeningIndex numbers the opening within its source; -1 when none was used.
	OpeningIndex int    `json:"opening_index"`
	GameType     string `json:"game_type"`
	Moves        []Move `json:"moves"` // the plies played after the opening
	Result       string `json:"result"`
	Reason       Reason `json:"reason"`
	// Culprit is the colour ("White" or "Black") whose misbehaviour ended the game, if any.
	Culprit string `json:"culprit,omitempty"`
	// Detail says, for a person, exactly why the game ended.
	Detail string `json:"detail"`
	// Warnings lists anomalies that did not decide the game (e.g. an engine that disagreed
	// with the referee about a result the rules had already given).
	Warnings   []Warning `json:"warnings,omitempty"`
	GameString string    `json:"game_string"` // the final GameString, as the referee holds it
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished"`
	Arbiter    string    `json:"arbiter"` // arbiter version
	Seed       int64     `json:"seed"`
	// Settings are the run's settings that decide its games, by the flag that sets them
	// (e.g. "-maxplies": "400", "engine dev": "uhp st=1 margin=200ms"), so that a records file
	// of another run can be told apart by what differs. Absent in records of older arbiters.
	Settings map[string]string `json:"settings,omitempty"`
	// Test is the run's statistical test (its SPRT and cap), when it has one: the records
	// alone then give the run's verdict. Absent in records of older arbiters.
	Test *Test `json:"test,omitempty"`
	// TimeScale is the factor the game's limits were scaled by on the worker that played it
	// (a pool run's time scaling: the run's reference speed over the worker's); 0 when they
	// were not. Each player's Played says the limit it played under.
	TimeScale float64 `json:"time_scale,omitempty"`
	// Worker names the pool or distributed worker that played the game, as its coordinator
	// knows it (not as the worker says), so that an approver can take a worker's games out of
	// a run; absent for a game played locally, and in records of older arbiters.
	Worker string `json:"worker,omitempty"`
}

// WhiteScore is the result from White's point of view: 1, 0.5 or 0.
func (r *Record) WhiteScore() float64 {
	switch r.Result {
	case WhiteWins:
		return 1
	case BlackWins:
		return 0
	}
	return 0.5
}

// ScoreOf is the result from the point of view of the named player: 1, 0.5 or 0.
func (r *Record) ScoreOf(name string) float64 {
	if r.White.Name == name {
		return r.WhiteScore()
	}
	return 1 - r.WhiteScore()
}

// Key identifies a game across files: the run it belongs to and its index in the schedule.
type Key struct {
	Run  string
	Game int
}

// Key returns the record's identity.
func (r *Record) Key() Key { return Key{r.Run, r.Game} }

// Warning is an anomaly that decided nothing (outcome's), kept in the record of its game.
type Warning = outcome.Warning

// WarningNearMargin is the Kind of a warning that a move ran late by more than half its
// engine's margin: the engine is about to lose games on time.
const WarningNearMargin = outcome.WarningNearMargin

// WarningTexts are the warnings' texts.
func WarningTexts(ws []Warning) []string {
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.Text
	}
	return texts
}
