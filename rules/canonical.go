package rules

import "math/bits"

// Canonical is a position's canonical form: the same value for every position that the
// twelve symmetries of the hex grid (six rotations, each with or without a reflection) and
// any translation make of it, and a different value for any position that plays differently.
// It is comparable, so it can key a map exactly; Key is its 64-bit hash.
//
// What it covers, and why:
//   - the game type, since it decides which pieces are still to come;
//   - every stack: its cell (up to symmetry and translation), and the colour and bug of each
//     of its pieces from the bottom up, so beetles' and mosquitoes' heights and the order
//     within a stack count;
//   - the side to move;
//   - the number of plies played, but only while a queen is in hand: the turn number then
//     decides whether the queen may not be placed (turn 1) or must be (turn 4); once both
//     queens are in play no rule looks at it;
//   - the piece that moved last, but only where it can change the moves of the side to move:
//     in games with the Pillbug, when the side to move has its queen in play and the piece is
//     its own (thrown by the opponent, so it may not move) or lies next to one of its pillbugs
//     or mosquitoes (which may not throw it).
//
// Piece numbers are left out. The numbers only fix the order of placement, and a piece's
// moves depend on its bug alone, so wS1 and wS2 standing on each other's cells are the same
// position for play; the pieces still in hand follow from the game type and the pieces on
// the board. The game state follows from the board, so it is left out too.
type Canonical struct {
	header uint64            // game type, side to move, plies while a queen is in hand
	n      int               // number of stacks
	stacks [NumPieces]uint64 // sorted: row, column, then stack contents (see stackCode)
}

// Key returns the 64-bit hash of the canonical form: equal for positions equal up to
// symmetry, and different for different positions except by a 64-bit hash collision.
func (c *Canonical) Key() uint64 {
	h := mix64(c.header ^ uint64(c.n)<<56)
	for _, s := range c.stacks[:c.n] {
		h = mix64(h ^ mix64(s))
	}
	return h
}

// CanonicalKey returns the key of the position's canonical form (see Canonical).
func (b *Board) CanonicalKey() uint64 {
	c := b.Canonical()
	return c.Key()
}

// Canonical returns the position's canonical form (see Canonical).
func (g *Game) Canonical() Canonical { return g.board.Canonical() }

// CanonicalKey returns the key of the position's canonical form (see Canonical).
func (g *Game) CanonicalKey() uint64 { return g.board.CanonicalKey() }

// symmetries are the twelve linear maps of axial coordinates (q, r) that map the hex grid
// onto itself: the rotations by multiples of 60 degrees, each with and without the reflection
// that swaps q and r.
var symmetries [12][2][2]int

func init() {
	rotate := [2][2]int{{0, -1}, {1, 1}} // (q, r) -> (-r, q+r): 60 degrees
	reflect := [2][2]int{{0, 1}, {1, 0}}
	m := [2][2]int{{1, 0}, {0, 1}}
	for k := range 6 {
		symmetries[k] = m
		symmetries[k+6] = multiply(m, reflect)
		m = multiply(rotate, m)
	}
}

func multiply(a, b [2][2]int) [2][2]int {
	var c [2][2]int
	for i := range 2 {
		for j := range 2 {
			c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j]
		}
	}
	return c
}

// Canonical returns the position's canonical form: of the twelve images of the position under
// the symmetries, each translated so that its smallest row and column are 0 and written as a
// sorted list of stacks, the least one.
func (b *Board) Canonical() Canonical {
	c := Canonical{header: b.canonicalHeader()}
	var q, r [NumPieces]int
	var code [NumPieces]uint64
	n := b.stacksUnwrapped(&q, &r, &code)
	c.n = n
	var img [NumPieces]uint64
	for s := range symmetries {
		m := &symmetries[s]
		var tq, tr [NumPieces]int
		minQ, minR := 1<<30, 1<<30
		for i := range n {
			tq[i] = m[0][0]*q[i] + m[0][1]*r[i]
			tr[i] = m[1][0]*q[i] + m[1][1]*r[i]
			minQ, minR = min(minQ, tq[i]), min(minR, tr[i])
		}
		for i := range n {
			img[i] = uint64(tr[i]-minR)<<40 | uint64(tq[i]-minQ)<<32 | code[i]
			for j := i; j > 0 && img[j] < img[j-1]; j-- { // insertion sort: n <= 28
				img[j], img[j-1] = img[j-1], img[j]
			}
		}
		if s == 0 || less(img[:n], c.stacks[:n]) {
			c.stacks = img
		}
	}
	return c
}

func less(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// canonicalHeader is what the canonical form holds besides the stacks.
func (b *Board) canonicalHeader() uint64 {
	h := uint64(b.gameType) | uint64(b.ToMove())<<3
	if b.inHand&(1<<Queen(White)|1<<Queen(Black)) != 0 {
		h |= uint64(b.ply) << 8
	}
	return h
}

// stacksUnwrapped writes the stacks' coordinates, taken off the torus, and codes, and returns
// how many there are. A hive is connected, so its columns (and rows) form one run of at most
// 28 of the torus's 32: the run's first column becomes column 0.
func (b *Board) stacksUnwrapped(q, r *[NumPieces]int, code *[NumPieces]uint64) int {
	var usedQ, usedR uint32
	n := 0
	last := b.lastThatMatters()
	for p := range Piece(NumPieces) {
		c := b.cell[p]
		if c == NoCell || b.top[c] != p {
			continue
		}
		q[n], r[n] = int(c&boardMask), int(c>>boardBits)
		usedQ |= 1 << q[n]
		usedR |= 1 << r[n]
		code[n] = b.stackCode(c, p == last)
		n++
	}
	q0 := bits.TrailingZeros32(usedQ &^ bits.RotateLeft32(usedQ, 1))
	r0 := bits.TrailingZeros32(usedR &^ bits.RotateLeft32(usedR, 1))
	for i := range n {
		q[i] = (q[i] - q0) & boardMask
		r[i] = (r[i] - r0) & boardMask
	}
	return n
}

// stackCode writes a stack as 32 bits: a nibble of colour and bug per piece from the top
// down, its height above them, and a top bit when its top piece is the last moved and that
// matters.
func (b *Board) stackCode(c Cell, last bool) uint64 {
	var code uint64
	for p := b.top[c]; p != NoPiece; p = b.below[p] {
		code = code<<4 | uint64(p.Color())<<3 | uint64(p.Bug())
	}
	code |= uint64(b.height[c]&7) << 28
	if last {
		code |= 1 << 31
	}
	return code
}

// lastThatMatters returns the piece that moved last if it can change what the side to move
// may do (see Canonical), and NoPiece otherwise.
func (b *Board) lastThatMatters() Piece {
	l := b.last
	us := b.ToMove()
	if l == NoPiece || !b.gameType.Has(Pillbug) || b.cell[Queen(us)] == NoCell {
		return NoPiece
	}
	if l.Color() == us {
		return l
	}
	for _, n := range &neighbors[b.cell[l]] {
		if t := b.top[n]; t != NoPiece && t.Color() == us && (t.Bug() == Pillbug || t.Bug() == Mosquito) {
			return l
		}
	}
	return NoPiece
}

// mix64 is splitmix64's finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
