package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A symmetry of the grid as the test sees it: a permutation of the six directions, rotation
// by k sixths of a turn, after a mirror image in the north-south axis when mirror is set.
// It is written apart from the matrices that Canonical uses, so the two check each other.
type gridSymmetry struct {
	turn   int
	mirror bool
}

func (s gridSymmetry) direction(d Direction) Direction {
	if s.mirror { // NW<->NE, E<->W, SE<->SW
		d = (7 - d) % NumDirections
	}
	return (d + Direction(s.turn)) % NumDirections
}

func allSymmetries() []gridSymmetry {
	var out []gridSymmetry
	for k := range 6 {
		out = append(out, gridSymmetry{k, false}, gridSymmetry{k, true})
	}
	return out
}

// cell maps a cell: (q, r) is q steps east and r steps south-east of the origin, so its image
// is q steps in the image of east and r in the image of south-east, then the shift.
func (s gridSymmetry) cell(c, shift Cell) Cell {
	q, r := int(c&boardMask), int(c>>boardBits)
	out := shift
	for range q {
		out = out.Neighbor(s.direction(East))
	}
	for range r {
		out = out.Neighbor(s.direction(SouthEast))
	}
	return out
}

// transformed returns the board moved by the symmetry and the shift, with the pieces of each
// bug and colour on the board given each other's numbers as relabel says.
func transformed(b *Board, s gridSymmetry, shift Cell, relabel [NumPieces]Piece) *Board {
	t := b.Clone()
	for c := range t.top {
		t.top[c], t.height[c] = NoPiece, 0
	}
	mapPiece := func(p Piece) Piece {
		if p == NoPiece {
			return p
		}
		return relabel[p]
	}
	for p := range Piece(NumPieces) {
		q := relabel[p]
		t.cell[q], t.level[q], t.below[q] = NoCell, 0, NoPiece
		if c := b.cell[p]; c != NoCell {
			t.cell[q], t.level[q], t.below[q] = s.cell(c, shift), b.level[p], mapPiece(b.below[p])
		}
	}
	for c := range Cell(NumCells) {
		if b.height[c] != 0 {
			nc := s.cell(c, shift)
			t.top[nc], t.height[nc] = mapPiece(b.top[c]), b.height[c]
		}
	}
	t.last = mapPiece(b.last)
	t.hash = t.computeHash()
	return t
}

// randomRelabel swaps the numbers of pieces of one bug and colour that are all on the board.
func randomRelabel(b *Board, rng *rand.Rand) [NumPieces]Piece {
	var out [NumPieces]Piece
	for p := range out {
		out[p] = Piece(p)
	}
	for p := range Piece(NumPieces) {
		for q := p + 1; q < NumPieces && q.Bug() == p.Bug() && q.Color() == p.Color(); q++ {
			if b.cell[p] != NoCell && b.cell[q] != NoCell && rng.IntN(2) == 0 {
				out[p], out[q] = out[q], out[p]
			}
		}
	}
	return out
}

func TestCanonicalKeyIsTheSameUnderEverySymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	for _, gt := range GameTypes {
		for range 40 {
			g := randomGame(t, rng, gt, rng.IntN(40))
			b := g.board
			want := b.Canonical()
			wantMoves := len(b.GenerateMoves(nil))
			for _, s := range allSymmetries() {
				shift := Cell(rng.IntN(NumCells))
				tb := transformed(b, s, shift, randomRelabel(b, rng))
				// The image is a real position of the same game: as many moves, as many
				// positions two plies on.
				if n := len(tb.GenerateMoves(nil)); n != wantMoves {
					t.Fatalf("%s under %+v: %d moves, want %d", g.GameString(), s, n, wantMoves)
				}
				if got := tb.Canonical(); got != want || got.Key() != want.Key() {
					t.Fatalf("%s under %+v shifted by %d: canonical form differs", g.GameString(), s, shift)
				}
			}
		}
	}
}

