package hiveapi

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

// TestPointsOfMzingaDirections pins the orientation: the referee's neighbours of White's first
// piece, in Mzinga's notation, land on the API's neighbours of 0,0.
func TestPointsOfMzingaDirections(t *testing.T) {
	tests := []struct{ second, want string }{
		{`\wS1`, "-2,0"}, // Mzinga's north-west is the API's 12 o'clock
		{`wS1/`, "-1,1"},
		{`wS1-`, "1,1"},
		{`wS1\`, "2,0"},
		{`/wS1`, "1,-1"},
		{`-wS1`, "-1,-1"},
	}
	for _, tt := range tests {
		g, err := LoadGame("Base;InProgress;White[2];wS1;bS1 " + tt.second)
		if err != nil {
			t.Fatal(err)
		}
		st := g.State()
		want := []Turn{
			{TurnType: Placement, PieceType: "Spider", Destination: "0,0"},
			{TurnType: Placement, PieceType: "Spider", Destination: tt.want},
		}
		if !slices.Equal(st.TurnHistory, want) {
			t.Errorf("bS1 %s: history %+v, want %+v", tt.second, st.TurnHistory, want)
		}
		if got := st.Board.Pieces[tt.want]; len(got) != 1 || got[0] != (Piece{Black, "Spider"}) {
			t.Errorf("bS1 %s: board %v, want the black spider at %s", tt.second, st.Board.Pieces, tt.want)
		}
	}
}

// TestRoundTripRandomPositions is the conversion's acceptance test: over random positions of
// every game type, the game_state (through JSON) offers exactly the referee's legal moves, each
// as one turn; each offered turn converts back to its move; the board's stacks and hands are
// the referee's; adjacent cells are adjacent points; and the turn history replays, turn by
// turn through the offered turns, to the same game.
func TestRoundTripRandomPositions(t *testing.T) {
	n := 4000
	if testing.Short() || raceEnabled {
		n = 400
	}
	rng := rand.New(rand.NewPCG(16, 2))
	var positions, moves, abilities int
	byType := map[rules.GameType]int{}
	for _, gs := range rulestest.RandomPositions(t, rng, n, 0, 90) {
		g, err := LoadGame(gs)
		if err != nil {
			t.Fatalf("%s: %v", gs, err)
		}
		st := throughJSON(t, g.State())
		ref := rulestest.MustParseGame(t, gs)
		checkBoard(t, gs, g, st)

		want := ref.ValidMoves()
		var got []rules.Move
		for _, turn := range offeredTurns(st.PossibleTurns) {
			m, err := g.Move(turn)
			if err != nil {
				t.Fatalf("%s: offered turn %+v: %v", gs, turn, err)
			}
			if back, _ := g.TurnOf(m); back != turn {
				t.Fatalf("%s: turn %+v is move %s, whose turn is %+v", gs, turn, ref.MoveString(m), back)
			}
			if turn.TurnType == SpecialAbility {
				abilities++
			}
			got = append(got, m)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: the offered turns are moves\n%v\nwant the referee's\n%v", gs, moveStrings(ref, got), moveStrings(ref, want))
		}

		replay := NewGame(ref.GameType())
		for i, turn := range st.TurnHistory {
			m, err := replay.Move(turn)
			if err != nil {
				t.Fatalf("%s: history turn %d: %v", gs, i, err)
			}
			if err := replay.PlayMove(m); err != nil {
				t.Fatalf("%s: history turn %d: %v", gs, i, err)
			}
		}
		if replay.GameString() != ref.GameString() || len(st.TurnHistory) != st.TurnNumber {
			t.Fatalf("%s: the history (%d turns, turn_number %d) replays to %s", gs, len(st.TurnHistory), st.TurnNumber, replay.GameString())
		}
		if len(st.TurnHistory) > 0 && st.TurnHistory[0].Destination != "0,0" {
			t.Fatalf("%s: White's first piece went to %s", gs, st.TurnHistory[0].Destination)
		}
		positions++
		moves += len(want)
		byType[ref.GameType()]++
	}
	if len(byType) != len(rules.GameTypes) || abilities == 0 {
		t.Fatalf("positions by game type %v, %d special abilities: the test misses cases", byType, abilities)
	}
	t.Logf("%d positions (by game type: %v), %d legal moves round-tripped, %d of them special abilities", positions, byType, moves, abilities)
}

func throughJSON(t *testing.T, st *GameState) *GameState {
	t.Helper()
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back GameState
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// offeredTurns lists every turn possible_turns offers, one per choice a module can make.
func offeredTurns(p PossibleTurns) []Turn {
	var turns []Turn
	if p.Forfeit {
		turns = append(turns, Turn{TurnType: Forfeit})
	}
	if p.Placement != nil {
		for _, pt := range p.Placement.PieceTypes {
			for _, pos := range p.Placement.Positions {
				turns = append(turns, Turn{TurnType: Placement, PieceType: pt, Destination: pos})
			}
		}
	}
	for src, dests := range p.Movement {
		for _, d := range dests {
			turns = append(turns, Turn{TurnType: Movement, Source: src, Destination: d})
		}
	}
	for user, bySource := range p.SpecialAbility {
		for src, dests := range bySource {
			for _, d := range dests {
				turns = append(turns, Turn{TurnType: SpecialAbility, AbilityUser: user, Source: src, Destination: d})
			}
		}
	}
	return turns
}

// checkBoard compares the state's board and hands with the referee's, and checks that the
// points keep the referee's adjacency.
func checkBoard(t *testing.T, gs string, g *Game, st *GameState) {
	t.Helper()
	b := g.Referee().Board()
	inPlay := 0
	for p := range rules.Piece(rules.NumPieces) {
		c := b.CellOf(p)
		if c == rules.NoCell {
			continue
		}
		inPlay++
		pt := g.Point(p)
		if (pt.Row+pt.Col)%2 != 0 {
			t.Fatalf("%s: %s at %v, off the grid", gs, p, pt)
		}
		stack := st.Board.Pieces[pt.String()]
		if len(stack) != b.Height(c) || stack[b.Level(p)] != (Piece{colorName(p.Color()), bugNames[p.Bug()]}) {
			t.Fatalf("%s: %s at %v level %d, but the stack there is %v", gs, p, pt, b.Level(p), stack)
		}
		for d := range rules.Direction(rules.NumDirections) {
			if q := b.Top(c.Neighbor(d)); q != rules.NoPiece && g.Point(q) != pt.add(step[d]) {
				t.Fatalf("%s: %s at %v and its neighbour %s at %v are not neighbours", gs, p, pt, q, g.Point(q))
			}
		}
	}
	onBoard, inHand := 0, 0
	for _, stack := range st.Board.Pieces {
		onBoard += len(stack)
	}
	for color, hand := range st.Hands {
		for bug, n := range hand {
			if n <= 0 {
				t.Fatalf("%s: %s's hand lists %d %s", gs, color, n, bug)
			}
			inHand += n
		}
	}
	if onBoard != inPlay || inPlay+inHand != 2*(8+len(b.GameType().Expansions())+3) {
		t.Fatalf("%s: %d pieces on the board, %d in hands, the referee has %d in play", gs, onBoard, inHand, inPlay)
	}
}

func moveStrings(g *rules.Game, moves []rules.Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, g.MoveString(m))
	}
	return out
}

// TestForfeitIsAPass checks a pass both ways: when nothing else is legal, possible_turns offers
// Forfeit alone, the Forfeit turn is the referee's pass, and the history records it.
func TestForfeitIsAPass(t *testing.T) {
	// From nokamute's UHP tests: White, its pieces all placed and pinned, must pass.
	const before = `Base+P;InProgress;White[15];wP;bS1 wP-;wQ /wP;bQ bS1-;wB1 -wQ;bB1 bS1\;wG1 wB1\;bB1 wP\;wS1 wG1\;bQ bS1/;wB1 -wP;bB1 wQ;wG2 wS1\;bB1 wB1;wG3 wG2\;bA1 bQ\;wS2 wG3-;bA1 bS1\;wA1 wS2/;bA1 bQ\;wA2 wA1/;bA1 bS1\;wA3 wA2/;bA1 bQ\;wB2 wA3/;bA1 wB2/`
	g, err := LoadGame(before)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.State().PossibleTurns; !got.Forfeit || got.Placement != nil || got.Movement != nil || got.SpecialAbility != nil {
		t.Fatalf("possible_turns %+v, want Forfeit alone", got)
	}
	move, err := g.MoveString(Turn{TurnType: Forfeit})
	if err != nil || move != "pass" {
		t.Fatalf("Forfeit is %q (%v), want pass", move, err)
	}
	if err := g.Play(move); err != nil {
		t.Fatal(err)
	}
	st := g.State()
	if last := st.TurnHistory[len(st.TurnHistory)-1]; last != (Turn{TurnType: Forfeit}) || st.TurnNumber != len(st.TurnHistory) || st.PlayerTurn != Black {
		t.Fatalf("after the pass: last turn %+v, turn_number %d of %d turns, %s to play", last, st.TurnNumber, len(st.TurnHistory), st.PlayerTurn)
	}
	if _, err := g.Move(Turn{TurnType: Forfeit}); err == nil || !strings.Contains(err.Error(), "may not forfeit") {
		t.Fatalf("Black's Forfeit with turns to play: %v", err)
	}
}

// TestPillbugThrowIsItsSpecialAbility pins the split of a thrown piece's moves: the queen next
// to White's pillbug slides to two cells itself (Movement); the two cells only a throw reaches
// are a Special Ability of the pillbug.
func TestPillbugThrowIsItsSpecialAbility(t *testing.T) {
	g, err := LoadGame("Base+P;InProgress;White[3];wP;bP wP-;wQ -wP;bQ bP-")
	if err != nil {
		t.Fatal(err)
	}
	st := g.State()
	sortAll := func(m map[string][]string) map[string][]string {
		for _, v := range m {
			slices.Sort(v)
		}
		return m
	}
	if got, want := sortAll(st.PossibleTurns.Movement), map[string][]string{"-1,-1": {"-2,0", "1,-1"}}; !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Movement %v, want %v", got, want)
	}
	got := st.PossibleTurns.SpecialAbility
	if len(got) != 1 || !maps.EqualFunc(sortAll(got["0,0"]), map[string][]string{"-1,-1": {"-1,1", "2,0"}}, slices.Equal) {
		t.Errorf("Special Ability %v, want the pillbug at 0,0 to throw the queen at -1,-1 to -1,1 or 2,0", got)
	}
	move, err := g.MoveString(Turn{TurnType: SpecialAbility, AbilityUser: "0,0", Source: "-1,-1", Destination: "2,0"})
	if err != nil || move != `wQ wP\` {
		t.Fatalf(`the throw is %q (%v), want wQ wP\`, move, err)
	}
	_, err = g.Move(Turn{TurnType: Movement, Source: "-1,-1", Destination: "2,0"})
	if err == nil || !strings.Contains(err.Error(), `offered as {"turn_type":"Special Ability","ability_user":"0,0"`) {
		t.Fatalf("the throw as the queen's own Movement: %v", err)
	}
}
