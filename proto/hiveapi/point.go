package hiveapi

import (
	"fmt"
	"strconv"
	"strings"

	"hivearbiter/rules"
)

// Point is a cell in the API's doubled-row coordinates: rows count half a hex height, so the
// neighbours of 0,0 clockwise from 12 o'clock are -2,0, -1,1, 1,1, 2,0, 1,-1 and -1,-1, and
// row+col is always even. The API writes a point "row,col".
type Point struct{ Row, Col int }

// String returns the Point as it is written in text.
func (p Point) String() string { return strconv.Itoa(p.Row) + "," + strconv.Itoa(p.Col) }

// PointError is text that names no cell of the API's grid.
type PointError struct{ Text string }

// Error returns what went wrong, as a user reads it.
func (e *PointError) Error() string {
	return fmt.Sprintf("hiveapi: %q is not a cell: want \"row,col\" with row+col even", e.Text)
}

// ParsePoint reads "row,col". Spaces around the numbers are allowed; a point with row+col
// odd does not exist on the grid.
func ParsePoint(s string) (Point, error) {
	r, c, ok := strings.Cut(s, ",")
	row, err1 := strconv.Atoi(strings.TrimSpace(r))
	col, err2 := strconv.Atoi(strings.TrimSpace(c))
	if !ok || err1 != nil || err2 != nil || (row+col)%2 != 0 {
		return Point{}, &PointError{Text: s}
	}
	return Point{row, col}, nil
}

// step is the API's offset for each of the referee's directions (NorthWest, NorthEast, East,
// SouthEast, SouthWest, West): the referee's pointy-top grid turned a twelfth clockwise, so
// that the referee's north-west is the API's 12 o'clock.
var step = [rules.NumDirections]Point{{-2, 0}, {-1, 1}, {1, 1}, {2, 0}, {1, -1}, {-1, -1}}

func (p Point) add(q Point) Point { return Point{p.Row + q.Row, p.Col + q.Col} }
func (p Point) sub(q Point) Point { return Point{p.Row - q.Row, p.Col - q.Col} }
