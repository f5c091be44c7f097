package report

import (
	"fmt"
	"strings"

	"hivearbiter/rules"
)

// The page rebuilds positions from deltas: each ply moves one piece to the top of a cell, which
// is all a Hive move does to a position (placing, moving, climbing and a pillbug's throw
// alike). A ply is written as the three parts of its MoveString in Mzinga's notation, which
// names the destination by a piece already on the board: the piece that moves, the reference
// piece, and the direction from the destination to the reference (or onTop of it). The page
// places the first piece at (0, 0) and every other one next to (or on) its reference, so it
// needs no rules to follow the game, and writes the MoveString back from the same three parts.
//
// Each part is one character of deltaDigits: a piece is its index in rules' enumeration, a
// direction is rules' Direction or onTop. The first piece has noReference; a pass is passDelta.
const (
	deltaDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef"
	deltaWidth  = 3
	noReference = '.'
	onTop       = 6
	passDelta   = "..."
)

// separators maps the separator of a MoveString's reference, and whether it comes before the
// reference's name, to the direction from the destination to the reference. Mzinga writes
// "wS1 -bA1" for the cell east of bA1, whose neighbour to the west is bA1.
var separators = map[[2]byte]rules.Direction{
	{'\\', 0}: rules.NorthWest, {'/', 1}: rules.NorthEast, {'-', 1}: rules.East,
	{'\\', 1}: rules.SouthEast, {'/', 0}: rules.SouthWest, {'-', 0}: rules.West,
}

// delta encodes one ply from its MoveString in Mzinga's canonical notation ("wS1", "wB1 bQ",
// "wA1 -bS1", "pass").
func delta(canonical string) (string, error) {
	if canonical == "pass" {
		return passDelta, nil
	}
	name, ref, hasRef := strings.Cut(canonical, " ")
	p, err := rules.ParsePiece(name)
	if err != nil {
		return "", err
	}
	if !hasRef {
		return string([]byte{deltaDigits[p], noReference, noReference}), nil
	}
	dir := rules.Direction(onTop)
	if sep := ref[0]; strings.IndexByte(`-/\`, sep) >= 0 {
		dir, ref = separators[[2]byte{sep, 1}], ref[1:]
	} else if sep := ref[len(ref)-1]; strings.IndexByte(`-/\`, sep) >= 0 {
		dir, ref = separators[[2]byte{sep, 0}], ref[:len(ref)-1]
	}
	r, err := rules.ParsePiece(ref)
	if err != nil {
		return "", err
	}
	return string([]byte{deltaDigits[p], deltaDigits[r], deltaDigits[dir]}), nil
}

// replay is a game replayed through the referee: every ply's delta, opening included. A game
// can be replayed all at once (a record) or ply by ply (a game in progress). When a ply does
// not replay (a corrupt record) the plies before it are kept and err says why; later plies
// are ignored.
type replay struct {
	gameType string
	game     *rules.Game
	plies    int
	opening  int // how many of the plies are the opening's
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
	r.opening = r.plies
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
		r.err = fmt.Errorf("report: ply %d (%s): %w", r.plies+1, text, err)
		return ""
	}
	r.plies++
	r.deltas.WriteString(d)
	return d
}

func (r *replay) step(text string) (string, error) {
	m, err := r.game.ParseMove(text)
	if err != nil {
		return "", err
	}
	d, err := delta(r.game.MoveString(m))
	if err != nil {
		return "", err
	}
	return d, r.game.Play(text)
}