// canonicalClasses plays every line of depth plies from the start and counts the distinct
// canonical forms and keys among the positions reached.
func canonicalClasses(gt GameType, depth int) (forms, keys int) {
	formSet := map[Canonical]bool{}
	keySet := map[uint64]bool{}
	var walk func(b *Board, d int)
	walk = func(b *Board, d int) {
		if d == 0 {
			c := b.Canonical()
			formSet[c] = true
			keySet[c.Key()] = true
			return
		}
		for _, m := range b.GenerateMoves(nil) {
			b.Apply(m)
			walk(b, d-1)
			b.Undo()
		}
	}
	walk(NewBoard(gt), depth)
	return len(formSet), len(keySet)
}

// TestCanonicalKeyCountsPositions counts the positions the first plies reach, up to symmetry,
// against a count by hand. Ply 1: one position per bug white may place (not the queen).
// Ply 2: black's first piece on any of the six cells is one position, so white's bugs times
// black's. Ply 3: white's second piece goes to one of the three cells next to its own and not
// next to black's: straight across from black's piece, or one of two cells that mirror each
// other in the line through both pieces: two positions per bug white may place. White may now
// place its queen, and any bug but one it has a single piece of and placed already.
func TestCanonicalKeyCountsPositions(t *testing.T) {
	for _, tc := range []struct {
		gt   GameType
		want []int
	}{
		{Base, []int{1, 4, 4 * 4, 4 * 4 * 5 * 2}},
		{BaseMLP, []int{1, 7, 7 * 7, (4*7*8 + 3*7*7) * 2}},
	} {
		for depth, want := range tc.want {
			forms, keys := canonicalClasses(tc.gt, depth)
			if forms != want || keys != want {
				t.Errorf("%s after %d plies: %d canonical forms, %d keys; want %d", tc.gt, depth, forms, keys, want)
			}
		}
	}
}

// bruteForceForm is a canonical form written the slow way, from the test's own symmetries:
// for each, the stacks as text ("q,r:bugs" from the bottom, colour first), with the least row
// and column made 0, sorted and joined; the least of the twelve. It serves boards near the
// origin, with no last-moved piece that matters (the first plies).
func bruteForceForm(b *Board) string {
	best := ""
	for i, s := range allSymmetries() {
		var stacks []string
		type stack struct {
			q, r int
			bugs string
		}
		var all []stack
		minQ, minR := 1<<30, 1<<30
		for c := range Cell(NumCells) {
			if b.height[c] == 0 {
				continue
			}
			t := s.cell(c, Origin)
			q, r := (int(t&boardMask)+16)&boardMask-16, (int(t>>boardBits)+16)&boardMask-16
			bugs := ""
			for p := b.top[c]; p != NoPiece; p = b.below[p] {
				bugs = p.Color().String()[:1] + p.Bug().String() + " " + bugs
			}
			all = append(all, stack{q, r, bugs})
			minQ, minR = min(minQ, q), min(minR, r)
		}
		for _, st := range all {
			stacks = append(stacks, fmt.Sprintf("%d,%d:%s", st.q-minQ, st.r-minR, st.bugs))
		}
		slices.Sort(stacks)
		if form := strings.Join(stacks, "|"); i == 0 || form < best {
			best = form
		}
	}
	return best
}

