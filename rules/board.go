package rules

import "math/bits"

// Move is a move in a position: a piece and the cell it goes to (placing it from the hand,
// moving it, or being thrown by a pillbug), or a pass. Where on the cell it lands follows from
// the position: on top of whatever is there.
type Move uint32

// Special moves.
const (
	PassMove Move = 0xFFFFFFFE
	NoMove   Move = 0xFFFFFFFF
)

// NewMove returns the move of piece p to cell to.
func NewMove(p Piece, to Cell) Move { return Move(p)<<16 | Move(to) }

// Piece returns the piece that moves (NoPiece for a pass).
func (m Move) Piece() Piece {
	if m >= PassMove {
		return NoPiece
	}
	return Piece(m >> 16)
}

// To returns the destination cell (NoCell for a pass).
func (m Move) To() Cell {
	if m >= PassMove {
		return NoCell
	}
	return Cell(m & 0xFFFF)
}

// IsPass reports whether m is the pass move.
func (m Move) IsPass() bool { return m == PassMove }

// undoRecord is what Undo needs to take a ply back.
type undoRecord struct {
	move  Move
	from  Cell
	last  Piece
	state GameState
}

// Board is a Hive position with a fast, unchecked door: GenerateMoves, Apply and Undo. Apply
// trusts its move; use Game for anything that comes from outside.
type Board struct {
	gameType GameType
	top      [NumCells]Piece // the piece on top of each stack, or NoPiece
	height   [NumCells]uint8 // the number of pieces in each stack
	cell     [NumPieces]Cell // where each piece is, or NoCell in hand
	level    [NumPieces]uint8
	below    [NumPieces]Piece // the piece under each piece, or NoPiece
	inHand   uint32           // bit p set while piece p is in hand
	inGame   uint32           // bit p set if piece p is in this game type
	ply      int
	last     Piece // the piece placed, moved or thrown by the previous ply
	state    GameState
	hash     uint64
	history  []undoRecord
	scratch  *scratch
}

// NewBoard returns the start position of a game type.
func NewBoard(t GameType) *Board {
	b := &Board{gameType: t, last: NoPiece, state: NotStarted}
	for c := range b.top {
		b.top[c] = NoPiece
	}
	for p := range Piece(NumPieces) {
		b.cell[p] = NoCell
		b.below[p] = NoPiece
		if t.Has(p.Bug()) {
			b.inHand |= 1 << p
		}
	}
	b.inGame = b.inHand
	b.hash = b.computeHash()
	return b
}

// Clone returns an independent copy of the board, history included.
func (b *Board) Clone() *Board {
	c := *b
	c.history = append([]undoRecord(nil), b.history...)
	c.scratch = nil
	return &c
}

// CopyFrom makes b an independent copy of src, history included, keeping b's move
// generation memory and history capacity, so that a searcher can take up another position
// without allocating.
func (b *Board) CopyFrom(src *Board) {
	s, h := b.scratch, b.history[:0]
	*b = *src
	b.scratch = s
	b.history = append(h, src.history...)
}

// GameType returns the game type.
func (b *Board) GameType() GameType { return b.gameType }

// State returns the game state.
func (b *Board) State() GameState { return b.state }

// Ply returns the number of plies played, passes included.
func (b *Board) Ply() int { return b.ply }

// ToMove returns the side to move.
func (b *Board) ToMove() Color { return Color(b.ply & 1) }

// PlayerTurn is the number of the side to move's current turn, from 1.
func (b *Board) PlayerTurn() int { return 1 + b.ply/2 }

// Hash returns the Zobrist hash of the position: the pieces, the side to move and the piece
// that moved last (it cannot move now, so it is part of what the position allows).
func (b *Board) Hash() uint64 { return b.hash }

// LastMoved returns the piece placed, moved or thrown on the previous ply, or NoPiece.
func (b *Board) LastMoved() Piece { return b.last }

// CellOf returns where a piece is, or NoCell while it is in hand.
func (b *Board) CellOf(p Piece) Cell { return b.cell[p] }

// Level returns how many pieces are under p.
func (b *Board) Level(p Piece) int { return int(b.level[p]) }

// InHand reports whether piece p is still to be placed (false for pieces not in the game).
func (b *Board) InHand(p Piece) bool { return b.inHand&(1<<p) != 0 }

// Height returns the number of pieces stacked on a cell.
func (b *Board) Height(c Cell) int { return int(b.height[c]) }

// Top returns the piece on top of a cell, or NoPiece.
func (b *Board) Top(c Cell) Piece { return b.top[c] }

// Below returns the piece directly under p, or NoPiece.
func (b *Board) Below(p Piece) Piece { return b.below[p] }

// IsCovered reports whether a piece has another piece on top of it.
func (b *Board) IsCovered(p Piece) bool {
	c := b.cell[p]
	return c != NoCell && b.top[c] != p
}

// QueenNeighbors returns how many cells around colour c's queen are occupied (0 while the
// queen is in hand). Six means the queen is surrounded.
func (b *Board) QueenNeighbors(c Color) int {
	q := b.cell[Queen(c)]
	if q == NoCell {
		return 0
	}
	n := 0
	for _, nb := range neighbors[q] {
		if b.height[nb] != 0 {
			n++
		}
	}
	return n
}

