package arbiter

import (
	"fmt"
	"slices"
	"strings"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// mirror follows the game a player reports, so that each GameString it returns is compared with
// the referee's by meaning, not spelling: engines echo move strings or rewrite them in their own
// notation, so each reported move is replayed through the rules. Only the moves added since the
// last verified GameString are replayed, which keeps the check linear in the game's length.
type mirror struct {
	moves []string    // the move entries of the last verified GameString, as the player wrote them
	game  *rules.Game // those moves replayed by the referee
}

// discrepancy is what a reported GameString got wrong.
type discrepancy struct {
	reason  results.Reason
	detail  string
	warning bool // noted in the record, but the game goes on (or is already decided by the rules)
}

// verify checks a reported GameString against the referee's game. drawn says that the arbiter's
// own adjudication draws the game in this position (-repetitions, -maxplies), so that a player
// that reports a draw there is right.
func (m *mirror) verify(gs string, ref *rules.Game, drawn bool) *discrepancy {
	fields := strings.Split(gs, ";")
	if len(fields) < 3 {
		return &discrepancy{reason: results.ReasonProtocol, detail: fmt.Sprintf("reported %q, which is not a GameString", gs)}
	}
	claimed, err := rules.ParseGameState(strings.TrimSpace(fields[1]))
	if err != nil {
		return &discrepancy{reason: results.ReasonProtocol, detail: fmt.Sprintf("reported the GameString %q with an unknown game state", gs)}
	}
	moves := fields[3:]
	if len(moves) == 1 && strings.TrimSpace(moves[0]) == "" {
		moves = nil
	}
	for i, mv := range moves {
		if strings.TrimSpace(mv) == "" {
			where := fmt.Sprintf("entry %d is empty", i+4)
			if i == len(moves)-1 {
				where = `it ends with ";"`
			}
			return &discrepancy{reason: results.ReasonProtocol, detail: fmt.Sprintf("reported a malformed GameString (%s): %q", where, gs)}
		}
	}
	differs := func(why string) *discrepancy {
		return &discrepancy{reason: results.ReasonDesync, detail: fmt.Sprintf("its game differs from the referee's (%s): engine has %q, referee has %q", why, gs, ref.GameString())}
	}
	if t, err := rules.ParseGameType(strings.TrimSpace(fields[0])); err != nil || t != ref.GameType() {
		return differs("game type")
	}
	if m.game != nil && len(moves) >= len(m.moves) && slices.Equal(moves[:len(m.moves)], m.moves) {
		for _, mv := range moves[len(m.moves):] {
			if err := m.game.Play(mv); err != nil {
				m.game = nil
				return differs(rules.Message(err))
			}
		}
	} else {
		game, err := rules.ParseGameString(gs)
		if err != nil {
			m.game = nil
			return differs(rules.Message(err))
		}
		m.game = game
	}
	m.moves = append(m.moves[:0], moves...)
	if m.game.Ply() != ref.Ply() || m.game.Hash() != ref.Hash() {
		return differs("position")
	}
	truth := ref.State()
	switch {
	case claimed == truth, drawn && claimed == rules.Draw && !truth.IsOver():
		return nil
	case truth.IsOver():
		return &discrepancy{warning: true, detail: fmt.Sprintf("reported the game as %s, but the rules give %s", claimed, truth)}
	case claimed == rules.Draw && ref.Repetitions() >= 3:
		// nokamute and Hivemind draw by threefold repetition; Mzinga's rules have no such draw.
		return &discrepancy{reason: results.ReasonFalseClaim, detail: fmt.Sprintf("claims a Draw, but by the rules the game is %s: the position has occurred %d times, which the Hive rules do not make a draw (engines such as nokamute claim one); -repetitions 3 (repetitions = 3 in [adjudication]) adjudicates such games as draws", truth, ref.Repetitions())}
	case claimed.IsOver():
		return &discrepancy{reason: results.ReasonFalseClaim, detail: fmt.Sprintf("claims %s, but by the rules the game is %s", claimed, truth)}
	}
	// NotStarted against InProgress: harmless bookkeeping.
	return &discrepancy{warning: true, detail: fmt.Sprintf("reported the game as %s instead of %s", claimed, truth)}
}
