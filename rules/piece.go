package rules

import (
	"fmt"
	"strings"
)

// Color is a side: White moves first.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String is "White" or "Black", as a TurnString and a GameState write a colour.
func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Bug is a kind of piece.
type Bug uint8

// The bugs, in Mzinga's order.
const (
	QueenBee Bug = iota
	Spider
	Beetle
	Grasshopper
	SoldierAnt
	Mosquito
	Ladybug
	Pillbug
	NumBugs = 8
)

var bugNames = [NumBugs]string{"QueenBee", "Spider", "Beetle", "Grasshopper", "SoldierAnt", "Mosquito", "Ladybug", "Pillbug"}

// String is the bug's name as Mzinga writes it ("QueenBee", "SoldierAnt").
func (b Bug) String() string {
	if b < NumBugs {
		return bugNames[b]
	}
	return fmt.Sprintf("Bug(%d)", uint8(b))
}

// Piece is one of the 28 pieces: White's wQ, wS1, wS2, wB1, wB2, wG1, wG2, wG3, wA1, wA2, wA3,
// wM, wL, wP in Mzinga's enumeration order, then Black's in the same order.
type Piece uint8

// Piece constants and bounds.
const (
	PiecesPerColor       = 14
	NumPieces            = 2 * PiecesPerColor
	NoPiece        Piece = 0xFF
)

var pieceNames = [NumPieces]string{
	"wQ", "wS1", "wS2", "wB1", "wB2", "wG1", "wG2", "wG3", "wA1", "wA2", "wA3", "wM", "wL", "wP",
	"bQ", "bS1", "bS2", "bB1", "bB2", "bG1", "bG2", "bG3", "bA1", "bA2", "bA3", "bM", "bL", "bP",
}

var pieceBugs = [PiecesPerColor]Bug{
	QueenBee, Spider, Spider, Beetle, Beetle, Grasshopper, Grasshopper, Grasshopper,
	SoldierAnt, SoldierAnt, SoldierAnt, Mosquito, Ladybug, Pillbug,
}

// firstOfBug is the index (within a colour) of the first piece of each bug.
var firstOfBug = [NumBugs]Piece{0, 1, 3, 5, 8, 11, 12, 13}

// Queen returns the queen of colour c.
func Queen(c Color) Piece { return Piece(c) * PiecesPerColor }

// Color returns the piece's side.
func (p Piece) Color() Color { return Color(p / PiecesPerColor) }

// Bug returns the piece's kind.
func (p Piece) Bug() Bug { return pieceBugs[p%PiecesPerColor] }

// String is the piece's PieceString ("wQ", "bS2").
func (p Piece) String() string {
	if p < NumPieces {
		return pieceNames[p]
	}
	return "NoPiece"
}

// ParsePiece reads a piece name such as "wB1", ignoring case as Mzinga does.
func ParsePiece(s string) (Piece, error) {
	for i, name := range pieceNames {
		if strings.EqualFold(name, s) {
			return Piece(i), nil
		}
	}
	return NoPiece, &notationError{fmt.Sprintf("%q is not a piece name", s)}
}

// GameType is the set of expansions in play.
type GameType uint8

// The expansion bits and the eight game types.
const (
	Base    GameType = 0
	BaseM   GameType = 1
	BaseL   GameType = 2
	BaseP   GameType = 4
	BaseML           = BaseM | BaseL
	BaseMP           = BaseM | BaseP
	BaseLP           = BaseL | BaseP
	BaseMLP          = BaseM | BaseL | BaseP
)

// GameTypes lists the eight game types in Mzinga's order.
var GameTypes = []GameType{Base, BaseM, BaseL, BaseP, BaseML, BaseMP, BaseLP, BaseMLP}

