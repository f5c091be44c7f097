package arbiter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hivearbiter/results"
)

// Player is one side of a game as the arbiter sees it. The UHP engine client is one
// implementation; a player that speaks another protocol joins a tournament by implementing
// these methods. Moves are MoveStrings in Mzinga's notation; "pass" passes.
type Player interface {
	// ID is what the player says it is (for a UHP engine, its "id" line).
	ID() string
	// NewGame starts a game from a GameString (a GameTypeString alone starts an empty board)
	// and returns the GameString the player holds afterwards.
	NewGame(ctx context.Context, gameString string) (string, error)
	// Play makes a move on the player's board and returns the player's GameString after it.
	Play(ctx context.Context, move string) (string, error)
	// BestMove asks the player for its move. The context's deadline is the watchdog: past it
	// the player must give up the search and return an error.
	BestMove(ctx context.Context, limit Limit) (string, error)
	// Close ends the player and releases everything it holds. It is safe to call more than once.
	Close(ctx context.Context) error
}

// Limit bounds one search: a thinking time or a depth.
type Limit struct {
	Time  time.Duration
	Depth int
}

// PlayerError is a player's failure, classified for adjudication. Player implementations
// return it (or wrap it) so that the arbiter can tell a crash from a stall from a broken
// protocol without knowing the protocol.
type PlayerError struct {
	Reason results.Reason // ReasonCrash, ReasonStall, ReasonTimeForfeit, ReasonProtocol or ReasonDesync
	Err    error
}

func (e *PlayerError) Error() string { return fmt.Sprintf("arbiter: %s: %v", e.Reason, e.Err) }
func (e *PlayerError) Unwrap() error { return e.Err }

// reasonOf classifies an error returned by a player. An error a player did not classify is
// treated as a broken conversation.
func reasonOf(err error) results.Reason {
	var pe *PlayerError
	if errors.As(err, &pe) {
		return pe.Reason
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return results.ReasonStall
	}
	return results.ReasonProtocol
}
