package rules_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/rules"
	"hivearbiter/rules/rulestest"
)

func sortedSet(moves []string) []string {
	out := slices.Clone(moves)
	slices.Sort(out)
	return slices.Compact(out)
}

func diffSets(want, got []string) (missing, extra []string) {
	for _, m := range want {
		if !slices.Contains(got, m) {
			missing = append(missing, m)
		}
	}
	for _, m := range got {
		if !slices.Contains(want, m) {
			extra = append(extra, m)
		}
	}
	return missing, extra
}

func TestPerftFromStartPositions(t *testing.T) {
	maxDepth := 6
	if testing.Short() {
		maxDepth = 5
	}
	for _, gt := range rules.GameTypes {
		name := "Board_" + strings.ReplaceAll(gt.String(), "+", "") + "_PerftTest.csv"
		t.Run(gt.String(), func(t *testing.T) {
			t.Parallel()
			checked := 0
			for _, l := range rulestest.ReadCorpus(t, filepath.Join("testdata", name)) {
				depth, _ := strconv.Atoi(l.Fields[1])
				want, _ := strconv.ParseUint(l.Fields[2], 10, 64)
				if depth > maxDepth {
					continue
				}
				b := rulestest.MustParseGame(t, l.Fields[0]).Board()
				if got := b.Perft(depth); got != want {
					t.Errorf("%s perft(%d) = %d, want %d", l.Fields[0], depth, got, want)
				}
				checked++
			}
			if checked != maxDepth+1 {
				t.Errorf("checked %d depths, want %d", checked, maxDepth+1)
			}
		})
	}
}

