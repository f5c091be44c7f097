package rules

import (
	"math/bits"
	"slices"
)

// scratch is per-board working memory for move generation, allocated on first use so that a
// Board stays cheap to copy.
type scratch struct {
	stamp   uint32
	seen    [NumPieces][NumCells]uint32 // seen[p][c] == stamp: move p->c already generated
	visit   [NumCells]uint32            // visit[c] == visitStamp: reached in this walk
	visitN  uint32
	cut     [NumCells]uint32 // cut[c] == stamp: removing c's ground piece splits the hive
	order   [NumCells]uint8  // DFS discovery order for the articulation search
	low     [NumCells]uint8
	stack   [NumCells]Cell
	reached [NumCells]uint32
}

// newVisit returns a mark for s.visit that no cell carries yet.
func (s *scratch) newVisit() uint32 {
	s.visitN++
	if s.visitN == 0 { // wrapped: old marks could collide with new ones
		s.visit = [NumCells]uint32{}
		s.visitN = 1
	}
	return s.visitN
}

func (b *Board) scratchSpace() *scratch {
	if b.scratch == nil {
		b.scratch = new(scratch)
	}
	return b.scratch
}

// GenerateMoves appends every legal move of the side to move to buf and returns it. Each
// (piece, destination) pair appears once. When the game is over it appends nothing; when the
// side to move has no move, it appends PassMove alone.
func (b *Board) GenerateMoves(buf []Move) []Move {
	if b.state.IsOver() {
		return buf
	}
	start := len(buf)
	us := b.ToMove()
	buf = b.generatePlacements(buf, us)
	if b.cell[Queen(us)] != NoCell {
		buf = b.generateMovements(buf, us)
	}
	if len(buf) == start {
		buf = append(buf, PassMove)
	}
	return buf
}

// placeable returns the pieces colour us may place now: the lowest-numbered piece in hand of
// each bug, with the queen forbidden on the first turn and forced on the fourth.
func (b *Board) placeable(us Color) uint32 {
	shift := uint(us) * PiecesPerColor
	hand := b.inHand >> shift & (1<<PiecesPerColor - 1)
	if hand == 0 {
		return 0
	}
	turn := b.PlayerTurn()
	if turn == 4 && hand&1 != 0 {
		return 1 << shift
	}
	out := lowestOfEachBug(hand)
	if turn == 1 {
		out &^= 1
	}
	return out << shift
}

// bugStarts has a bit at the first piece of each bug, within a colour.
const bugStarts = 1<<0 | 1<<1 | 1<<3 | 1<<5 | 1<<8 | 1<<11 | 1<<12 | 1<<13

// lowestOfEachBug keeps, of a colour's pieces in hand (bit i for its i-th piece), the
// lowest-numbered of each bug. No bug has more than three pieces, so a piece is the lowest
// unless one of the (at most two) pieces before it of the same bug is in hand.
func lowestOfEachBug(hand uint32) uint32 {
	const (
		notStart  = (1<<PiecesPerColor - 1) &^ bugStarts // a piece with another of its bug before it
		notSecond = notStart & (notStart << 1)           // ... and two before it
	)
	blocked := hand<<1&notStart | hand<<2&notSecond
	return hand &^ blocked
}

// placementCells appends the cells where colour us may place a piece: the empty cells next
// to a stack topped by us and next to none topped by the opponent. Cells next to the
// opponent are marked first, so each candidate is judged by one look-up.
func (b *Board) placementCells(cells []Cell, us Color) []Cell {
	switch b.ply {
	case 0:
		return append(cells, Origin)
	case 1:
		return append(cells, neighbors[Origin][:]...)
	}
	s := b.scratchSpace()
	seen := s.newVisit() // judged already, or next to the opponent
	for placed := b.placed(us.Opponent()); placed != 0; placed &= placed - 1 {
		p := Piece(bits.TrailingZeros32(placed))
		c := b.cell[p]
		if b.top[c] != p {
			continue
		}
		for _, n := range &neighbors[c] {
			s.visit[n] = seen
		}
	}
	for placed := b.placed(us); placed != 0; placed &= placed - 1 {
		p := Piece(bits.TrailingZeros32(placed))
		c := b.cell[p]
		if b.top[c] != p {
			continue
		}
		for _, n := range &neighbors[c] {
			if s.visit[n] != seen && b.height[n] == 0 {
				cells = append(cells, n)
			}
			s.visit[n] = seen
		}
	}
	return cells
}

// placed returns the set of colour c's pieces on the board.
func (b *Board) placed(c Color) uint32 { return b.inGame &^ b.inHand & colorMask(c) }

func (b *Board) generatePlacements(buf []Move, us Color) []Move {
	pieces := b.placeable(us)
	if pieces == 0 {
		return buf
	}
	var cellBuf [NumCells / 4]Cell
	cells := b.placementCells(cellBuf[:0], us)
	n := len(buf)
	buf = slices.Grow(buf, bits.OnesCount32(pieces)*len(cells))[:n+bits.OnesCount32(pieces)*len(cells)]
	out := buf[n:]
	for pieces != 0 {
		p := Move(bits.TrailingZeros32(pieces)) << 16
		pieces &= pieces - 1
		for i, c := range cells {
			out[i] = p | Move(c)
		}
		out = out[len(cells):]
	}
	return buf
}

