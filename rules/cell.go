package rules

// Cell is a hex cell of the board, an axial coordinate (q, r) on a 32 x 32 torus.
type Cell uint16

// Board geometry.
const (
	boardBits       = 5
	boardWidth      = 1 << boardBits
	boardMask       = boardWidth - 1
	NumCells        = boardWidth * boardWidth
	NoCell     Cell = 0xFFFF
	// Origin is where the first piece is placed.
	Origin Cell = 0
)

// Direction is one of the six neighbours of a cell, clockwise from north-west, in the order
// Mzinga scans them when it writes a MoveString.
type Direction uint8

// The six directions of a pointy-top hex.
const (
	NorthWest Direction = iota
	NorthEast
	East
	SouthEast
	SouthWest
	West
	NumDirections = 6
)

var directionDeltas = [NumDirections][2]int{{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}}

// neighbors[c][d] is the cell next to c in direction d.
var neighbors [NumCells][NumDirections]Cell

func init() {
	for c := range NumCells {
		q, r := c&boardMask, c>>boardBits
		for d, delta := range directionDeltas {
			nq, nr := (q+delta[0])&boardMask, (r+delta[1])&boardMask
			neighbors[c][d] = Cell(nq | nr<<boardBits)
		}
	}
}

// Neighbor returns the cell next to c in direction d.
func (c Cell) Neighbor(d Direction) Cell { return neighbors[c][d] }

// Opposite returns the direction pointing back.
func (d Direction) Opposite() Direction { return (d + 3) % NumDirections }

// left and right are the two directions flanking d.
func (d Direction) left() Direction  { return (d + 5) % NumDirections }
func (d Direction) right() Direction { return (d + 1) % NumDirections }
