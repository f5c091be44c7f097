package arbiter

import (
	"context"
	"fmt"
	"sync"

	"hivearbiter/arbiter/driver"
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
	return "", &driver.ConfigError{Msg: fmt.Sprintf("on-engine-failure %q: want abort or forfeit", s)}
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

// DefaultFailureStreak is how many games in a row an engine may fail the same way (a crash,
// a time loss, an illegal move, a desync...) before the run stops: its results can no longer
// inform. OpenBench flags a task with more than 3 crashes; a run of an engine that dies on
// its first move in every game stops after 3 such games instead of playing to its cap.
const DefaultFailureStreak = 3

// failureStreaks counts, for each engine, the games in a row it failed the same way, in the
// order the games finish.
type failureStreaks struct {
	mu     sync.Mutex
	reason map[int]results.Reason
	games  map[int]int
}

// add notes how game r went for engine e, playing side, and returns how many games in a row
// it has now failed by r.Reason (0 when it did not fail this game). A game the other side's
// failure ended before e made a move says nothing of e and leaves its streak as it was: of
// two engines that both die on their first move, each fails every game it gets to play.
func (s *failureStreaks) add(e int, side rules.Color, r *results.Record) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reason == nil {
		s.reason, s.games = map[int]results.Reason{}, map[int]int{}
	}
	switch {
	case r.Culprit == side.String() && r.Reason.IsFault():
		if s.reason[e] != r.Reason {
			s.reason[e], s.games[e] = r.Reason, 0
		}
		s.games[e]++
		return s.games[e]
	case r.Culprit != "" && movesOf(r, side) == 0:
		return 0 // the other side failed before this one moved
	}
	delete(s.reason, e)
	delete(s.games, e)
	return 0
}

// FailingError stops a run whose engine failed Games games in a row the same way: its
// results can no longer inform, and the run says why and what to do.
type FailingError struct {
	Engine string
	Reason results.Reason
	Games  int
	Detail string // the last failure's detail
}

// Error returns what went wrong, as a user reads it.
func (e *FailingError) Error() string { return "arbiter: " + e.Message() }

// Message is the error without the package's name: the engine, the failure, the last game's
// detail and the fix.
func (e *FailingError) Message() string {
	return fmt.Sprintf("engine %q failed %d games in a row by %s, so the run stopped: its results can no longer inform (last: %s). %s "+
		"To play on regardless: -on-engine-failure forfeit (it loses its remaining games, the others play on) or -failure-streak 0; the same command resumes the run",
		e.Engine, e.Games, e.Reason, e.Detail, failureFix(e.Reason))
}

// failureFix says what helps against a kind of failure.
func failureFix(r results.Reason) string {
	switch r {
	case results.ReasonTimeForfeit:
		return "Give it a longer time control, or a margin above its overshoot (margin=SECONDS); arbiter check -engine ... measures what it can play and prints a line that plays."
	case results.ReasonCrash:
		return "Its standard error is in the record's detail, and -transcripts DIR keeps its conversation; arbiter check -engine ... tells whether it survives the way the arbiter plays it."
	case results.ReasonStall:
		return "It stopped answering: -transcripts DIR shows the command it never answered; arbiter check -engine ... tries each command."
	case results.ReasonIllegalMove, results.ReasonIllegalPass, results.ReasonDesync:
		return "Its game is not the referee's: arbiter check -engine ... compares its valid moves and GameStrings with the referee's."
	case results.ReasonProtocol:
		return "It breaks the protocol: the record's detail names the fault, its likely cause and its fix (docs/check.md: my engine fails check); arbiter check -engine ... names every such fault in one run."
	case results.ReasonFalseClaim:
		return "It claims results the rules do not give; an engine that claims threefold repetition (nokamute) needs -repetitions 3, the default."
	}
	return "arbiter check -engine ... says what of the protocol it breaks."
}

// health tracks, across the workers of a LocalRunner, which engines are broken.
type health struct {
	mu     sync.Mutex
	broken map[int]error // why, by engine
	early  map[int]int   // games in a row the engine failed before its first move
	// streaks: an engine that failed the failure streak's games in a row the same way is
	// broken too.
	streaks failureStreaks
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
// broken, and why: brokenGames games in a row without a move of its own, or failureStreak (if
// above 0) games in a row failed the same way.
func (h *health) played(e int, side rules.Color, r *results.Record, failureStreak int) (broken bool, why error) {
	same := h.streaks.add(e, side, r)
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
	} else if h.early[e]++; h.early[e] >= brokenGames {
		return true, fmt.Errorf("it failed %d games in a row before its first move, the last: %s", h.early[e], r.Detail)
	}
	if failureStreak > 0 && same >= failureStreak {
		return true, fmt.Errorf("it failed %d games in a row by %s, the last: %s", same, r.Reason, r.Detail)
	}
	return false, nil
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

// Error returns what went wrong, as a user reads it.
func (e *BrokenError) Error() string {
	return fmt.Sprintf("%s is broken (%v) and forfeits its remaining games (-on-engine-failure forfeit)", e.Engine, e.Err)
}

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *BrokenError) Unwrap() error { return e.Err }

// brokenPlayer stands in for a broken engine: every call fails at once as a crash, so that
// the game is adjudicated as any game whose engine crashed at its start, with a record like
// any other.
type brokenPlayer struct{ err error }

func (p brokenPlayer) Info() driver.PlayerInfo { return driver.PlayerInfo{} }
func (p brokenPlayer) NewGame(context.Context, string) (string, error) {
	return "", &driver.PlayerError{Reason: results.ReasonCrash, Err: p.err}
}
func (p brokenPlayer) Play(context.Context, string) (string, error) {
	return "", &driver.PlayerError{Reason: results.ReasonCrash, Err: p.err}
}
func (p brokenPlayer) BestMove(context.Context, driver.SearchLimit) (string, error) {
	return "", &driver.PlayerError{Reason: results.ReasonCrash, Err: p.err}
}
func (p brokenPlayer) Close(context.Context) error { return nil }
