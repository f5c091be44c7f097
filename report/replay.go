package report

import (
	"fmt"
	"strings"

	"hivearbiter/rules"
)

// The page draws positions from deltas: each ply moves one piece to the top of a cell, which is
// all a Hive move does to a position (placing, moving, climbing and a pillbug's throw alike).
// A ply is written as five characters of deltaDigits: the piece (index in rules' enumeration),
// then the destination's q and r as two digits each, offset by coordBias. A pass is ".....".
const (
	deltaDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
	deltaWidth  = 5
	coordBias   = 2048
	passDelta   = "....."
)

// axial is a cell in unbounded axial coordinates. The referee's board is a 32 x 32 torus; a hive
// that drifts across its seam would jump on the page, so positions are unwrapped: a piece lands
// next to (or on) a piece already placed, whose unwrapped cell is known.
type axial struct{ Q, R int }

// directionDeltas are the axial steps of rules' six directions, in rules' order.
var directionDeltas = [rules.NumDirections]axial{{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}}

// tracker follows a game's pieces in unwrapped coordinates, ply by ply, as the referee moves
// them on its torus.
type tracker struct {
	wrapped [rules.NumPieces]rules.Cell // the referee's cell of each piece on the board
	at      [rules.NumPieces]axial
	placed  [rules.NumPieces]bool
}

// move records that piece p went to cell to, and returns its unwrapped destination.
func (t *tracker) move(p rules.Piece, to rules.Cell) (axial, error) {
	dest, found := axial{}, false
	first := true
	for q := range rules.Piece(rules.NumPieces) {
		if q == p || !t.placed[q] {
			continue
		}
		first = false
		if t.wrapped[q] == to {
			dest, found = t.at[q], true
			break
		}
		for d := range rules.Direction(rules.NumDirections) {
			if t.wrapped[q].Neighbor(d) == to {
				step := directionDeltas[d]
				dest, found = axial{t.at[q].Q + step.Q, t.at[q].R + step.R}, true
				break
			}
		}
		if found {
			break
		}
	}
	if !found && !first {
		return axial{}, fmt.Errorf("report: %v lands on cell %d, away from the hive", p, to)
	}
	t.wrapped[p], t.at[p], t.placed[p] = to, dest, true
	return dest, nil
}

// delta encodes one ply for the page.
func delta(p rules.Piece, at axial) string {
	var b [deltaWidth]byte
	b[0] = deltaDigits[p]
	for i, v := range [2]int{at.Q + coordBias, at.R + coordBias} {
		b[1+2*i] = deltaDigits[(v>>6)&63]
		b[2+2*i] = deltaDigits[v&63]
	}
	return string(b[:])
}

// replay is a game replayed through the referee: every ply's MoveString and delta, opening
// included. A game can be replayed all at once (a record) or ply by ply (a game in progress).
// When a ply does not replay (a corrupt record) the plies before it are kept and err says why;
// later plies are ignored.
type replay struct {
	gameType string
	game     *rules.Game
	track    tracker
	moves    []string
	opening  int // how many of the moves are the opening's
	deltas   strings.Builder
	err      error
}

// newReplay replays an opening GameString through the referee.
func newReplay(opening string) *replay {
	r := &replay{}
	start, err := rules.ParseGameString(opening)
	if err != nil {
		r.err = fmt.Errorf("report: opening: %w", err)
		return r
	}
	r.gameType = start.GameType().String()
	r.game = rules.NewGame(start.GameType())
	for _, m := range start.Moves() {
		r.play(m)
	}
	r.opening = len(r.moves)
	return r
}

// replayGame replays the opening GameString and then the moves through the referee.
func replayGame(opening string, moves []string) *replay {
	r := newReplay(opening)
	for _, m := range moves {
		r.play(m)
	}
	return r
}

// play replays one ply and returns its delta.
func (r *replay) play(text string) string {
	if r.err != nil {
		return ""
	}
	d, err := r.step(text)
	if err != nil {
		r.err = fmt.Errorf("report: ply %d (%s): %w", len(r.moves)+1, text, err)
		return ""
	}
	r.moves = append(r.moves, text)
	r.deltas.WriteString(d)
	return d
}

func (r *replay) step(text string) (string, error) {
	m, err := r.game.ParseMove(text)
	if err != nil {
		return "", err
	}
	d := passDelta
	if !m.IsPass() {
		at, err := r.track.move(m.Piece(), m.To())
		if err != nil {
			return "", err
		}
		d = delta(m.Piece(), at)
	}
	return d, r.game.Play(text)
}
