package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Game is the checked door to a board, for the arbiter and for engines' protocol layers:
// moves come in as MoveStrings and are validated, rejected moves are explained in Mzinga's
// words, and the history is kept as the MoveStrings that were played.
type Game struct {
	board *Board
	moves []string // the normalized MoveString of every ply
	keys  []uint64 // the repetition key before each ply, and after the last (Board.repetitionKey)
	valid []Move   // the valid moves of the position, once validMoves has generated them
	// generated says that valid holds this position's moves: a move is usually checked more
	// than once before it is played (the arbiter checks an answer, then plays it), and move
	// generation is most of a check.
	generated bool
	// seen counts the occurrences of each key in keys, once Repetitions has been asked.
	seen map[uint64]int
}

// InvalidMoveError is a move the rules do not allow here. Reason is Mzinga's message, such as
// "You can't move that piece because it will break the hive."
type InvalidMoveError struct {
	Move   string
	Reason string
}

// Error is the Message after the package's name.
func (e *InvalidMoveError) Error() string { return "rules: " + e.Message() }

// Message is the error without the package's name.
func (e *InvalidMoveError) Message() string {
	return fmt.Sprintf("invalid move %q: %s", e.Move, e.Reason)
}

// GameStringError is a GameString that cannot be loaded. Entry is the index of the
// semicolon-separated field that failed (0 is the GameTypeString, 3 the first move).
type GameStringError struct {
	Entry int
	Text  string
	Err   error
}

// Error is the Message after the package's name.
func (e *GameStringError) Error() string { return "rules: " + e.Message() }

// Message is the error without the package's name, which its cause, this package's error
// too, leaves out as well: the name is said once.
func (e *GameStringError) Message() string {
	cause := e.Err.Error()
	if m, ok := e.Err.(interface{ Message() string }); ok {
		cause = m.Message()
	}
	return fmt.Sprintf("GameString entry %d (%q): %s", e.Entry, e.Text, cause)
}

// notationError is a name this package cannot read: a piece's, a game state's.
type notationError struct{ msg string }

func (e *notationError) Error() string { return "rules: " + e.msg }

// Message is the error without the package's name.
func (e *notationError) Message() string { return e.msg }

// TurnStringError is a TurnString ("White[3]") that cannot be read.
type TurnStringError struct{ Text string }

// Error is the Message after the package's name.
func (e *TurnStringError) Error() string { return "rules: " + e.Message() }

// Message is the error without the package's name.
func (e *TurnStringError) Message() string {
	return fmt.Sprintf("%q is not a TurnString (want White[n] or Black[n])", e.Text)
}

// Unwrap returns why the entry could not be read: a MoveStringError, an InvalidMoveError and the
// like.
func (e *GameStringError) Unwrap() error { return e.Err }

// Mzinga's reasons for rejecting a move or a pass.
const (
	ReasonGameOver        = "You can't play, the game is over."
	ReasonNotYourTurn     = "It's not that player's turn."
	ReasonNotEnabled      = "That piece is not enabled in this game."
	ReasonBackToHand      = "You can't put a piece back into your hand."
	ReasonQueenFirstTurn  = "You can't play your Queen Bee on your first turn."
	ReasonQueenByFourth   = "You must play your Queen Bee on or before your fourth turn."
	ReasonQueenNotPlaced  = "You can't move a piece in play until you've played your Queen Bee."
	ReasonPlaceInOrder    = "When there are multiple pieces of the same bug type, you must play the pieces in order."
	ReasonOccupied        = "You can't move there because a piece already exists at that position."
	ReasonCovered         = "You can't move that piece because it has another piece on top of it."
	ReasonBreaksHive      = "You can't move that piece because it will break the hive."
	ReasonIllegal         = "You can't move that piece there."
	ReasonPassGameOver    = "You can't pass, the game is over."
	ReasonPassWithMoves   = "You can't pass when you have valid moves."
	ReasonNoMoveAvailable = "You must pass: there is no other valid move."
)

// NewGame starts a game of the given type.
func NewGame(t GameType) *Game {
	b := NewBoard(t)
	return &Game{board: b, keys: []uint64{b.repetitionKey()}}
}

// ParseGameString loads a GameString ("GameType;State;Turn;Move;..."), replaying every move
// with full validation. Like Mzinga it takes the state and turn from the replay, not from the
// text (they must still be well formed). A bare GameTypeString starts a new game.
func ParseGameString(s string) (*Game, error) {
	g := new(Game)
	if err := g.LoadGameString(s); err != nil {
		return nil, err
	}
	return g, nil
}