// GameTypeList names the eight game types in Mzinga's order, for a message that says which a
// game type must be: separated by commas, the last one after last (", " or " or "). Every such
// message, the arbiter's and serve's as well, is written with it, so the list is typed once.
func GameTypeList(last string) string {
	var b strings.Builder
	for i, t := range GameTypes {
		switch {
		case i == len(GameTypes)-1:
			b.WriteString(last)
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(t.String())
	}
	return b.String()
}

// String returns the GameTypeString, e.g. "Base+MLP".
func (t GameType) String() string {
	if t <= BaseMLP {
		return gameTypeNames[t]
	}
	return gameTypeName(t)
}

// gameTypeNames holds the eight GameTypeStrings, so that writing one allocates nothing: the
// arbiter writes and reads one per GameString, several per ply.
var gameTypeNames = func() (names [BaseMLP + 1]string) {
	for t := range names {
		names[t] = gameTypeName(GameType(t))
	}
	return names
}()

func gameTypeName(t GameType) string {
	if t == Base {
		return "Base"
	}
	s := "Base+"
	if t&BaseM != 0 {
		s += "M"
	}
	if t&BaseL != 0 {
		s += "L"
	}
	if t&BaseP != 0 {
		s += "P"
	}
	return s
}

// Has reports whether a bug is in play in this game type.
func (t GameType) Has(b Bug) bool {
	switch b {
	case Mosquito:
		return t&BaseM != 0
	case Ladybug:
		return t&BaseL != 0
	case Pillbug:
		return t&BaseP != 0
	}
	return b < NumBugs
}

// expansionBugs are the bugs that expansions add, in the order of their GameTypeString letters.
var expansionBugs = [...]struct {
	bug Bug
	bit GameType
}{{Mosquito, BaseM}, {Ladybug, BaseL}, {Pillbug, BaseP}}

// Expansions lists the expansion bugs of the game type, in the order Mosquito, Ladybug, Pillbug.
func (t GameType) Expansions() []Bug {
	var bugs []Bug
	for _, x := range expansionBugs {
		if t&x.bit != 0 {
			bugs = append(bugs, x.bug)
		}
	}
	return bugs
}

// Missing lists the expansion bugs of t that the game type plays does not include: what a
// player who plays the game type plays lacks for t.
func (t GameType) Missing(plays GameType) []Bug {
	return (t &^ plays).Expansions()
}

// ParseExpansions reads a list of expansion names, such as the capabilities UHP engines
// advertise ("Mosquito;Ladybug;Pillbug"), into the widest game type they make up. Names are
// compared without regard to case or surrounding space; names of no expansion are ignored.
func ParseExpansions(names []string) GameType {
	t := Base
	for _, n := range names {
		for _, x := range expansionBugs {
			if strings.EqualFold(strings.TrimSpace(n), x.bug.String()) {
				t |= x.bit
			}
		}
	}
	return t
}

// GameTypeError is a GameTypeString that is not one of the eight.
type GameTypeError struct{ Text string }

// Error is the Message after the package's name.
func (e *GameTypeError) Error() string { return "rules: " + e.Message() }

// Message is the error without the package's name.
func (e *GameTypeError) Message() string {
	return fmt.Sprintf("%q is not a game type (want %s)", e.Text, GameTypeList(" or "))
}

// ParseGameType reads a GameTypeString. Like Mzinga it is exact: "Base+PM" is rejected.
func ParseGameType(s string) (GameType, error) {
	for _, t := range GameTypes {
		if t.String() == s {
			return t, nil
		}
	}
	return Base, &GameTypeError{Text: s}
}

// GameState is where a game stands.
type GameState uint8

// The game states, as GameStateStrings name them.
const (
	NotStarted GameState = iota
	InProgress
	Draw
	WhiteWins
	BlackWins
)

var stateNames = [...]string{"NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins"}

// String is the GameStateString of UHP ("InProgress", "WhiteWins").
func (s GameState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("GameState(%d)", uint8(s))
}

// IsOver reports whether the game has ended.
func (s GameState) IsOver() bool { return s >= Draw }

// ParseGameState reads a GameStateString.
func ParseGameState(s string) (GameState, error) {
	for i, name := range stateNames {
		if name == s {
			return GameState(i), nil
		}
	}
	return NotStarted, &notationError{fmt.Sprintf("%q is not a game state (want NotStarted, InProgress, Draw, WhiteWins or BlackWins)", s)}
}