// TestCanonicalKeyPartitionsLikeBruteForce groups every position of the first plies by key and
// by bruteForceForm: the groups must be the same, so that two positions share a key exactly
// when they are one position up to symmetry.
func TestCanonicalKeyPartitionsLikeBruteForce(t *testing.T) {
	for _, tc := range []struct {
		gt    GameType
		depth int
		want  int
	}{{Base, 4, 2000}, {BaseMLP, 3, 742}, {BaseP, 3, (4*5*6 + 1*5*5) * 2}} { // Base+P: counted as in TestCanonicalKeyCountsPositions
		byKey, byForm := map[uint64]string{}, map[string]uint64{}
		var walk func(b *Board, d int)
		walk = func(b *Board, d int) {
			if d == 0 {
				key, form := b.CanonicalKey(), bruteForceForm(b)
				if f, ok := byKey[key]; ok && f != form {
					t.Fatalf("%s: one key for %q and %q", tc.gt, f, form)
				}
				if k, ok := byForm[form]; ok && k != key {
					t.Fatalf("%s: two keys for %q", tc.gt, form)
				}
				byKey[key], byForm[form] = form, key
				return
			}
			for _, m := range b.GenerateMoves(nil) {
				b.Apply(m)
				walk(b, d-1)
				b.Undo()
			}
		}
		walk(NewBoard(tc.gt), tc.depth)
		if len(byKey) != tc.want {
			t.Errorf("%s after %d plies: %d positions up to symmetry, want %d", tc.gt, tc.depth, len(byKey), tc.want)
		}
	}
}

// TestCanonicalKeySeparatesWhatPlayDistinguishes checks the parts of the key that are not the
// pieces' places, and a few places: mirror images are one position, a different bug, game
// type or side to move is another.
func TestCanonicalKeySeparatesWhatPlayDistinguishes(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"mirror image", "Base;InProgress;White[2];wS1;bS1 wS1-", "Base;InProgress;White[2];wS1;bS1 -wS1", true},
		{"rotation", "Base;InProgress;White[2];wS1;bS1 wS1/", `Base;InProgress;White[2];wS1;bS1 \wS1`, true},
		{"game type", "Base;InProgress;Black[1];wG1", "Base+M;InProgress;Black[1];wG1", false},
		{"bug", "Base;InProgress;Black[1];wG1", "Base;InProgress;Black[1];wS1", false},
		{"colour", "Base;InProgress;White[2];wS1;bS1 wS1-", "Base;InProgress;White[2];wG1;bS1 wG1-", false},
		{"shape", "Base;InProgress;Black[2];wS1;bS1 wS1-;wG1 -wS1", "Base;InProgress;Black[2];wS1;bS1 wS1-;wG1 /wS1", false},
		{"climbed or not", "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wB1 -wQ;bB1 bS1\\;wG1 -wB1;bB1 bS1",
			"Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wB1 -wQ;bB1 bS1\\;wG1 -wB1;bB1 bS1-", false},
	} {
		a, b := mustGame(t, tc.a), mustGame(t, tc.b)
		if same := a.CanonicalKey() == b.CanonicalKey(); same != tc.same {
			t.Errorf("%s: same key %v, want %v", tc.name, same, tc.same)
		}
	}
}

// TestCanonicalKeyOfTurnAndLastMoved changes what the board holds besides the pieces: the
// ply counts while a queen is in hand, and the last-moved piece counts when the side to
// move's pillbug or mosquito could throw it, and nowhere else.
func TestCanonicalKeyOfTurnAndLastMoved(t *testing.T) {
	for _, tc := range []struct {
		name   string
		gs     string
		change func(b *Board)
		same   bool
	}{
		{"two plies on, a queen in hand", "Base;InProgress;White[2];wS1;bS1 wS1-", func(b *Board) { b.ply += 2 }, false},
		{"two plies on, queens in play", "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
			func(b *Board) { b.ply += 2 }, true},
		{"own piece moved last, no pillbug", "Base+M;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wM -wQ;bG1 bQ-",
			func(b *Board) { b.last = Queen(White) }, true},
		{"last moved far from the pillbug", "Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1-;wS1 -wQ;bG1 bQ-",
			func(b *Board) { b.last = NoPiece }, true},
		{"last moved next to the pillbug", "Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1-;wS1 -wQ;bG1 bQ-",
			func(b *Board) { b.last = b.top[b.cell[Queen(Black)].Neighbor(West)] }, false},
		{"own piece moved last (thrown)", "Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1-;wS1 -wQ;bG1 bQ-",
			func(b *Board) { b.last = Queen(White) }, false},
		{"own piece moved last, queen in hand", "Base+P;InProgress;White[3];wP;bS1 wP-;wS1 -wP;bQ bS1-",
			func(b *Board) { b.last = b.top[Origin] }, true},
		{"stack order", "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wB1 -wQ;bB1 bS1\\;wG1 -wB1;bB1 bS1",
			swapTopTwo, false},
	} {
		g := mustGame(t, tc.gs)
		b := g.Board()
		tc.change(b)
		if same := b.CanonicalKey() == g.CanonicalKey(); same != tc.same {
			t.Errorf("%s: same key %v, want %v", tc.name, same, tc.same)
		}
	}
}