// LoadGameString makes g the game s describes, read as ParseGameString reads it. A g of the
// same game type is taken back to its start and played forward, keeping the working memory
// its move generation has grown (about 140 KB a game: the arbiter reads thousands of openings
// so). A GameString that is not well formed leaves g as it was; one whose moves do not replay
// leaves g somewhere along them.
func (g *Game) LoadGameString(s string) error {
	fields := strings.Split(s, ";")
	t, err := ParseGameType(strings.TrimSpace(fields[0]))
	if err != nil {
		return &GameStringError{Entry: 0, Text: fields[0], Err: err}
	}
	if len(fields) == 2 {
		return &GameStringError{Entry: len(fields), Text: s, Err: errors.New("want GameTypeString;GameStateString;TurnString[;MoveString...]")}
	}
	if len(fields) > 2 {
		if _, err := ParseGameState(strings.TrimSpace(fields[1])); err != nil {
			return &GameStringError{Entry: 1, Text: fields[1], Err: err}
		}
		if _, _, err := ParseTurnString(strings.TrimSpace(fields[2])); err != nil {
			return &GameStringError{Entry: 2, Text: fields[2], Err: err}
		}
	}
	if g.board == nil || g.GameType() != t {
		*g = *NewGame(t)
	} else {
		g.Reset()
	}
	for i := 3; i < len(fields); i++ {
		if err := g.Play(fields[i]); err != nil {
			return &GameStringError{Entry: i, Text: fields[i], Err: err}
		}
	}
	return nil
}

// Reset takes the game back to its start, keeping the working memory it has grown.
func (g *Game) Reset() {
	if n := g.Ply(); n > 0 {
		g.Undo(n) // cannot fail: n plies were played
	}
}

// ParseTurnString reads a GameString's TurnString, "White[3]" or "Black[12]": the side to
// move and the number of its turn, from 1. Anything else is a *TurnStringError.
func ParseTurnString(s string) (Color, int, error) {
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") {
		return White, 0, &TurnStringError{s}
	}
	var c Color
	switch s[:open] {
	case "White":
		c = White
	case "Black":
		c = Black
	default:
		return White, 0, &TurnStringError{s}
	}
	n, err := strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || n < 1 {
		return White, 0, &TurnStringError{s}
	}
	return c, n, nil
}

// Board returns a copy of the position, for search.
func (g *Game) Board() *Board { return g.board.Clone() }

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	return &Game{
		board: g.board.Clone(),
		moves: append([]string(nil), g.moves...),
		keys:  append([]uint64(nil), g.keys...),
	}
}

// GameType returns the game type.
func (g *Game) GameType() GameType { return g.board.gameType }

// State returns the game state.
func (g *Game) State() GameState { return g.board.state }

// ToMove returns the side to move.
func (g *Game) ToMove() Color { return g.board.ToMove() }

// Ply returns the number of plies played, passes included.
func (g *Game) Ply() int { return g.board.ply }

// Hash returns the position hash (see Board.Hash).
func (g *Game) Hash() uint64 { return g.board.hash }

// Repetitions returns how many times the current position has occurred in this game, this
// time included. A position is its pieces by colour and bug, where they stand and how they
// are stacked, and the side to move: not which of two pieces of a bug stands where, nor the
// piece moved last (see Board.repetitionKey). The Hive rules have no draw by repetition; the
// arbiter adjudicates one by this count.
func (g *Game) Repetitions() int {
	if g.seen == nil {
		// Counted once, then kept up to date: the arbiter asks after every ply of games that
		// may last thousands.
		g.seen = make(map[uint64]int, len(g.keys))
		for _, k := range g.keys {
			g.seen[k]++
		}
	}
	return g.seen[g.keys[len(g.keys)-1]]
}

// Moves returns the MoveStrings played so far.
func (g *Game) Moves() []string { return append([]string(nil), g.moves...) }

// PlayedMove returns the MoveString of ply i (0 is the first), as Moves holds it, without
// copying the history.
func (g *Game) PlayedMove(i int) string { return g.moves[i] }

// TurnString returns e.g. "White[1]".
func (g *Game) TurnString() string {
	return fmt.Sprintf("%s[%d]", g.board.ToMove(), g.board.PlayerTurn())
}

// GameString returns "GameType;State;Turn[;Move...]".
func (g *Game) GameString() string {
	var sb strings.Builder
	sb.WriteString(g.board.gameType.String())
	sb.WriteByte(';')
	sb.WriteString(g.board.state.String())
	sb.WriteByte(';')
	sb.WriteString(g.TurnString())
	for _, m := range g.moves {
		sb.WriteByte(';')
		sb.WriteString(m)
	}
	return sb.String()
}

// ValidMoves returns every legal move: PassMove alone when nothing else is legal, nothing
// when the game is over.
func (g *Game) ValidMoves() []Move { return g.board.GenerateMoves(nil) }

// MoveString writes a move of the current position as Mzinga does.
func (g *Game) MoveString(m Move) string { return g.board.MoveString(m) }

// ValidMoveStrings returns the MoveStrings of ValidMoves.
func (g *Game) ValidMoveStrings() []string {
	moves := g.ValidMoves()
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = g.board.MoveString(m)
	}
	return out
}

// ParseMove reads a MoveString in the context of the current position and checks it. Any
// reference piece next to the destination is accepted, as Mzinga accepts it. The error is a
// *MoveStringError for text that is no move, or an *InvalidMoveError naming the broken rule.
func (g *Game) ParseMove(s string) (Move, error) {
	m, _, err := g.parseMove(s)
	return m, err
}

