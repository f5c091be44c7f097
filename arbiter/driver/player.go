package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hivearbiter/internal/lines"
	"hivearbiter/internal/proc"
	"hivearbiter/results/outcome"
	"hivearbiter/rules"
)

// Bench is an engine's own benchmark: the nodes of a fixed set of searches, which sign a build
// (the same count on every run of it with one thread), and the time they took on this machine.
type Bench struct {
	Nodes int64
	Time  time.Duration
	// NPS is nodes per second, as the engine says it or from Nodes and Time.
	NPS int64
	// Line is the engine's answer, as it gave it.
	Line string
}

// Bencher is a Player that runs its engine's own benchmark (UHP's "bench" command, as hivebot
// answers it). An engine that has none answers an error.
type Bencher interface {
	Bench(ctx context.Context) (Bench, error)
}

// Player is one side of a game as the arbiter sees it, whatever protocol it speaks. Moves are
// MoveStrings in Mzinga's notation; "pass" passes. A protocol is one package that implements
// Player and registers how its players start (Register).
type Player interface {
	// Info is what the player said about itself when it started.
	Info() PlayerInfo
	// NewGame starts a game from a GameString (a GameTypeString alone starts an empty board).
	// A player that reports its state (PlayerInfo.ReportsState) returns the GameString it holds
	// afterwards; any other returns "".
	NewGame(ctx context.Context, gameString string) (string, error)
	// Play makes a move on the player's board and, if it reports its state, returns the
	// player's GameString after it.
	Play(ctx context.Context, move string) (string, error)
	// BestMove asks the player for its move. The context's deadline is the watchdog: past it
	// the player must give up the search and return an error.
	BestMove(ctx context.Context, limit SearchLimit) (string, error)
	// Close ends the player and releases everything it holds. It is safe to call more than once.
	Close(ctx context.Context) error
}

// PlayerInfo is what a player says about itself.
type PlayerInfo struct {
	// ID names the program and its version (for a UHP engine, its "id" line).
	ID string
	// Expansions is the widest game type the player plays, when it says so (ExpansionsKnown).
	// A player that does not say is asked to play and fails the game if it cannot.
	Expansions      rules.GameType
	ExpansionsKnown bool
	// ReportsState is true for a player that answers newgame and play with its GameString, as
	// UHP engines do: every such answer is cross-checked against the referee. A player that
	// keeps no state of its own, or does not report it, is not cross-checked.
	ReportsState bool
}

// PlayStarter is a Player that can be sent a move without waiting for its answer, as exec.Cmd
// is started and then waited for. The arbiter sends each move to both players of a game
// before it reads either answer, so that two engines play it side by side, and a ply costs
// two round trips through the pipes, not three. Each answer is still its own player's: a
// failure is judged as Play's would be, White's before Black's.
type PlayStarter interface {
	// StartPlay sends move as Play does and returns once it is sent, within ctx. When it
	// returns nil, WaitPlay must be called before anything else is asked of the player.
	StartPlay(ctx context.Context, move string) error
	// WaitPlay waits for the answer to the move StartPlay sent, as long as ctx allows, and
	// returns what Play would have returned.
	WaitPlay(ctx context.Context) (string, error)
}

// Interrupter is a Player whose running search can be stopped early, answering its best move so
// far, as a viewer's Ctrl-C stops Mzinga's search.
type Interrupter interface {
	Interrupt() error
}

// TimingAdvisor is a Player whose protocol sends it time budgets by a policy of its own (UHP
// sends an engine that reads whole seconds its budgets rounded down): it says how, and what a
// time control does to it, before its first game. The arbiter asks only for time-limited
// searches (st= and tc=).
type TimingAdvisor interface {
	// Timing says how the player is sent its budgets and how that was learned, as the
	// console and the game's record show it.
	Timing() string
	// TimeControlProblem says what tc does to the player, with a time control that works,
	// when it cannot play tc (it would lose on time); "" when it can.
	TimeControlProblem(tc TimeControl) string
}

