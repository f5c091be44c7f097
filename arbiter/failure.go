package arbiter

import (
	"context"
	"fmt"
	"sync"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// FailurePolicy says what an engine that breaks during a run does to the run.
type FailurePolicy string

// The policies of -on-engine-failure.
const (
	// AbortOnFailure stops the run at the first broken engine (exit code 5), as fastchess
	// does without -recover: the records so far are kept and the same command resumes.
	AbortOnFailure FailurePolicy = "abort"
	// ForfeitOnFailure records each remaining game of a broken engine as a loss by crash,
	// without starting it again, and plays the other games to the end: a long gauntlet is
	// not lost to one engine.
	ForfeitOnFailure FailurePolicy = "forfeit"
)

// ParseFailurePolicy reads a policy; "" is AbortOnFailure.
func ParseFailurePolicy(s string) (FailurePolicy, error) {
	switch FailurePolicy(s) {
	case "", AbortOnFailure:
		return AbortOnFailure, nil
	case ForfeitOnFailure:
		return ForfeitOnFailure, nil
	}
	return "", &ConfigError{fmt.Sprintf("on-engine-failure %q: want abort or forfeit", s)}
}

// Broken engines. An engine is broken when
//   - it cannot be started twice in a row (its process does not start, or it does not
//     complete its handshake within the start timeout, or it does not play the run's game
//     type): the second try rules out a fork that failed once under load; or
//   - it failed brokenGames games in a row before it made a single move of its own, by a
//     crash, a stall or a broken protocol (at the new game or its first search; not a time
//     loss or an illegal move, which are play): it starts, but cannot play.
//
// A broken engine is broken for the rest of the run on every worker.
const brokenGames = 3

// health tracks, across the workers of a LocalRunner, which engines are broken.
type health struct {
	mu     sync.Mutex
	broken map[int]error // why, by engine
	early  map[int]int   // games in a row the engine failed before its first move
}

// brokenErr returns why engine e is broken, or nil.
func (h *health) brokenErr(e int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.broken[e]
}

// markBroken records that engine e is broken, and reports whether it was not already.
func (h *health) markBroken(e int, why error) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.broken == nil {
		h.broken = map[int]error{}
	}
	if h.broken[e] != nil {
		return false
	}
	h.broken[e] = why
	return true
}

// played notes how a game went for engine e (playing side) and reports whether that made e
// broken.
func (h *health) played(e int, side rules.Color, r *results.Record) (broken bool, streak int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.early == nil {
		h.early = map[int]int{}
	}
	// A time loss or an illegal move is play, however poor; a crash, a stall or a broken
	// protocol before any move is an engine that cannot play.
	cannotPlay := r.Reason == results.ReasonCrash || r.Reason == results.ReasonStall || r.Reason == results.ReasonProtocol
	if r.Culprit != side.String() || !cannotPlay || movesOf(r, side) > 0 {
		h.early[e] = 0
		return false, 0
	}
	h.early[e]++
	return h.early[e] >= brokenGames, h.early[e]
}

// movesOf counts the moves side made in a game: the plies after the opening that were its.
func movesOf(r *results.Record, side rules.Color) int {
	// The opening's plies decide who moved first after it: its GameString lists them.
	first := rules.White
	if g, err := rules.ParseGameString(r.Opening); err == nil && g.Ply()%2 == 1 {
		first = rules.Black
	}
	n := len(r.Moves) / 2
	if len(r.Moves)%2 == 1 && side == first {
		n++
	}
	return n
}

// BrokenError is why an engine forfeits its games: it broke during the run.
type BrokenError struct {
	Engine string
	Err    error
}

func (e *BrokenError) Error() string {
	return fmt.Sprintf("%s is broken (%v) and forfeits its remaining games (-on-engine-failure forfeit)", e.Engine, e.Err)
}

func (e *BrokenError) Unwrap() error { return e.Err }

// brokenPlayer stands in for a broken engine: every call fails at once as a crash, so that
// the game is adjudicated as any game whose engine crashed at its start, with a record like
// any other.
type brokenPlayer struct{ err error }

func (p brokenPlayer) Info() PlayerInfo { return PlayerInfo{} }
func (p brokenPlayer) NewGame(context.Context, string) (string, error) {
	return "", &PlayerError{Reason: results.ReasonCrash, Err: p.err}
}
func (p brokenPlayer) Play(context.Context, string) (string, error) {
	return "", &PlayerError{Reason: results.ReasonCrash, Err: p.err}
}
func (p brokenPlayer) BestMove(context.Context, Limit) (string, error) {
	return "", &PlayerError{Reason: results.ReasonCrash, Err: p.err}
}
func (p brokenPlayer) Close(context.Context) error { return nil }