// TestPerftMidGame checks mid-game positions (gates, pillbug, mosquito, ladybug) whose perft
// counts were computed with MzingaCpp v0.9.8 for this project and are published nowhere else.
func TestPerftMidGame(t *testing.T) {
	tests := []struct {
		name, gameString string
		want             []uint64
	}{
		{"beetle_gate MLP", `Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ`, []uint64{1, 36, 965, 44307, 1749084}},
		{"pillbug gate", `Base+P;InProgress;White[9];wP;bB1 wP-;wQ /wP;bQ bB1/;wQ wP\;bQ \bB1;wQ /wP;bA1 bQ/;wQ wP\;bA1 -bQ;wQ /wP;bB2 \bQ;wQ wP\;bB2 bQ;bA1 -wP;bB1 wQ`, []uint64{1, 2, 88, 276, 13622}},
		{"mosquito moves", `Base+M;InProgress;White[13];wM;bG1 wM-;wS1 /wM;bQ bG1-;wQ /wS1;bB1 bG1\;wB1 /wQ;bB1 wM\;wS2 /wB1;bA1 bQ-;wB2 wS2\;bA1 bQ\;wG1 wB2-;bA1 bQ-;wG2 wG1/;bA1 bQ\;wG3 wG2/;bA1 bQ-;wA1 wG3-;bA1 bQ/;wA2 wA1-;bA1 bQ-;wA3 wA2\;bA1 /wA3`, []uint64{1, 10, 660, 12473}},
		{"ladybug gate", `Base+L;InProgress;White[14];wL;bG1 wL/;wQ -wL;bQ bG1/;wQ -bG1;bG2 bQ-;wB1 \wQ;bB1 bG2-;wS1 \wB1;bB1 bG2;wS2 \wS1;bG3 \bQ;wG1 wS2/;bB2 bG3/;wB2 wG1/;bB2 bG3;wA1 wB2-;bA1 bB1-;wA2 wA1-;bA1 bB1\;wG2 wA2-;bA1 bB1-;wG3 wG2\;bA1 bB1\;wA3 wG3\;bA1 wA3\`, []uint64{1, 7, 475, 15989}},
		{"beetle gate", `Base;InProgress;White[12];wB1;bS1 wB1-;wQ \wB1;bQ bS1/;wB2 -wQ;bB1 bQ\;wS1 /wB2;bB1 bS1;wG1 /wS1;bQ \bB1;wG2 wG1\;bB2 bQ/;wG3 wG2\;bB2 \bQ;wA1 wG3-;bB2 wQ;wA2 wA1-;bA1 bQ/;wS2 wA2-;bA1 bB1/;wA3 wS2/;bA1 wA3/`, []uint64{1, 4, 202, 5249}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := rulestest.MustParseGame(t, tc.gameString).Board()
			for depth, want := range tc.want {
				if got := b.Perft(depth); got != want {
					t.Errorf("perft(%d) = %d, want %d", depth, got, want)
				}
			}
		})
	}
}

func TestValidMovesFromRealGames(t *testing.T) {
	lines := rulestest.ReadCorpus(t, filepath.Join("testdata", "Board_ValidMovesFromRealGamesTest.csv"))
	if len(lines) != 195 {
		t.Fatalf("%d positions, want 195", len(lines))
	}
	for _, l := range lines {
		g := rulestest.MustParseGame(t, l.Fields[0])
		want := sortedSet(strings.Split(l.Fields[1], ";"))
		got := g.ValidMoveStrings()
		if len(got) != len(sortedSet(got)) {
			t.Errorf("line %d: duplicate MoveStrings in %v", l.Line, got)
		}
		if missing, extra := diffSets(want, sortedSet(got)); missing != nil || extra != nil {
			t.Errorf("line %d (%s): missing %v, extra %v", l.Line, l.Fields[0], missing, extra)
		}
	}
}

// movesOf returns the MoveStrings of the valid moves of the given pieces.
func movesOf(g *rules.Game, pieces []rules.Piece) []string {
	var out []string
	for _, m := range g.ValidMoves() {
		if m == rules.PassMove || slices.Contains(pieces, m.Piece()) {
			out = append(out, g.MoveString(m))
		}
	}
	return sortedSet(out)
}

// piecesIn returns the moving pieces named by a list of MoveStrings.
func piecesIn(t *testing.T, moves []string) []rules.Piece {
	var out []rules.Piece
	for _, m := range moves {
		if m == "pass" {
			continue
		}
		p, err := rules.ParsePiece(strings.Fields(m)[0])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func TestValidMovesPerBug(t *testing.T) {
	for _, bug := range []string{"Beetle", "Grasshopper", "Ladybug", "Mosquito", "Pillbug", "QueenBee", "SoldierAnt", "Spider"} {
		t.Run(bug, func(t *testing.T) {
			for _, l := range rulestest.ReadCorpus(t, filepath.Join("testdata", "Board_ValidMovesFor"+bug+"Test.csv")) {
				g := rulestest.MustParseGame(t, l.Fields[0])
				want := sortedSet(strings.Split(l.Fields[1], ";"))
				got := movesOf(g, piecesIn(t, want))
				if missing, extra := diffSets(want, got); missing != nil || extra != nil {
					t.Errorf("line %d (%s): missing %v, extra %v", l.Line, l.Section, missing, extra)
				}
			}
		})
	}
}

func TestInvalidMovesByRule(t *testing.T) {
	lines := rulestest.ReadCorpus(t, filepath.Join("testdata", "Board_InvalidMovesByRuleTest.csv"))
	for _, l := range lines {
		g := rulestest.MustParseGame(t, l.Fields[0])
		err := g.Play(l.Fields[1])
		ime, ok := err.(*rules.InvalidMoveError)
		if !ok {
			t.Errorf("line %d: %q after %s: got %v, want invalid move", l.Line, l.Fields[1], l.Fields[0], err)
			continue
		}
		if ime.Reason != l.Section {
			t.Errorf("line %d: %q: reason %q, want %q", l.Line, l.Fields[1], ime.Reason, l.Section)
		}
	}
}

// TestNokamuteUHPCases runs nokamute's data/uhp_tests.txt: a position and the expected moves
// of some pieces, or an end state. Its threefold-repetition case is InProgress here: Mzinga's
// rules have no repetition draw.
func TestNokamuteUHPCases(t *testing.T) {
	data, err := os.ReadFile("testdata/nokamute_uhp_tests.txt")
	if err != nil {
		t.Fatal(err)
	}
	var name string
	var block []string
	cases := 0
	run := func() {
		if name == "" || len(block) == 0 {
			return
		}
		cases++
		g := rulestest.MustParseGame(t, block[0])
		if len(block) == 1 {
			want, _ := rules.ParseGameState(strings.Split(block[0], ";")[1])
			if name == "Draw by threefold repetition" {
				want = rules.InProgress
				if g.Repetitions() != 3 {
					t.Errorf("%s: repetitions %d, want 3", name, g.Repetitions())
				}
			}
			if g.State() != want {
				t.Errorf("%s: state %v, want %v", name, g.State(), want)
			}
			return
		}
		want := sortedSet(strings.Split(block[1], ";"))
		got := movesOf(g, piecesIn(t, want))
		if missing, extra := diffSets(want, got); missing != nil || extra != nil {
			t.Errorf("%s: missing %v, extra %v", name, missing, extra)
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"):
			run()
			name, block = strings.TrimSpace(strings.TrimPrefix(line, "#")), nil
		case line != "":
			block = append(block, line)
		}
	}
	run()
	if cases < 20 {
		t.Errorf("ran %d cases, want the whole file", cases)
	}
}
