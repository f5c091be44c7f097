package arbiter

import (
	"fmt"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/lines"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// mirror follows the game a player reports, so that each GameString it returns is compared with
// the referee's by meaning, not spelling: engines echo move strings or rewrite them in their own
// notation. Only the entries added since the last verified GameString are looked at, which keeps
// the cost of a check independent of the game's length. While a player's entries are the very
// MoveStrings the referee played, each new one means the referee's move from a position verified
// last time, so it needs no replay. Once a player spells a move otherwise, its game is rebuilt
// from its GameString and from then on each new entry is replayed through the rules, and the
// position reached compared with the referee's.
type mirror struct {
	synced bool   // the last verified GameString's position was the referee's at ply
	ply    int    // the referee's ply at the last verification
	moves  string // the move entries of the last verified GameString, as the player wrote them
	count  int    // how many entries moves holds
	// game is the player's moves replayed by the rules, once it spelled one otherwise than the
	// referee; nil while its entries are the referee's own.
	game *rules.Game
}

// discrepancy is what a reported GameString got wrong.
type discrepancy struct {
	reason  results.Reason
	detail  string
	warning bool // noted in the record, but the game goes on (or is already decided by the rules)
}

// verify checks a reported GameString against the referee's game. drawn says that the arbiter's
// own adjudication draws the game in this position (-repetitions, -maxplies), so that a player
// that reports a draw there is right. The referee's game must extend the one of the last
// verification: Game.Undo forgets the mirrors.
func (m *mirror) verify(gs string, ref *rules.Game, drawn bool) *discrepancy {
	typ, rest, _ := strings.Cut(gs, ";")
	state, rest, isGameString := strings.Cut(rest, ";")
	turn, rest, hasMoves := strings.Cut(rest, ";")
	if !isGameString {
		return &discrepancy{reason: results.ReasonProtocol, detail: fmt.Sprintf("reported %s, which is not a GameString", lines.QuoteText(gs))}
	}
	claimed, err := rules.ParseGameState(strings.TrimSpace(state))
	if err != nil {
		return &discrepancy{reason: results.ReasonProtocol, detail: fmt.Sprintf("reported the GameString %s with an unknown game state", lines.QuoteText(gs))}
	}
	if !hasMoves || !strings.Contains(rest, ";") && strings.TrimSpace(rest) == "" {
		rest = "" // no moves; a lone trailing ";" is read as none, as Mzinga reads it
	}
	differs := func(why string) *discrepancy {
		return &discrepancy{reason: results.ReasonDesync, detail: fmt.Sprintf("its game differs from the referee's (%s): engine has %s, referee has %s", why, lines.QuoteText(gs), lines.QuoteText(ref.GameString()))}
	}
	if t, err := rules.ParseGameType(strings.TrimSpace(typ)); err != nil || t != ref.GameType() {
		return differs("game type")
	}
	if _, _, err := rules.ParseTurnString(strings.TrimSpace(turn)); err != nil {
		// As a whole GameString's replay refuses it, though the turn is the moves' to say.
		return differs(driver.Message(err))
	}
	extends := m.synced && ref.Ply() >= m.ply && (m.moves == "" ||
		strings.HasPrefix(rest, m.moves) && (len(rest) == len(m.moves) || rest[len(m.moves)] == ';'))
	// Only the entries after the verified ones are split: a report holds the whole game.
	first, entries := 0, []string(nil)
	var one [1]string // the usual report adds one entry: no slice on the heap for it
	switch {
	case !extends || m.moves == "":
		entries = splitEntries(rest, &one)
	case len(rest) > len(m.moves):
		first, entries = m.count, splitEntries(rest[len(m.moves)+1:], &one)
		if entries == nil {
			entries = []string{""} // a separator and nothing after it: an empty entry
		}
	default:
		first = m.count
	}
	for i, mv := range entries {
		if strings.TrimSpace(mv) == "" {
			where := fmt.Sprintf("entry %d is empty", first+i+4)
			if i == len(entries)-1 {
				where = `it ends with ";"`
			}
			return &discrepancy{reason: results.ReasonProtocol, detail: fmt.Sprintf("reported a malformed GameString (%s): %s", where, lines.QuoteText(gs))}
		}
	}
	m.synced = false
	switch {
	case extends && m.game == nil && refPlayed(entries, ref, m.ply):
		// The referee's own moves, from the referee's position: the referee's game.
	case extends && m.game != nil:
		for _, mv := range entries {
			if err := m.game.Play(mv); err != nil {
				m.game = nil
				return differs(driver.Message(err))
			}
		}
	default:
		game, err := rules.ParseGameString(gs)
		if err != nil {
			m.game = nil
			return differs(driver.Message(err))
		}
		m.game = game
	}
	if m.game != nil && (m.game.Ply() != ref.Ply() || m.game.Hash() != ref.Hash()) {
		return differs("position")
	}
	if !extends && refPlayed(entries, ref, 0) {
		m.game = nil // the referee's moves spelled its way: the next entries need no replay either
	}
	m.synced, m.ply, m.moves, m.count = true, ref.Ply(), rest, first+len(entries)
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

// refPlayed reports whether entries are, one for one, the MoveStrings the referee played from
// ply from on.
func refPlayed(entries []string, ref *rules.Game, from int) bool {
	if len(entries) != ref.Ply()-from {
		return false
	}
	for i, mv := range entries {
		if mv != ref.PlayedMove(from+i) {
			return false
		}
	}
	return true
}

// splitEntries splits the move entries of a GameString: none in "", and a single entry in
// one.
func splitEntries(moves string, one *[1]string) []string {
	if moves == "" {
		return nil
	}
	if !strings.Contains(moves, ";") {
		one[0] = moves
		return one[:]
	}
	return strings.Split(moves, ";")
}
