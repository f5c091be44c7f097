package search

import (
	"slices"

	"hivearbiter/rules"
)

// Move ordering classes, highest first; within a class, the history score decides.
const (
	orderHash      = 7 << 28 // the transposition table's best move
	orderWin       = 6 << 28 // fills the last cell around the enemy queen
	orderAttack    = 5 << 28 // a movement that adds a piece next to the enemy queen
	orderKiller    = 4 << 28 // refuted a sibling position
	orderMovement  = 2 << 28
	orderPlacement = 1 << 28
	historyMax     = 1 << 14
)

// orderMoves sorts moves best first for alpha-beta (see scoreMoves). keys is scratch space;
// the grown slice is returned for reuse.
func (w *worker) orderMoves(moves []rules.Move, keys []uint64, ply int, ttMove rules.Move) []uint64 {
	keys = w.scoreMoves(moves, keys, ply, ttMove)
	slices.Sort(keys)
	for i, k := range keys {
		moves[i] = rules.Move(uint32(k))
	}
	return keys
}

// lazyPicks is how many moves nextMove selects one by one before it sorts the rest: most
// nodes that cut off do so on one of their first moves, and never pay for a sort.
const lazyPicks = 3

// nextMove returns the i-th best move of a node whose moves 0 to i-1 were taken in turn, and
// puts it at moves[i]; keys are the moves' sort keys from scoreMoves. The order is the one a
// full sort gives, because no two keys are equal.
func nextMove(moves []rules.Move, keys []uint64, i int) rules.Move {
	switch {
	case i < lazyPicks:
		best := i
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[best] {
				best = j
			}
		}
		keys[i], keys[best] = keys[best], keys[i]
	case i == lazyPicks:
		slices.Sort(keys[i:])
	}
	moves[i] = rules.Move(uint32(keys[i]))
	return moves[i]
}

// scoreMoves appends to keys a sort key for each move, in the order of moves: ascending keys
// put the hash move first, then wins, attacks on the enemy queen, killers, then movements
// before placements, each by history.
func (w *worker) scoreMoves(moves []rules.Move, keys []uint64, ply int, ttMove rules.Move) []uint64 {
	b := w.board
	them := b.ToMove().Opponent()
	qc := b.CellOf(rules.Queen(them))
	nearlyOut := qc != rules.NoCell && b.QueenNeighbors(them) == 5
	killers := w.killers[ply]
	for _, m := range moves {
		score := 0
		if m == rules.PassMove {
			keys = append(keys, sortKey(0, m))
			continue
		}
		p, to := m.Piece(), m.To()
		from := b.CellOf(p)
		switch {
		case m == ttMove:
			score = orderHash
		case qc != rules.NoCell && p != rules.Queen(them) && addsNeighbor(b, qc, from, to):
			if nearlyOut {
				score = orderWin
			} else {
				score = orderAttack + w.historyScore(m)
			}
		case m == killers[0]:
			score = orderKiller + 1
		case m == killers[1]:
			score = orderKiller
		case from != rules.NoCell:
			score = orderMovement + w.historyScore(m)
		default:
			score = orderPlacement + w.historyScore(m)
		}
		keys = append(keys, sortKey(score, m))
	}
	return keys
}

// sortKey makes an ascending sort put high scores first, ties broken by the move's value so
// that the order never depends on how moves were generated.
func sortKey(score int, m rules.Move) uint64 {
	return uint64(^uint32(score))<<32 | uint64(m)
}

// addsNeighbor reports whether a piece going from (a ground cell, or the hand when from is
// NoCell) to cell to raises the number of occupied cells around the queen at qc, or climbs
// onto the queen.
func addsNeighbor(b *rules.Board, qc, from, to rules.Cell) bool {
	if to == qc {
		return true
	}
	if b.Height(to) != 0 || !adjacent(to, qc) {
		return false
	}
	return from == rules.NoCell || b.Height(from) > 1 || !adjacent(from, qc)
}

func (w *worker) historyScore(m rules.Move) int {
	return int(w.history[m.Piece()][m.To()]) + historyMax
}

// rewardCutoff remembers a move that caused a beta cutoff: as a killer for this ply and in
// the history table, where the moves tried before it lose what it gains.
func (w *worker) rewardCutoff(m rules.Move, ply, depth int, tried []rules.Move) {
	if m == rules.PassMove {
		return
	}
	if k := &w.killers[ply]; k[0] != m {
		k[1], k[0] = k[0], m
	}
	bonus := int32(min(depth*depth, 400))
	w.updateHistory(m, bonus)
	for _, t := range tried {
		if t != rules.PassMove {
			w.updateHistory(t, -bonus)
		}
	}
}

// updateHistory moves a history score toward ±historyMax, more slowly the closer it is.
func (w *worker) updateHistory(m rules.Move, bonus int32) {
	h := &w.history[m.Piece()][m.To()]
	abs := bonus
	if abs < 0 {
		abs = -abs
	}
	*h += bonus - *h*abs/historyMax
}
