package rules

// The Hive API (package hiveapi) tells a pillbug's special ability apart from a piece's own
// movement: a thrown piece's move is a turn of the pillbug that throws it. GenerateMoves merges
// both into one (piece, destination) list, as Mzinga's notation does; these two doors separate
// them again without changing the generator that search and perft use.

// PieceMoves appends the moves piece p of the side to move makes by its own movement (a
// mosquito's by the bugs it copies, a pillbug's one step), leaving out every move a pillbug's
// special ability makes. It appends nothing when p cannot move: it is not the side to move's,
// it is in hand or covered, it moved last, its side's queen is not in play, or the game is over.
func (b *Board) PieceMoves(buf []Move, p Piece) []Move {
	c, s, ok := b.mover(p)
	if !ok || (b.level[p] == 0 && s.cut[c] == s.stamp) {
		return buf
	}
	if p.Bug() != Mosquito {
		return b.movesAs(buf, s, p, c, p.Bug())
	}
	if b.level[p] > 0 {
		return b.movesAs(buf, s, p, c, Beetle)
	}
	copied := b.copiedBugs(c)
	for bug := range Bug(NumBugs) {
		if copied&(1<<bug) != 0 {
			buf = b.movesAs(buf, s, p, c, bug)
		}
	}
	return buf
}

// AbilityMoves appends the moves that piece u of the side to move makes with the pillbug's
// special ability: u is a pillbug, or a mosquito on the ground next to a pillbug. The moves
// are those of the pieces thrown. It appends nothing when u cannot use the ability now.
func (b *Board) AbilityMoves(buf []Move, u Piece) []Move {
	c, s, ok := b.mover(u)
	if !ok {
		return buf
	}
	switch u.Bug() {
	case Pillbug:
		return b.throws(buf, s, c)
	case Mosquito:
		if b.level[u] == 0 && b.copiedBugs(c)&(1<<Pillbug) != 0 {
			return b.throws(buf, s, c)
		}
	}
	return buf
}

// mover checks that p may act this turn, as generateMovements does, and prepares the scratch
// space (fresh stamp, cut cells) for one piece's moves.
func (b *Board) mover(p Piece) (Cell, *scratch, bool) {
	if b.state.IsOver() || p >= NumPieces {
		return NoCell, nil, false
	}
	us := b.ToMove()
	c := b.cell[p]
	if p.Color() != us || b.cell[Queen(us)] == NoCell || c == NoCell || b.top[c] != p || p == b.last {
		return NoCell, nil, false
	}
	s := b.scratchSpace()
	s.stamp++
	if s.stamp == 0 {
		*s = scratch{stamp: 1}
	}
	b.findCutCells(s)
	return c, s, true
}

// copiedBugs is the set of bugs (bit per bug) a ground mosquito at c copies.
func (b *Board) copiedBugs(c Cell) uint8 {
	var copied uint8
	for _, n := range neighbors[c] {
		if t := b.top[n]; t != NoPiece && t.Bug() != Mosquito {
			copied |= 1 << t.Bug()
		}
	}
	return copied
}
