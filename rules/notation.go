package rules

import (
	"fmt"
	"strings"
)

// separator characters and the direction from the reference piece to the destination they
// mean, for a separator written before the reference (-R, /R, \R) and after it (R-, R/, R\).
var (
	leadingSeparator  = map[byte]Direction{'-': West, '/': SouthWest, '\\': NorthWest}
	trailingSeparator = map[byte]Direction{'-': East, '/': NorthEast, '\\': SouthEast}
)

// MoveStringError is text that is not a MoveString at all.
type MoveStringError struct{ Text string }

// Error is the Message after the package's name.
func (e *MoveStringError) Error() string { return "rules: " + e.Message() }

// Message is the error without the package's name.
func (e *MoveStringError) Message() string { return fmt.Sprintf("unable to parse move %q", e.Text) }

// MoveString writes a move of this position exactly as Mzinga does: a pass is "pass", the
// first piece is its name alone, a climb names the top piece of the target stack, and any
// other move names the first occupied neighbour of the destination clockwise from north-west,
// with the moving piece taken off the board first.
func (b *Board) MoveString(m Move) string {
	if m == PassMove {
		return "pass"
	}
	p, to := m.Piece(), m.To()
	if m == NoMove || p >= NumPieces {
		return "(none)"
	}
	if b.height[to] != 0 && b.top[to] != p {
		return p.String() + " " + b.top[to].String()
	}
	from := b.cell[p]
	if from != NoCell {
		b.top[from] = b.below[p]
		b.height[from]--
		defer func() {
			b.height[from]++
			b.top[from] = p
		}()
	}
	for d := range Direction(NumDirections) {
		r := b.top[neighbors[to][d]]
		if r == NoPiece {
			continue
		}
		switch d {
		case NorthWest:
			return p.String() + " " + r.String() + `\`
		case NorthEast:
			return p.String() + " /" + r.String()
		case East:
			return p.String() + " -" + r.String()
		case SouthEast:
			return p.String() + ` \` + r.String()
		case SouthWest:
			return p.String() + " " + r.String() + "/"
		case West:
			return p.String() + " " + r.String() + "-"
		}
	}
	return p.String()
}

// moveText is a MoveString taken apart: the moving piece and, unless the piece goes to the
// origin, a reference piece and the direction from it to the destination (above it when there
// is no separator).
type moveText struct {
	pass  bool
	piece Piece
	ref   Piece // NoPiece: the origin
	dir   Direction
	above bool
	// separator is the separator as written (-, / or \), and leading says it came before the
	// reference piece, for the normalized text.
	separator byte
	leading   bool
}

// normalized is the canonical spelling of what the user wrote: names in Mzinga's case, one
// space, the user's own reference and separator.
func (t moveText) normalized() string {
	switch {
	case t.pass:
		return "pass"
	case t.ref == NoPiece:
		return t.piece.String()
	case t.above:
		return t.piece.String() + " " + t.ref.String()
	case t.leading:
		return t.piece.String() + " " + string(t.separator) + t.ref.String()
	}
	return t.piece.String() + " " + t.ref.String() + string(t.separator)
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseMoveText reads a MoveString as tolerantly as Mzinga: any case, leading and repeated
// spaces, and anything after the reference ignored. It rejects what Mzinga only accepts by
// accident of .NET (numbers as piece names).
func parseMoveText(s string) (moveText, error) {
	// Not built before it is needed: a move is parsed several times per ply.
	bad := func() error { return &MoveStringError{Text: s} }
	rest := strings.TrimLeft(s, " \t")
	if strings.EqualFold(strings.TrimRight(rest, " \t"), "pass") {
		return moveText{pass: true, piece: NoPiece, ref: NoPiece}, nil
	}
	i := 0
	for i < len(rest) && rest[i] != ' ' && rest[i] != '\t' {
		i++
	}
	piece, err := ParsePiece(rest[:i])
	if err != nil {
		return moveText{}, bad()
	}
	t := moveText{piece: piece, ref: NoPiece}
	rest = strings.TrimLeft(rest[i:], " \t")
	if rest == "" {
		return t, nil
	}
	var lead byte
	if _, ok := leadingSeparator[rest[0]]; ok {
		lead = rest[0]
		rest = rest[1:]
	}
	j := 0
	for j < len(rest) && isNameByte(rest[j]) {
		j++
	}
	ref, err := ParsePiece(rest[:j])
	if err != nil {
		return moveText{}, bad()
	}
	t.ref = ref
	rest = rest[j:]
	switch {
	case lead != 0:
		t.dir, t.separator, t.leading = leadingSeparator[lead], lead, true
	case rest != "" && strings.ContainsRune(`-/\`, rune(rest[0])):
		t.dir, t.separator = trailingSeparator[rest[0]], rest[0]
	case rest == "" || rest[0] == ' ' || rest[0] == '\t':
		t.above = true
	default:
		return moveText{}, bad()
	}
	return t, nil
}
