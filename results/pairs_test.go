package results

import "testing"

func TestPairTracker(t *testing.T) {
	game := func(run string, index, pair int, white, black, result string) *Record {
		return &Record{Run: run, Game: index, Pair: pair, White: Player{Name: white}, Black: Player{Name: black}, Result: result}
	}
	tests := []struct {
		name     string
		perPair  int
		games    []*Record
		complete []bool // after each game
		pairs    int
	}{
		{"a pair in order", 2, []*Record{game("r", 0, 0, "a", "b", WhiteWins), game("r", 1, 0, "b", "a", Draw)}, []bool{false, true}, 1},
		{"a pair out of order", 2, []*Record{game("r", 1, 0, "b", "a", Draw), game("r", 0, 0, "a", "b", WhiteWins)}, []bool{false, true}, 1},
		{"colours not swapped", 2, []*Record{game("r", 0, 0, "a", "b", WhiteWins), game("r", 1, 0, "a", "b", Draw)}, []bool{false, false}, 0},
		{"other runs never pair", 2, []*Record{game("r", 0, 0, "a", "b", WhiteWins), game("s", 1, 0, "b", "a", Draw)}, []bool{false, false}, 0},
		{"single games", 1, []*Record{game("r", 0, 0, "a", "b", WhiteWins), game("r", 1, 1, "b", "a", Draw)}, []bool{true, true}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := NewPairTracker(tt.perPair)
			for i, r := range tt.games {
				pair, complete := tr.Add(r)
				if complete != tt.complete[i] {
					t.Fatalf("game %d: complete %v, want %v", i, complete, tt.complete[i])
				}
				if complete && (len(pair) != tt.perPair || pair[0].Game > pair[len(pair)-1].Game) {
					t.Fatalf("game %d: pair %+v, want %d games in schedule order", i, pair, tt.perPair)
				}
			}
			if tr.Complete() != tt.pairs {
				t.Errorf("%d pairs complete, want %d", tr.Complete(), tt.pairs)
			}
		})
	}
	// A completed pair's scores are each player's own.
	tr := NewPairTracker(2)
	tr.Add(game("r", 0, 0, "a", "b", WhiteWins))
	pair, _ := tr.Add(game("r", 1, 0, "b", "a", BlackWins))
	if pair[0].ScoreOf("a") != 1 || pair[1].ScoreOf("a") != 1 || pair[1].ScoreOf("b") != 0 {
		t.Errorf("scores of %+v", pair)
	}
}
