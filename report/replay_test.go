package report

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

// stacks is a position as the page sees it: the pieces of each cell, bottom first.
type stacks map[rules.Cell][]rules.Piece

// refereeStacks reads a position from the referee's board.
func refereeStacks(b *rules.Board) stacks {
	s := stacks{}
	for c := range rules.Cell(rules.NumCells) {
		for p := b.Top(c); p != rules.NoPiece; p = b.Below(p) {
			s[c] = append([]rules.Piece{p}, s[c]...)
		}
		if len(s[c]) != b.Height(c) {
			panic(fmt.Sprintf("cell %d: height %d, %d pieces", c, b.Height(c), len(s[c])))
		}
	}
	return s
}

// axial is a cell in unbounded axial coordinates, as the page places pieces.
type axial struct{ Q, R int }

// directionSteps are the axial steps of rules' six directions, in rules' order.
var directionSteps = [rules.NumDirections]axial{{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}}

// wrap returns the referee's cell of an unwrapped one.
func wrap(a axial) rules.Cell { return rules.Cell(a.Q&31 | (a.R&31)<<5) }

// pageStacks applies the first plies of deltas as the page's script does, and returns the
// position on the referee's torus.
func pageStacks(t *testing.T, deltas string, plies int) stacks {
	t.Helper()
	where := map[rules.Piece]axial{}
	cells := map[axial][]rules.Piece{}
	digit := func(c byte) int { return strings.IndexByte(deltaDigits, c) }
	for i := range plies {
		d := deltas[i*deltaWidth : (i+1)*deltaWidth]
		if d == passDelta {
			continue
		}
		p := rules.Piece(digit(d[0]))
		var at axial
		if d[1] != noReference {
			ref, ok := where[rules.Piece(digit(d[1]))]
			if !ok {
				t.Fatalf("ply %d: reference %c is not on the board", i+1, d[1])
			}
			at = ref
			if dir := digit(d[2]); dir != onTop {
				at = axial{ref.Q - directionSteps[dir].Q, ref.R - directionSteps[dir].R}
			}
		}
		if from, ok := where[p]; ok {
			st := cells[from]
			if st[len(st)-1] != p {
				t.Fatalf("ply %d moves %v from under %v", i+1, p, st[len(st)-1])
			}
			cells[from] = st[:len(st)-1]
			if len(cells[from]) == 0 {
				delete(cells, from)
			}
		}
		where[p] = at
		cells[at] = append(cells[at], p)
	}
	s := stacks{}
	for a, st := range cells {
		if _, dup := s[wrap(a)]; dup {
			t.Fatalf("two stacks on cell %d of the torus", wrap(a))
		}
		s[wrap(a)] = st
	}
	return s
}

func equalStacks(a, b stacks) bool {
	return maps.EqualFunc(a, b, func(x, y []rules.Piece) bool { return slices.Equal(x, y) })
}

// TestReplayMatchesReferee checks the page's position against the referee's after every ply of
// long random games, which climb, throw, pass and drift across the torus's seam.
func TestReplayMatchesReferee(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 60
	if testing.Short() {
		games = 10
	}
	for i := range games {
		gt := rules.GameTypes[i%len(rules.GameTypes)]
		whole := rulestest.RandomGame(t, rng, gt, 400)
		moves := whole.Moves()
		r := replayGame(gt.String(), moves)
		if r.err != nil {
			t.Fatalf("game %d: %v", i, r.err)
		}
		if r.plies != len(moves) {
			t.Fatalf("game %d: %d plies replayed of %d", i, r.plies, len(moves))
		}
		deltas := r.deltas.String()
		g := rules.NewGame(gt)
		for ply := 0; ply <= len(moves); ply++ {
			if ply > 0 {
				if err := g.Play(moves[ply-1]); err != nil {
					t.Fatal(err)
				}
			}
			if want, got := refereeStacks(g.Board()), pageStacks(t, deltas, ply); !equalStacks(want, got) {
				t.Fatalf("game %d (%s) ply %d: page %v, referee %v", i, whole.GameString(), ply, got, want)
			}
		}
	}
}

func TestReplayKeepsPliesBeforeABadOne(t *testing.T) {
	r := replayGame("Base;InProgress;Black[1];wS1", []string{"bS1 wS1-", "wQ bS1-"})
	if r.err == nil || !strings.Contains(r.err.Error(), "ply 3 (wQ bS1-)") {
		t.Fatalf("err = %v, want one naming ply 3", r.err)
	}
	if r.plies != 2 || r.deltas.Len() != 2*deltaWidth {
		t.Fatalf("kept %d plies (%q), want the two good plies", r.plies, r.deltas.String())
	}
}

func TestDelta(t *testing.T) {
	for _, tc := range []struct{ move, want string }{
		{"wS1", "1.."}, {"pass", "..."}, {"bB1 wQ", "H06"},
		{`wA1 bS1\`, "8F0"}, {"wA1 /bS1", "8F1"}, {"wA1 -bS1", "8F2"},
		{`wA1 \bS1`, "8F3"}, {"wA1 bS1/", "8F4"}, {"wA1 bS1-", "8F5"},
	} {
		if got, err := delta(tc.move); err != nil || got != tc.want {
			t.Errorf("delta(%q) = %q, %v; want %q", tc.move, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "xQ", "wA1 -", "wA1 -zz"} {
		if got, err := delta(bad); err == nil {
			t.Errorf("delta(%q) = %q, want an error", bad, got)
		}
	}
}