// Warner is a Player with something to say about how it is played that is no fault of its
// own: a time budget it could only be sent rounded, say. After each search the game notes its
// new warnings in the record, with the side and engine they are about.
type Warner interface {
	// Warnings returns the warnings not returned before. Their Text is about the player
	// ("its budget ..."); their Side and Engine are the game's to fill in.
	Warnings() []Warning
}

// Warning is an anomaly that decided nothing, with the side and engine it is about.
type Warning = outcome.Warning

// Transcribed is a Player that keeps a transcript of its conversation, in which the games it
// plays are marked, so that a record leads to the part of the transcript that is its game.
type Transcribed interface {
	// MarkGame writes the start of a game into the transcript and returns the transcript's
	// path ("" when there is none).
	MarkGame(m GameMark) string
}

// GameMark is what a transcript says about a game that begins.
type GameMark struct {
	Run          string
	Index        int // the game's index in the schedule, as its record's "game"
	White, Black string
	Opening      string
	Started      time.Time
}

// SearchLimit bounds one search. Exactly one of Time, Depth and Nodes is set; Clock is set as well
// when the side plays on a game clock, for protocols that understand clocks.
type SearchLimit struct {
	// Time is the thinking time offered for this move: the fixed move time, or the arbiter's
	// budget from the clock.
	Time  time.Duration
	Depth int
	Nodes int64
	Clock *ClockState
}

// ClockState is both sides' clocks at the moment a side is asked to move.
type ClockState struct {
	Remaining [2]time.Duration // White's, then Black's time left
	Increment [2]time.Duration
	// Plies counts the plies played so far, opening included; the side to move is Plies%2.
	Plies int
}

// PlayerError is a player's failure, classified for adjudication. Player implementations
// return it (or wrap it) so that the arbiter can tell a crash from a stall from a broken
// protocol without knowing the protocol.
type PlayerError struct {
	Reason outcome.Reason // ReasonCrash, ReasonStall, ReasonTimeForfeit, ReasonProtocol or ReasonDesync
	Err    error
}

// Error is the player's own error: the reason is the record's, and a detail that quotes this
// error already names the side, so neither is said twice.
func (e *PlayerError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("arbiter: %s", e.Reason)
	}
	return e.Err.Error()
}

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *PlayerError) Unwrap() error { return e.Err }

// ClassifyError classifies a player's failure that its protocol did not judge itself, for
// adjudication: a player whose output ended crashed (a *proc.ExitError: it exited, was
// killed, or its connection closed); one that did not answer in time (a *proc.TimeoutError)
// stalled or, during a search, lost on time; a bare deadline is a stall; anything else (a line
// too long, a malformed answer) broke its protocol. Every protocol's errors from its
// transport are classified here, once.
func ClassifyError(err error, search bool) *PlayerError {
	reason := outcome.ReasonProtocol
	switch {
	case errors.As(err, new(*proc.ExitError)):
		reason = outcome.ReasonCrash
	case errors.As(err, new(*proc.TimeoutError)):
		reason = outcome.ReasonStall
		if search {
			reason = outcome.ReasonTimeForfeit
		}
	case errors.Is(err, lines.ErrTooLong):
		reason = outcome.ReasonProtocol
	case errors.Is(err, context.DeadlineExceeded):
		reason = outcome.ReasonStall
	}
	return &PlayerError{Reason: reason, Err: err}
}

// SearchReporter is a Player that reports what its last search found (depth, score, nodes,
// principal variation), as UGI engines do in their info lines. The arbiter takes the report
// when it records the player's move; a player that has none returns nil.
type SearchReporter interface {
	TakeSearchInfo() *outcome.SearchInfo
}

// Finisher is a Player that keeps its own idea of how the game stands and is told when the
// game ends: a UGI engine, asked "query gameover" and "query result", or a one-engine player,
// told the result. GameOver is given the game's result (WhiteWins, BlackWins or Draw) and
// returns the GameStateString the player believes (InProgress when it holds the game
// unfinished), or "" when it has no opinion. The arbiter compares the claim with the state the
// rules give and records any disagreement as a warning: the game's result stands.
type Finisher interface {
	GameOver(ctx context.Context, result string) (claim string, err error)
}