// PiecesInHand returns how many pieces colour c has still to place.
func (b *Board) PiecesInHand(c Color) int {
	return bits.OnesCount32(b.inHand & colorMask(c))
}

func colorMask(c Color) uint32 { return (1<<PiecesPerColor - 1) << (uint(c) * PiecesPerColor) }

// Apply plays a move that GenerateMoves returned for this position. It does not check it.
func (b *Board) Apply(m Move) {
	rec := undoRecord{move: m, from: NoCell, last: b.last, state: b.state}
	b.hash ^= lastKey(b.last)
	if m == PassMove {
		b.last = NoPiece
	} else {
		p := m.Piece()
		rec.from = b.cell[p]
		if rec.from == NoCell {
			b.inHand &^= 1 << p
		} else {
			b.hash ^= b.lift(p)
		}
		b.hash ^= b.drop(p, m.To())
		b.last = p
	}
	b.hash ^= lastKey(b.last) ^ sideKey
	b.history = append(b.history, rec)
	b.ply++
	b.state = b.computeState()
}

// Undo takes back the last move applied. It panics if there is none.
func (b *Board) Undo() {
	rec := b.history[len(b.history)-1]
	b.history = b.history[:len(b.history)-1]
	b.ply--
	b.hash ^= lastKey(b.last) ^ sideKey
	if rec.move != PassMove {
		p := rec.move.Piece()
		b.hash ^= b.lift(p)
		if rec.from == NoCell {
			b.inHand |= 1 << p
		} else {
			b.hash ^= b.drop(p, rec.from)
		}
	}
	b.last = rec.last
	b.hash ^= lastKey(b.last)
	b.state = rec.state
}

// lift takes p off the top of its stack and returns its hash key.
func (b *Board) lift(p Piece) uint64 {
	c := b.cell[p]
	b.top[c] = b.below[p]
	b.height[c]--
	key := pieceKey(p, c, b.level[p])
	b.cell[p] = NoCell
	b.below[p] = NoPiece
	b.level[p] = 0
	return key
}

// drop puts p on top of the stack at c and returns its hash key.
func (b *Board) drop(p Piece, c Cell) uint64 {
	b.below[p] = b.top[c]
	b.level[p] = b.height[c]
	b.top[c] = p
	b.height[c]++
	b.cell[p] = c
	return pieceKey(p, c, b.level[p])
}

func (b *Board) computeState() GameState {
	white := b.QueenNeighbors(White) == 6
	black := b.QueenNeighbors(Black) == 6
	switch {
	case white && black:
		return Draw
	case white:
		return BlackWins
	case black:
		return WhiteWins
	case b.ply == 0:
		return NotStarted
	}
	return InProgress
}

// computeHash recomputes the hash from scratch; Apply and Undo keep it up to date.
func (b *Board) computeHash() uint64 {
	var h uint64
	for p := range Piece(NumPieces) {
		if c := b.cell[p]; c != NoCell {
			h ^= pieceKey(p, c, b.level[p])
		}
	}
	if b.ply&1 == 1 {
		h ^= sideKey
	}
	return h ^ lastKey(b.last)
}

// repetitionKey identifies the position as the repetition rule counts it (Game.Repetitions):
// the pieces by colour and bug, where they stand and in which order they are stacked, and the
// side to move. Which piece of a bug stands where (two ants that trade places) and the piece
// moved last are left out: nokamute, the engine that claims draws by repetition, counts
// positions so, and a claim the rule did not see would be lost as false. It is computed afresh,
// for the refereed game alone; search and perft never ask for it.
func (b *Board) repetitionKey() uint64 {
	var h uint64
	for p := range Piece(NumPieces) {
		if c := b.cell[p]; c != NoCell {
			first := Piece(p.Color())*PiecesPerColor + firstOfBug[p.Bug()]
			h ^= pieceKey(first, c, b.level[p])
		}
	}
	if b.ply&1 == 1 {
		h ^= sideKey
	}
	return h
}

// Zobrist keys: a piece on a cell, a piece at a height, the side to move, the last piece moved.
var (
	cellKeys  [NumPieces][NumCells]uint64
	levelKeys [NumPieces][8]uint64
	lastKeys  [NumPieces + 1]uint64
	sideKey   uint64
)

func init() {
	seed := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64: fixed keys, so hashes are the same in every run
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for p := range cellKeys {
		for c := range cellKeys[p] {
			cellKeys[p][c] = next()
		}
		for l := range levelKeys[p] {
			levelKeys[p][l] = next()
		}
	}
	for p := range NumPieces {
		lastKeys[p] = next()
	}
	sideKey = next()
}

func pieceKey(p Piece, c Cell, level uint8) uint64 {
	return cellKeys[p][c] ^ levelKeys[p][level&7]
}

func lastKey(p Piece) uint64 {
	if p == NoPiece {
		return 0
	}
	return lastKeys[p]
}