func (g *Game) parseMove(s string) (Move, moveText, error) {
	t, err := parseMoveText(s)
	if err != nil {
		return NoMove, t, err
	}
	b := g.board
	if t.pass {
		if b.state.IsOver() {
			return NoMove, t, &InvalidMoveError{Move: t.normalized(), Reason: ReasonPassGameOver}
		}
		if valid := g.validMoves(); len(valid) != 1 || valid[0] != PassMove {
			return NoMove, t, &InvalidMoveError{Move: t.normalized(), Reason: ReasonPassWithMoves}
		}
		return PassMove, t, nil
	}
	to, level := Origin, uint8(0)
	if t.ref != NoPiece {
		rc := b.cell[t.ref]
		switch {
		case rc == NoCell:
			to = NoCell
		case t.above:
			to, level = rc, b.level[t.ref]+1
		default:
			to = neighbors[rc][t.dir]
		}
	}
	m := NewMove(t.piece, to)
	if to != NoCell && level == b.height[to] {
		for _, v := range g.validMoves() {
			if v == m {
				return m, t, nil
			}
		}
	}
	return NoMove, t, &InvalidMoveError{Move: t.normalized(), Reason: g.explain(t.piece, to, level)}
}

// validMoves returns the position's valid moves, generated once per position. The caller
// must not keep the slice.
func (g *Game) validMoves() []Move {
	if !g.generated {
		g.valid = g.board.GenerateMoves(g.valid[:0])
		g.generated = true
	}
	return g.valid
}

// explain says why piece p may not go to (to, level), checking Mzinga's rules in Mzinga's order.
func (g *Game) explain(p Piece, to Cell, level uint8) string {
	b := g.board
	us := b.ToMove()
	from := b.cell[p]
	placing := from == NoCell
	queenInPlay := b.cell[Queen(us)] != NoCell
	switch {
	case b.state.IsOver():
		return ReasonGameOver
	case p.Color() != us:
		return ReasonNotYourTurn
	case !b.gameType.Has(p.Bug()):
		return ReasonNotEnabled
	case to == NoCell:
		return ReasonBackToHand
	case placing && p.Bug() == QueenBee && b.PlayerTurn() == 1:
		return ReasonQueenFirstTurn
	case !queenInPlay && b.PlayerTurn() == 4 && p.Bug() != QueenBee:
		return ReasonQueenByFourth
	case !queenInPlay && !placing:
		return ReasonQueenNotPlaced
	case placing && b.placeable(us)&(1<<p) == 0:
		return ReasonPlaceInOrder
	case b.height[to] > level:
		return ReasonOccupied
	case !placing && b.top[from] != p:
		return ReasonCovered
	case !placing && b.level[p] == 0 && b.PinnedPieces()&(1<<p) != 0:
		return ReasonBreaksHive
	}
	return ReasonIllegal
}

// Play parses, checks and plays a MoveString (or "pass"). The history keeps the move as the
// user wrote it, normalized (canonical case and spacing), as Mzinga keeps it.
func (g *Game) Play(s string) error {
	m, t, err := g.parseMove(s)
	if err != nil {
		return err
	}
	g.apply(m, t.normalized())
	return nil
}

// PlayMove checks and plays a move, recording it in Mzinga's notation.
func (g *Game) PlayMove(m Move) error {
	text := g.board.MoveString(m)
	parsed, err := g.ParseMove(text)
	if err != nil {
		return err
	}
	if parsed != m {
		return &InvalidMoveError{Move: text, Reason: ReasonIllegal}
	}
	g.apply(m, text)
	return nil
}

// Pass plays a pass, which is legal only when nothing else is.
func (g *Game) Pass() error { return g.Play("pass") }

func (g *Game) apply(m Move, text string) {
	g.generated = false
	g.board.Apply(m)
	g.moves = append(g.moves, text)
	key := g.board.repetitionKey()
	g.keys = append(g.keys, key)
	if g.seen != nil {
		g.seen[key]++
	}
}

// UndoError is an undo of more plies than were played.
type UndoError struct{ Plies, Played int }

// Error is the Message after the package's name.
func (e *UndoError) Error() string { return "rules: " + e.Message() }

// Message is the error without the package's name.
func (e *UndoError) Message() string {
	return fmt.Sprintf("unable to undo %d moves (%d played)", e.Plies, e.Played)
}

// Undo takes back n plies.
func (g *Game) Undo(n int) error {
	if n < 1 || n > len(g.moves) {
		return &UndoError{Plies: n, Played: len(g.moves)}
	}
	g.generated = false
	for range n {
		if g.seen != nil {
			g.seen[g.keys[len(g.keys)-1]]--
		}
		g.board.Undo()
		g.moves = g.moves[:len(g.moves)-1]
		g.keys = g.keys[:len(g.keys)-1]
	}
	return nil
}
