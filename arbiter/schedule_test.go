package arbiter

import (
	"testing"

	"hivearbiter/openings"
)

func TestScheduleFormats(t *testing.T) {
	book := &openings.Book{} // the empty board of Base
	tests := []struct {
		format     Format
		engines    int
		seeds      int
		rounds     int
		games      int
		wantLen    int
		wantPlayed map[[2]int]int // unordered pairing -> games
	}{
		{Match, 2, 0, 3, 2, 6, map[[2]int]int{{0, 1}: 6}},
		{Match, 2, 0, 4, 1, 4, map[[2]int]int{{0, 1}: 4}},
		{Gauntlet, 4, 1, 2, 2, 12, map[[2]int]int{{0, 1}: 4, {0, 2}: 4, {0, 3}: 4}},
		{Gauntlet, 4, 2, 1, 2, 8, map[[2]int]int{{0, 2}: 2, {1, 2}: 2, {0, 3}: 2, {1, 3}: 2}},
		{RoundRobin, 3, 0, 2, 2, 12, map[[2]int]int{{0, 1}: 4, {0, 2}: 4, {1, 2}: 4}},
	}
	for _, tc := range tests {
		s, err := NewSchedule(tc.format, tc.engines, tc.seeds, tc.rounds, tc.games, book)
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if s.Len() != tc.wantLen {
			t.Errorf("%s: %d games, want %d", tc.format, s.Len(), tc.wantLen)
		}
		played := map[[2]int]int{}
		whites := map[int]int{}
		for i := 0; i < s.Len(); i++ {
			g := s.Game(i)
			if g.Index != i || g.White == g.Black {
				t.Fatalf("%s: game %d = %+v", tc.format, i, g)
			}
			k := [2]int{min(g.White, g.Black), max(g.White, g.Black)}
			played[k]++
			whites[g.White]++
			if tc.games == 2 && i%2 == 1 {
				prev := s.Game(i - 1)
				if prev.White != g.Black || prev.Black != g.White || prev.Opening != g.Opening || prev.Pair != g.Pair {
					t.Errorf("%s: games %d and %d are not a colour-swapped pair on one opening", tc.format, i-1, i)
				}
			}
			if again := s.Game(i); again != g {
				t.Errorf("%s: game %d is not a pure function of its index", tc.format, i)
			}
		}
		for k, n := range tc.wantPlayed {
			if played[k] != n {
				t.Errorf("%s: pairing %v played %d games, want %d", tc.format, k, played[k], n)
			}
		}
		if len(played) != len(tc.wantPlayed) {
			t.Errorf("%s: pairings %v, want %v", tc.format, played, tc.wantPlayed)
		}
		if s.Game(s.Len()-1).Round != tc.rounds {
			t.Errorf("%s: last game in round %d, want %d", tc.format, s.Game(s.Len()-1).Round, tc.rounds)
		}
	}
}

func TestScheduleErrors(t *testing.T) {
	book := &openings.Book{} // the empty board of Base
	for _, tc := range []struct {
		format                Format
		n, seeds, rounds, per int
	}{{Match, 3, 0, 1, 2}, {Gauntlet, 3, 3, 1, 2}, {RoundRobin, 1, 0, 1, 2}, {Match, 2, 0, 0, 2}, {Match, 2, 0, 1, 3}, {"swiss", 4, 0, 1, 2}} {
		if _, err := NewSchedule(tc.format, tc.n, tc.seeds, tc.rounds, tc.per, book); err == nil {
			t.Errorf("NewSchedule(%+v) accepted a bad schedule", tc)
		}
	}
}