// generateMovements appends the moves of colour us's pieces in play (including throws by its
// pillbugs and mosquitoes). The caller has checked that us's queen is in play.
func (b *Board) generateMovements(buf []Move, us Color) []Move {
	s := b.scratchSpace()
	s.stamp++
	if s.stamp == 0 { // wrapped: old marks could collide with new stamps
		*s = scratch{stamp: 1}
	}
	b.findCutCells(s)
	base := Piece(us) * PiecesPerColor
	for p := base; p < base+PiecesPerColor; p++ {
		c := b.cell[p]
		if c == NoCell || b.top[c] != p || p == b.last {
			continue
		}
		pinned := b.level[p] == 0 && s.cut[c] == s.stamp
		switch p.Bug() {
		case Mosquito:
			buf = b.mosquitoMoves(buf, s, p, c, pinned)
		case Pillbug:
			if !pinned {
				buf = b.movesAs(buf, s, p, c, Pillbug)
			}
			buf = b.throws(buf, s, c)
		default:
			if !pinned {
				buf = b.movesAs(buf, s, p, c, p.Bug())
			}
		}
	}
	return buf
}

func (b *Board) mosquitoMoves(buf []Move, s *scratch, p Piece, c Cell, pinned bool) []Move {
	if b.level[p] > 0 {
		return b.movesAs(buf, s, p, c, Beetle)
	}
	var copied uint8
	for _, n := range neighbors[c] {
		if t := b.top[n]; t != NoPiece && t.Bug() != Mosquito {
			copied |= 1 << t.Bug()
		}
	}
	if !pinned {
		for bug := range Bug(NumBugs) {
			if copied&(1<<bug) != 0 {
				buf = b.movesAs(buf, s, p, c, bug)
			}
		}
	}
	if copied&(1<<Pillbug) != 0 {
		buf = b.throws(buf, s, c)
	}
	return buf
}

// add appends the move p->to unless it was generated already.
func (s *scratch) add(buf []Move, p Piece, to Cell) []Move {
	if s.seen[p][to] == s.stamp {
		return buf
	}
	s.seen[p][to] = s.stamp
	return append(buf, NewMove(p, to))
}

// movesAs appends the moves of piece p at c moving as the given bug (its own, or one a
// mosquito copies). The piece is lifted off the board while its moves are found.
func (b *Board) movesAs(buf []Move, s *scratch, p Piece, c Cell, bug Bug) []Move {
	if bug == Grasshopper {
		for d := range Direction(NumDirections) {
			n := neighbors[c][d]
			if b.height[n] == 0 {
				continue
			}
			for b.height[n] != 0 {
				n = neighbors[n][d]
			}
			buf = s.add(buf, p, n)
		}
		return buf
	}
	under := b.below[p]
	b.top[c] = under
	b.height[c]--
	switch bug {
	case QueenBee, Pillbug:
		for d := range Direction(NumDirections) {
			if b.canSlide(c, d) {
				buf = s.add(buf, p, neighbors[c][d])
			}
		}
	case Beetle:
		cur := b.height[c]
		for d := range Direction(NumDirections) {
			if b.canClimb(c, d, cur) {
				buf = s.add(buf, p, neighbors[c][d])
			}
		}
	case Spider:
		buf = b.spiderMoves(buf, s, p, c)
	case SoldierAnt:
		buf = b.antMoves(buf, s, p, c)
	case Ladybug:
		buf = b.ladybugMoves(buf, s, p, c)
	}
	b.height[c]++
	b.top[c] = p
	return buf
}

// canSlide reports whether a ground piece can slide from c to its neighbour in direction d:
// the neighbour is empty and exactly one of the two cells flanking the step is occupied (both
// occupied is a gate; neither loses contact with the hive).
func (b *Board) canSlide(c Cell, d Direction) bool {
	if b.height[neighbors[c][d]] != 0 {
		return false
	}
	return (b.height[neighbors[c][d.left()]] != 0) != (b.height[neighbors[c][d.right()]] != 0)
}

// canClimb is the beetle's rule for a step from c in direction d when cur pieces are under
// the mover: a ground-to-ground step needs contact, and no step may pass between two stacks
// that are both higher than where it starts and where it lands.
func (b *Board) canClimb(c Cell, d Direction, cur uint8) bool {
	dest := b.height[neighbors[c][d]]
	l, r := b.height[neighbors[c][d.left()]], b.height[neighbors[c][d.right()]]
	if cur == 0 && dest == 0 && l == 0 && r == 0 {
		return false
	}
	return !(dest < l && dest < r && cur < l && cur < r)
}

