package arbiter

import (
	"fmt"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// ReplayError is a record that the referee does not reproduce: a move that is illegal or
// comes after the end, a final position or ending other than the record's.
type ReplayError struct {
	Msg string // what does not replay, without the package's name
}

// Error returns what went wrong, as a user reads it.
func (e *ReplayError) Error() string { return "arbiter: " + e.Msg }

// Message is the error without the package's name.
func (e *ReplayError) Message() string { return e.Msg }

// Replay plays a record's moves through the referee from its opening and checks its ending
// under the run's adjudication: a game the rules end must end there and then, with the rules'
// result; one the arbiter adjudicates must have reached its threshold; and a player's fault
// must be a loss for that player, who was to move where the fault is a move. A coordinator
// checks its workers' games with it, and a rating list every game it publishes.
func Replay(r *results.Record, adj Adjudication) error {
	reject := func(format string, args ...any) error { return &ReplayError{fmt.Sprintf(format, args...)} }
	g, err := rules.ParseGameString(r.Opening)
	if err != nil {
		return reject("opening: %v", err)
	}
	if g.GameType().String() != r.GameType {
		return reject("game type %q, the opening's is %q", r.GameType, g.GameType())
	}
	for i, m := range r.Moves {
		if res, reason := Ending(g, adj); res != "" {
			return reject("move %d (%s) played after the game ended (%s, %s)", i+1, m.Move, res, reason)
		}
		if err := g.Play(m.Move); err != nil {
			return reject("move %d (%s) is illegal: %v", i+1, m.Move, err)
		}
	}
	if gs := g.GameString(); gs != r.GameString {
		return reject("the final GameString is %q, the moves give %q", r.GameString, gs)
	}
	if res, reason := Ending(g, adj); res != "" {
		if r.Result != res || r.Reason != reason {
			return reject("result %s (%s), the final position gives %s (%s)", r.Result, r.Reason, res, reason)
		}
		return nil
	}
	switch r.Reason {
	case results.ReasonQueenSurrounded, results.ReasonRepetition, results.ReasonMoveLimit:
		return reject("result %s (%s), but the final position is still in progress", r.Result, r.Reason)
	case results.ReasonForfeit:
		return reject("a forfeit, which no match game has")
	}
	if !r.Reason.IsFault() {
		return reject("unknown reason %q", r.Reason)
	}
	culprit := -1
	for side := range 2 {
		if r.Culprit == rules.Color(side).String() {
			culprit = side
		}
	}
	if culprit < 0 {
		return reject("a fault (%s) with no culprit", r.Reason)
	}
	if want := [2]string{results.BlackWins, results.WhiteWins}[culprit]; r.Result != want {
		return reject("%s's %s gives %s, not %s", r.Culprit, r.Reason, want, r.Result)
	}
	switch r.Reason {
	case results.ReasonIllegalMove, results.ReasonIllegalPass, results.ReasonTimeForfeit:
		if int(g.ToMove()) != culprit {
			return reject("%s by %s, who was not to move", r.Reason, r.Culprit)
		}
	}
	if r.Reason == results.ReasonIllegalPass {
		moves := g.ValidMoves()
		if len(moves) == 1 && moves[0].IsPass() {
			return reject("an illegal pass where passing was the only move")
		}
	}
	return nil
}

// Ending is the result and reason with which the arbiter ends a game in this position, or ""
// if the game goes on; the order of the checks is the arbiter's.
func Ending(g *rules.Game, adj Adjudication) (string, results.Reason) {
	switch st := g.State(); st {
	case rules.WhiteWins, rules.BlackWins, rules.Draw:
		return st.String(), results.ReasonQueenSurrounded
	}
	if adj.Repetitions > 0 && g.Repetitions() >= adj.Repetitions {
		return results.Draw, results.ReasonRepetition
	}
	if adj.MaxPlies > 0 && g.Ply() >= adj.MaxPlies {
		return results.Draw, results.ReasonMoveLimit
	}
	return "", ""
}
