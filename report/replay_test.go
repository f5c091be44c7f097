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

// wrap returns the referee's cell of an unwrapped one.
func wrap(a axial) rules.Cell { return rules.Cell(a.Q&31 | (a.R&31)<<5) }

// decodeDelta reads one ply of the page's deltas, as the page's script does.
func decodeDelta(d string) (p rules.Piece, at axial, pass bool) {
	if d == passDelta {
		return rules.NoPiece, axial{}, true
	}
	digit := func(i int) int { return strings.IndexByte(deltaDigits, d[i]) }
	return rules.Piece(digit(0)), axial{digit(1)<<6 | digit(2) - coordBias, digit(3)<<6 | digit(4) - coordBias}, false
}

// pageStacks applies the first plies of deltas, as the page's script does, and returns the
// position on the referee's torus.
func pageStacks(t *testing.T, deltas string, plies int) stacks {
	t.Helper()
	where := map[rules.Piece]axial{}
	cells := map[axial][]rules.Piece{}
	for i := range plies {
		p, at, pass := decodeDelta(deltas[i*deltaWidth : (i+1)*deltaWidth])
		if pass {
			continue
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
	if len(r.moves) != 2 || r.deltas.Len() != 2*deltaWidth {
		t.Fatalf("kept %v (%q), want the two good plies", r.moves, r.deltas.String())
	}
}
