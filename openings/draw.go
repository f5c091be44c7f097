package openings

import (
	"fmt"
	"math/rand/v2"

	"hivearbiter/rules"
)

// Random openings are drawn pair by pair, and a pair's opening depends on the pairs before it:
// a draw that lands on a position an earlier pair has, up to symmetry, is drawn again. Hive has
// no fixed board, so a rotated or mirrored opening is the same opening, and deterministic
// engines would play the same games again.
const (
	// redraws is how many draws in a row may repeat earlier positions before the book stops
	// trusting chance and enumerates the positions at its ply count.
	redraws = 1000
	// maxEnumerated bounds that enumeration: past it, the book gives up avoiding repeats.
	maxEnumerated = 200_000
)

// drawState is what the random draw remembers: the openings drawn so far, in pair order, and
// their positions. Once random draws stop finding new positions, pool holds the positions at
// the ply count that no pair has yet (one GameString each), and distinct counts them all.
type drawState struct {
	drawn    []string
	seen     map[rules.Canonical]bool
	pool     []string
	distinct int  // all positions at the ply count up to symmetry, once enumerated
	tooMany  bool // the enumeration passed maxEnumerated: repeats are allowed
	replay   Replayer
}

// randomAt returns the random opening of pair p, drawing the openings of the pairs before it
// first if no one has asked for them yet.
func (b *Book) randomAt(p int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := &b.draw
	if d.seen == nil {
		d.seen = map[rules.Canonical]bool{}
	}
	for len(d.drawn) <= p {
		d.drawn = append(d.drawn, b.drawNext(len(d.drawn)))
	}
	return d.drawn[p]
}

// drawNext draws the opening of pair p, which is len(b.draw.drawn). Its first draw is the one
// the arbiter made before it looked for repeats, so a run keeps its openings where they were
// new already.
func (b *Book) drawNext(p int) string {
	d := &b.draw
	rng := rand.New(rand.NewPCG(b.seed, uint64(p)^0x9e3779b97f4a7c15))
	if d.distinct > 0 || d.tooMany {
		return b.drawFromPool(p, rng)
	}
	first := ""
	for try := range redraws {
		g := d.replay.RandomGame(b.gameType, b.plies, rng)
		c := g.Canonical()
		if try == 0 {
			first = g.GameString()
		}
		if !d.seen[c] {
			d.seen[c] = true
			return g.GameString()
		}
	}
	d.pool, d.tooMany = distinctPositions(b.gameType, b.plies, d.seen)
	if d.tooMany {
		return first
	}
	d.distinct = len(d.seen) + len(d.pool)
	return b.drawFromPool(p, rng)
}

// drawFromPool takes a position no pair has yet, at random, once random draws found none;
// when every position has its pair, pair p repeats the opening of pair p mod their number.
func (b *Book) drawFromPool(p int, rng *rand.Rand) string {
	d := &b.draw
	switch {
	case d.tooMany:
		return d.replay.RandomGame(b.gameType, b.plies, rng).GameString()
	case len(d.pool) == 0:
		return d.drawn[p%d.distinct]
	}
	i := rng.IntN(len(d.pool))
	gs := d.pool[i]
	d.pool[i] = d.pool[len(d.pool)-1]
	d.pool = d.pool[:len(d.pool)-1]
	return gs
}

// drawWarnings says when a run has more pairs than there are positions to give them.
func (b *Book) drawWarnings() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := &b.draw
	switch {
	case d.tooMany:
		return []string{fmt.Sprintf("random %d-ply openings of %s: %d draws in a row found no position new to the run; later game pairs may repeat openings up to symmetry", b.plies, b.gameType, redraws)}
	case d.distinct > 0 && len(d.drawn) > d.distinct:
		return []string{fmt.Sprintf("random %d-ply openings of %s: only %d positions differ up to symmetry, so %d of %d game pairs repeat one (more -openings plies= vary them)",
			b.plies, b.gameType, d.distinct, len(d.drawn)-d.distinct, len(d.drawn))}
	}
	return nil
}

// RandomGame plays plies random legal plies from the empty board and backs off a ply at a
// time from a position that is already decided.
func RandomGame(t rules.GameType, plies int, rng *rand.Rand) *rules.Game {
	return new(Replayer).RandomGame(t, plies, rng)
}

// distinctPositions lists, as GameStrings, one line to each position after plies plies, up to
// symmetry, that seen does not hold, in the order of the referee's move generation. Positions
// equal up to symmetry have positions equal up to symmetry after them, so one line to each is
// enough to go on from. It gives up (tooMany) past maxEnumerated positions at a ply.
func distinctPositions(t rules.GameType, plies int, seen map[rules.Canonical]bool) (fresh []string, tooMany bool) {
	lines := [][]rules.Move{nil}
	board := rules.NewBoard(t)
	for range plies {
		next := map[rules.Canonical]bool{}
		var longer [][]rules.Move
		var moves []rules.Move
		for _, line := range lines {
			for _, m := range line {
				board.Apply(m)
			}
			moves = board.GenerateMoves(moves[:0])
			for _, m := range moves {
				board.Apply(m)
				if c := board.Canonical(); !next[c] && !board.State().IsOver() {
					next[c] = true
					longer = append(longer, append(line[:len(line):len(line)], m))
				}
				board.Undo()
			}
			for range line {
				board.Undo()
			}
			if len(longer) > maxEnumerated {
				return nil, true
			}
		}
		lines = longer
	}
	for _, line := range lines {
		g := rules.NewGame(t)
		for _, m := range line {
			if err := g.PlayMove(m); err != nil {
				panic(fmt.Sprintf("openings: the referee rejected its own valid move: %v", err))
			}
		}
		if !seen[g.Canonical()] {
			fresh = append(fresh, g.GameString())
		}
	}
	return fresh, false
}