// swapTopTwo turns the first stack of two upside down.
func swapTopTwo(b *Board) {
	for c := range Cell(NumCells) {
		if b.height[c] == 2 {
			top, under := b.top[c], b.below[b.top[c]]
			b.top[c] = under
			b.below[under], b.below[top] = top, NoPiece
			b.level[under], b.level[top] = 1, 0
			return
		}
	}
	panic("no stack of two")
}

// separatorFor writes a MoveString's reference part for the direction from the reference piece to
// the destination.
var separatorFor = [NumDirections]func(ref string) string{
	NorthWest: func(r string) string { return `\` + r },
	NorthEast: func(r string) string { return r + "/" },
	East:      func(r string) string { return r + "-" },
	SouthEast: func(r string) string { return r + `\` },
	SouthWest: func(r string) string { return "/" + r },
	West:      func(r string) string { return "-" + r },
}

// transformGameString rewrites every MoveString of a GameString with its directions mapped by
// the symmetry: the same game, played on a rotated or mirrored board.
func transformGameString(gs string, s gridSymmetry) (string, bool) {
	fields := strings.Split(gs, ";")
	for i := 3; i < len(fields); i++ {
		m, err := parseMoveText(fields[i])
		if err != nil {
			return "", false
		}
		if !m.pass && m.ref != NoPiece && !m.above {
			fields[i] = m.piece.String() + " " + separatorFor[s.direction(m.dir)](m.ref.String())
		}
	}
	return strings.Join(fields, ";"), true
}

func FuzzCanonicalKeyOfTransformedGameString(f *testing.F) {
	for _, s := range []string{
		"Base;InProgress;White[3];wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\",
		"Base+P;InProgress;White[4];wP;bQ wP-;wQ -wP;bA1 bQ-;wS1 -wQ;bA1 \\wP",
		"Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ",
	} {
		f.Add(s)
	}
	rng := rand.New(rand.NewPCG(27, 2))
	for range 20 {
		f.Add(randomGame(f, rng, GameTypes[rng.IntN(len(GameTypes))], 6+rng.IntN(30)).GameString())
	}
	f.Fuzz(func(t *testing.T, gs string) {
		g, err := ParseGameString(gs)
		if err != nil || !strings.Contains(gs, ";") {
			return
		}
		want := g.CanonicalKey()
		for _, s := range allSymmetries() {
			other, ok := transformGameString(g.GameString(), s)
			if !ok {
				t.Fatalf("%q: its own moves do not parse", g.GameString())
			}
			h, err := ParseGameString(other)
			if err != nil {
				t.Fatalf("%q under %+v is %q, which does not load: %v", g.GameString(), s, other, err)
			}
			if h.CanonicalKey() != want {
				t.Fatalf("%q under %+v is %q, with another key", g.GameString(), s, other)
			}
		}
	})
}

func BenchmarkCanonicalKey(b *testing.B) {
	g := mustGame(b, "Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ")
	rng := rand.New(rand.NewPCG(27, 3))
	mid := randomGame(b, rng, BaseMLP, 40).board
	for _, tc := range []struct {
		name  string
		board *Board
	}{{"beetle_gate", g.board}, {"40plies", mid}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tc.board.CanonicalKey()
			}
		})
	}
}
