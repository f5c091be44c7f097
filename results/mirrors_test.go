package results

import "testing"

func TestMirrors(t *testing.T) {
	game := func(game, pair int, white, black, result string, moves ...string) Record {
		r := Record{Run: "r", Game: game, Pair: pair, White: Player{Name: white}, Black: Player{Name: black}, Opening: "Base+MLP;InProgress;White[2];wG1;bG1 wG1-", Result: result}
		for _, m := range moves {
			r.Moves = append(r.Moves, Move{Move: m})
		}
		return r
	}
	tests := []struct {
		name            string
		recs            []Record
		mirrors, paired int
	}{
		{"mirror", []Record{game(0, 0, "a", "b", "WhiteWins", "wQ -wG1", "bQ bG1-"), game(1, 0, "b", "a", "WhiteWins", "wQ -wG1", "bQ bG1-")}, 1, 1},
		{"other moves", []Record{game(0, 0, "a", "b", "WhiteWins", "wQ -wG1"), game(1, 0, "b", "a", "WhiteWins", "wA1 -wG1")}, 0, 1},
		{"other result", []Record{game(0, 0, "a", "b", "WhiteWins", "wQ -wG1"), game(1, 0, "b", "a", "Draw", "wQ -wG1")}, 0, 1},
		{"half a pair", []Record{game(0, 0, "a", "b", "WhiteWins", "wQ -wG1")}, 0, 0},
		{"a game twice", []Record{game(0, 0, "a", "b", "WhiteWins", "wQ -wG1"), game(0, 0, "a", "b", "WhiteWins", "wQ -wG1")}, 0, 0},
		{"two pairs, one mirror", []Record{
			game(0, 0, "a", "b", "Draw", "wQ -wG1"), game(1, 0, "b", "a", "Draw", "wQ -wG1"),
			game(2, 1, "a", "b", "BlackWins", "wQ -wG1"), game(3, 1, "b", "a", "WhiteWins", "wQ -wG1")}, 1, 2},
	}
	for _, tc := range tests {
		if m, p := Mirrors(tc.recs); m != tc.mirrors || p != tc.paired {
			t.Errorf("%s: Mirrors = %d of %d pairs, want %d of %d", tc.name, m, p, tc.mirrors, tc.paired)
		}
	}
}
