package hiveapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"hivearbiter/rules"
)

// Game is a game as the Hive API tells it: the referee's game, every piece's point, and the
// turns played. It converts both ways: the referee's position into the API's GameState (with
// the turns offered), and a module's Turn back into the referee's move.
//
// The referee's board is a torus; the API's plane is not. Each piece's point is carried from
// move to move (a piece lands next to a piece whose point is known, or on top of one), so the
// points stay exact however far the hive wanders from where White's first piece was placed.
type Game struct {
	ref     *rules.Game  // checks moves and writes MoveStrings
	board   *rules.Board // the same position, for the fast generator
	at      [rules.NumPieces]Point
	history []Turn
	offered *offer // the turns of the position, computed on first use
	buf     []rules.Move
}

// offer is the turns of one position, both ways.
type offer struct {
	possible PossibleTurns
	byMove   map[rules.Move]Turn
	byTurn   map[Turn]rules.Move
}

// NewGame starts a game of the given type.
func NewGame(t rules.GameType) *Game {
	return &Game{ref: rules.NewGame(t), board: rules.NewBoard(t), history: []Turn{}}
}

// LoadGame starts a game from a GameString, replaying its moves (a GameTypeString alone is the
// empty board).
func LoadGame(gameString string) (*Game, error) {
	ref, err := rules.ParseGameString(gameString)
	if err != nil {
		return nil, fmt.Errorf("hiveapi: %w", err)
	}
	g := NewGame(ref.GameType())
	for _, m := range ref.Moves() {
		if err := g.Play(m); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Play plays a MoveString, or "pass", checked by the referee.
func (g *Game) Play(move string) error {
	if strings.EqualFold(strings.TrimSpace(move), "pass") {
		return g.PlayMove(rules.PassMove)
	}
	m, err := g.ref.ParseMove(move)
	if err != nil {
		return fmt.Errorf("hiveapi: %w", err)
	}
	return g.PlayMove(m)
}

// PlayMove plays a move, checked by the referee, and records it as the API's turn.
func (g *Game) PlayMove(m rules.Move) error {
	turn := g.classify(m)
	if err := g.ref.PlayMove(m); err != nil {
		return fmt.Errorf("hiveapi: %w", err)
	}
	if !m.IsPass() {
		g.at[m.Piece()] = g.pointOf(m.To(), m.Piece())
	}
	g.board.Apply(m)
	g.history = append(g.history, turn)
	g.offered = nil
	return nil
}

// classify is the turn of a legal move, decided as offer decides it but without listing every
// turn: replaying a long history stays cheap.
func (g *Game) classify(m rules.Move) Turn {
	b := g.board
	if m.IsPass() {
		return Turn{TurnType: Forfeit}
	}
	x := m.Piece()
	if b.InHand(x) {
		return Turn{TurnType: Placement, PieceType: bugNames[x.Bug()], Destination: g.pointOf(m.To(), rules.NoPiece).String()}
	}
	src, dest := g.at[x].String(), g.pointOf(m.To(), x).String()
	if g.buf = b.PieceMoves(g.buf[:0], x); slices.Contains(g.buf, m) {
		return Turn{TurnType: Movement, Source: src, Destination: dest}
	}
	for _, u := range throwers(b.ToMove()) {
		if g.buf = b.AbilityMoves(g.buf[:0], u); slices.Contains(g.buf, m) {
			return Turn{TurnType: SpecialAbility, AbilityUser: g.at[u].String(), Source: src, Destination: dest}
		}
	}
	return Turn{} // not legal: the referee says so
}

// throwers are the pieces of a side that may have the pillbug's ability, in the order in
// which a throw both could make is given to one: the pillbug, then the mosquito.
func throwers(c rules.Color) [2]rules.Piece {
	base := rules.Piece(c) * rules.PiecesPerColor
	return [2]rules.Piece{base + 13, base + 11}
}

// Referee returns a copy of the referee's game.
func (g *Game) Referee() *rules.Game { return g.ref.Clone() }

// GameString is the referee's GameString of the game.
func (g *Game) GameString() string { return g.ref.GameString() }

// Point is where a piece in play stands.
func (g *Game) Point(p rules.Piece) Point { return g.at[p] }

// TurnOf is the API's turn for a legal move of the side to move, and false for a move that is
// not legal. A thrown piece's move is a Special Ability turn of the pillbug (or mosquito) that
// throws it, unless the piece could make the same move itself.
func (g *Game) TurnOf(m rules.Move) (Turn, bool) {
	t, ok := g.offer().byMove[m]
	return t, ok
}

// Turns lists the turns offered and the move each one is.
func (g *Game) Turns() map[Turn]rules.Move { return g.offer().byTurn }

// Move is the referee's move for a turn that possible_turns offers, and a *TurnError saying
// what is wrong with any other turn.
func (g *Game) Move(t Turn) (rules.Move, error) {
	norm, err := normalize(t)
	if err == nil {
		if m, ok := g.offer().byTurn[norm]; ok {
			return m, nil
		}
		err = g.explain(norm)
	}
	text, _ := json.Marshal(t)
	return rules.PassMove, &TurnError{Turn: string(text), Why: err.Error()}
}

// MoveString is the referee's MoveString for an offered turn ("pass" for Forfeit).
func (g *Game) MoveString(t Turn) (string, error) {
	m, err := g.Move(t)
	if err != nil {
		return "", err
	}
	if m.IsPass() {
		return "pass", nil
	}
	return g.ref.MoveString(m), nil
}

// TurnError is a turn a module chose that possible_turns did not offer.
type TurnError struct {
	Turn string // the turn as JSON
	Why  string
}

// Error returns what went wrong, as a user reads it.
func (e *TurnError) Error() string {
	return fmt.Sprintf("hiveapi: the turn %s was not offered: %s", e.Turn, e.Why)
}

// normalize keeps the fields that the turn's type uses, with points written canonically.
func normalize(t Turn) (Turn, error) {
	point := func(s string) (string, error) {
		p, err := ParsePoint(s)
		if err != nil {
			return "", fmt.Errorf("%q is not a cell: a point is \"row,col\" with row+col even", s)
		}
		return p.String(), nil
	}
	var err error
	n := Turn{TurnType: t.TurnType}
	switch t.TurnType {
	case Placement:
		n.PieceType = t.PieceType
		if _, ok := ParseBug(t.PieceType); !ok {
			return n, fmt.Errorf("%q is not a piece type", t.PieceType)
		}
		n.Destination, err = point(t.Destination)
	case Movement:
		if n.Source, err = point(t.Source); err == nil {
			n.Destination, err = point(t.Destination)
		}
	case SpecialAbility:
		if n.AbilityUser, err = point(t.AbilityUser); err == nil {
			if n.Source, err = point(t.Source); err == nil {
				n.Destination, err = point(t.Destination)
			}
		}
	case Forfeit:
	default:
		return n, fmt.Errorf("turn_type %q is not one of %s, %s, %s, %s", t.TurnType, Placement, Movement, SpecialAbility, Forfeit)
	}
	return n, err
}

// explain says why a well-formed turn is not offered.
func (g *Game) explain(t Turn) error {
	b := g.board
	us := colorName(b.ToMove())
	if b.State().IsOver() {
		return fmt.Errorf("the game is over")
	}
	offer := g.offer()
	switch t.TurnType {
	case Forfeit:
		return fmt.Errorf("%s may not forfeit its turn (pass) while it has %d legal turns", us, len(offer.byTurn))
	case Placement:
		if p := offer.possible.Placement; p == nil || !slices.Contains(p.PieceTypes, t.PieceType) {
			return fmt.Errorf("%s may not place a %s now", us, t.PieceType)
		}
		return fmt.Errorf("%s may not place a piece at %s", us, t.Destination)
	}
	src, _ := ParsePoint(t.Source)
	piece, ok := g.pieceAt(src)
	if !ok {
		return fmt.Errorf("there is no piece at %s", t.Source)
	}
	what := fmt.Sprintf("the %s %s at %s", colorName(piece.Color()), bugNames[piece.Bug()], t.Source)
	dst, _ := ParsePoint(t.Destination)
	var also string
	if c, ok := g.cellAt(dst); ok {
		if other, ok := offer.byMove[rules.NewMove(piece, c)]; ok {
			text, _ := json.Marshal(other)
			also = fmt.Sprintf(" (the move is offered as %s)", text)
		}
	}
	if t.TurnType == Movement {
		if piece.Color() != b.ToMove() {
			return fmt.Errorf("%s is not %s's%s", what, us, also)
		}
		return fmt.Errorf("%s cannot move to %s%s", what, t.Destination, also)
	}
	userAt, _ := ParsePoint(t.AbilityUser)
	user, ok := g.pieceAt(userAt)
	if !ok {
		return fmt.Errorf("there is no piece at %s to use a special ability", t.AbilityUser)
	}
	return fmt.Errorf("the %s %s at %s cannot move %s to %s%s", colorName(user.Color()), bugNames[user.Bug()], t.AbilityUser, what, t.Destination, also)
}

// pieceAt is the piece on top of the stack at a point.
func (g *Game) pieceAt(pt Point) (rules.Piece, bool) {
	b := g.board
	for p := range rules.Piece(rules.NumPieces) {
		if c := b.CellOf(p); c != rules.NoCell && b.Top(c) == p && g.at[p] == pt {
			return p, true
		}
	}
	return rules.NoPiece, false
}

// cellAt is the referee's cell of a point that is occupied or next to a piece in play.
func (g *Game) cellAt(pt Point) (rules.Cell, bool) {
	b := g.board
	for p := range rules.Piece(rules.NumPieces) {
		c := b.CellOf(p)
		if c == rules.NoCell {
			continue
		}
		if g.at[p] == pt {
			return c, true
		}
		for d, s := range step {
			if g.at[p].add(s) == pt {
				return c.Neighbor(rules.Direction(d)), true
			}
		}
	}
	return rules.NoCell, false
}

// pointOf is the point of cell c, which is occupied or next to a piece in play other than
// mover (the piece about to leave, whose point is where it was). The first piece goes to 0,0.
func (g *Game) pointOf(c rules.Cell, mover rules.Piece) Point {
	b := g.board
	if b.Height(c) > 0 {
		return g.at[b.Top(c)]
	}
	for d := range rules.Direction(rules.NumDirections) {
		n := c.Neighbor(d)
		if b.Height(n) == 0 {
			continue
		}
		q := b.Top(n)
		if q == mover {
			q = b.Below(mover)
		}
		if q != rules.NoPiece {
			return g.at[q].sub(step[d])
		}
	}
	return Point{}
}

// offer computes the turns of the position. The generator's moves are split: placements (the
// pieces' types by the cells), each piece's own movement, and what is left, the pillbugs'
// throws, each given to one thrower (a pillbug before a mosquito) so that every move is one
// turn.
func (g *Game) offer() *offer {
	if g.offered != nil {
		return g.offered
	}
	b := g.board
	moves := b.GenerateMoves(nil)
	o := &offer{byMove: make(map[rules.Move]Turn, len(moves)), byTurn: make(map[Turn]rules.Move, len(moves))}
	add := func(m rules.Move, t Turn) {
		o.byMove[m] = t
		o.byTurn[t] = m
	}
	if len(moves) == 1 && moves[0].IsPass() {
		o.possible.Forfeit = true
		add(rules.PassMove, Turn{TurnType: Forfeit})
	}
	var pl Placements
	for _, m := range moves {
		if m.IsPass() || !b.InHand(m.Piece()) {
			continue
		}
		name, dest := bugNames[m.Piece().Bug()], g.pointOf(m.To(), rules.NoPiece).String()
		if !slices.Contains(pl.PieceTypes, name) {
			pl.PieceTypes = append(pl.PieceTypes, name)
		}
		if !slices.Contains(pl.Positions, dest) {
			pl.Positions = append(pl.Positions, dest)
		}
		add(m, Turn{TurnType: Placement, PieceType: name, Destination: dest})
	}
	if len(pl.PieceTypes) > 0 {
		o.possible.Placement = &pl
	}
	base := rules.Piece(b.ToMove()) * rules.PiecesPerColor
	var buf []rules.Move
	for p := base; p < base+rules.PiecesPerColor; p++ {
		buf = b.PieceMoves(buf[:0], p)
		for _, m := range buf {
			src, dest := g.at[p].String(), g.pointOf(m.To(), p).String()
			if o.possible.Movement == nil {
				o.possible.Movement = map[string][]string{}
			}
			o.possible.Movement[src] = append(o.possible.Movement[src], dest)
			add(m, Turn{TurnType: Movement, Source: src, Destination: dest})
		}
	}
	for _, u := range throwers(b.ToMove()) {
		buf = b.AbilityMoves(buf[:0], u)
		for _, m := range buf {
			if _, ok := o.byMove[m]; ok {
				continue
			}
			x := m.Piece()
			user, src, dest := g.at[u].String(), g.at[x].String(), g.pointOf(m.To(), x).String()
			if o.possible.SpecialAbility == nil {
				o.possible.SpecialAbility = map[string]map[string][]string{}
			}
			if o.possible.SpecialAbility[user] == nil {
				o.possible.SpecialAbility[user] = map[string][]string{}
			}
			o.possible.SpecialAbility[user][src] = append(o.possible.SpecialAbility[user][src], dest)
			add(m, Turn{TurnType: SpecialAbility, AbilityUser: user, Source: src, Destination: dest})
		}
	}
	g.offered = o
	return o
}

// State is the game as the API's game_state. Its PossibleTurns are the Game's own, kept
// until the next move: read them, do not change them.
func (g *Game) State() *GameState {
	b := g.board
	t := b.GameType()
	st := &GameState{
		Board:      Board{Pieces: map[string][]Piece{}},
		Hands:      map[string]map[string]int{White: {}, Black: {}},
		PlayerTurn: colorName(b.ToMove()),
		TurnNumber: b.Ply(),
		GameOver:   b.State().IsOver(),
		IsDraw:     b.State() == rules.Draw,
		CreationParameters: CreationParameters{
			UseMosquito: t.Has(rules.Mosquito), UseLadybug: t.Has(rules.Ladybug), UsePillbug: t.Has(rules.Pillbug),
		},
		TurnHistory:   slices.Clone(g.history),
		PossibleTurns: g.offer().possible,
	}
	switch b.State() {
	case rules.WhiteWins:
		st.Winner = new(string)
		*st.Winner = White
	case rules.BlackWins:
		st.Winner = new(string)
		*st.Winner = Black
	}
	for p := range rules.Piece(rules.NumPieces) {
		if b.InHand(p) {
			st.Hands[colorName(p.Color())][bugNames[p.Bug()]]++
			continue
		}
		c := b.CellOf(p)
		if c == rules.NoCell || b.Top(c) != p {
			continue
		}
		var stack []Piece
		for q := p; q != rules.NoPiece; q = b.Below(q) {
			stack = append(stack, Piece{Color: colorName(q.Color()), Type: bugNames[q.Bug()]})
		}
		slices.Reverse(stack)
		st.Board.Pieces[g.at[p].String()] = stack
	}
	return st
}