func (b *Board) spiderMoves(buf []Move, s *scratch, p Piece, start Cell) []Move {
	for d1 := range Direction(NumDirections) {
		if !b.canSlide(start, d1) {
			continue
		}
		c1 := neighbors[start][d1]
		for d2 := range Direction(NumDirections) {
			c2 := neighbors[c1][d2]
			if c2 == start || !b.canSlide(c1, d2) {
				continue
			}
			for d3 := range Direction(NumDirections) {
				c3 := neighbors[c2][d3]
				if c3 == c1 || c3 == start || !b.canSlide(c2, d3) {
					continue
				}
				buf = s.add(buf, p, c3)
			}
		}
	}
	return buf
}

func (b *Board) antMoves(buf []Move, s *scratch, p Piece, start Cell) []Move {
	mark := s.newVisit()
	s.visit[start] = mark
	stack := s.stack[:0]
	stack = append(stack, start)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range Direction(NumDirections) {
			n := neighbors[c][d]
			if s.visit[n] == mark || !b.canSlide(c, d) {
				continue
			}
			s.visit[n] = mark
			buf = s.add(buf, p, n)
			stack = append(stack, n)
		}
	}
	return buf
}

func (b *Board) ladybugMoves(buf []Move, s *scratch, p Piece, start Cell) []Move {
	for d1 := range Direction(NumDirections) {
		c1 := neighbors[start][d1]
		if b.height[c1] == 0 || !b.canClimb(start, d1, 0) {
			continue
		}
		for d2 := range Direction(NumDirections) {
			c2 := neighbors[c1][d2]
			if b.height[c2] == 0 || !b.canClimb(c1, d2, b.height[c1]) {
				continue
			}
			for d3 := range Direction(NumDirections) {
				c3 := neighbors[c2][d3]
				if b.height[c3] != 0 || c3 == start || !b.canClimb(c2, d3, b.height[c2]) {
					continue
				}
				buf = s.add(buf, p, c3)
			}
		}
	}
	return buf
}

// throws appends the pillbug ability of the ground piece at u: an adjacent, uncovered piece of
// either colour that did not just move and can leave without splitting the hive is lifted onto
// u and set down on an empty cell next to u. Neither the lift nor the drop may pass between two
// stacks of two or more.
func (b *Board) throws(buf []Move, s *scratch, u Cell) []Move {
	for d := range Direction(NumDirections) {
		n := neighbors[u][d]
		if b.height[n] != 1 {
			continue
		}
		x := b.top[n]
		if x == b.last || s.cut[n] == s.stamp {
			continue
		}
		if b.height[neighbors[u][d.left()]] > 1 && b.height[neighbors[u][d.right()]] > 1 {
			continue
		}
		for d2 := range Direction(NumDirections) {
			t := neighbors[u][d2]
			if d2 == d || b.height[t] != 0 {
				continue
			}
			if b.height[neighbors[u][d2.left()]] > 1 && b.height[neighbors[u][d2.right()]] > 1 {
				continue
			}
			buf = s.add(buf, x, t)
		}
	}
	return buf
}

// findCutCells marks (s.cut[c] == s.stamp) every occupied cell whose ground piece cannot be
// lifted without splitting the hive: the articulation points of the graph of occupied cells.
func (b *Board) findCutCells(s *scratch) {
	root := NoCell
	for p := range Piece(NumPieces) {
		if c := b.cell[p]; c != NoCell {
			root = c
			break
		}
	}
	if root == NoCell {
		return
	}
	var counter uint8
	b.articulate(s, root, NoCell, &counter)
}

// articulate is Tarjan's depth-first search; the hive has at most 28 cells, so recursion is shallow.
func (b *Board) articulate(s *scratch, c, parent Cell, counter *uint8) {
	*counter++
	s.reached[c] = s.stamp
	s.order[c] = *counter
	s.low[c] = *counter
	children := 0
	for _, n := range neighbors[c] {
		if b.height[n] == 0 || n == parent {
			continue
		}
		if s.reached[n] == s.stamp {
			s.low[c] = min(s.low[c], s.order[n])
			continue
		}
		children++
		b.articulate(s, n, c, counter)
		s.low[c] = min(s.low[c], s.low[n])
		if parent != NoCell && s.low[n] >= s.order[c] {
			s.cut[c] = s.stamp
		}
	}
	if parent == NoCell && children > 1 {
		s.cut[c] = s.stamp
	}
}

// PinnedPieces returns a bit set (bit p for piece p) of the pieces in play that cannot leave
// their cell without splitting the hive. Pieces on top of a stack are never pinned.
func (b *Board) PinnedPieces() uint32 {
	s := b.scratchSpace()
	s.stamp++
	if s.stamp == 0 {
		*s = scratch{stamp: 1}
	}
	b.findCutCells(s)
	var out uint32
	for p := range Piece(NumPieces) {
		if c := b.cell[p]; c != NoCell && b.level[p] == 0 && b.height[c] == 1 && s.cut[c] == s.stamp {
			out |= 1 << p
		}
	}
	return out
}
