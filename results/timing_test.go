package results

import "testing"

// timedGame is a record whose moves took the given milliseconds, each side's clock (when
// clocks is true) charged as the arbiter charges it.
func timedGame(idx int, white, black Player, opening string, ms []int64, culprit string) Record {
	r := game("r", idx, white.Name, black.Name, Draw, ReasonMoveLimit, culprit)
	r.White, r.Black, r.Opening = white, black, opening
	sides := [2]Player{white, black}
	clock := [2]int64{-1, -1}
	side := openingPlies(opening) % 2
	for _, m := range ms {
		mv := Move{Move: "x", Millis: m}
		if l := ParseTimeLimits(sides[side].Time); l.BaseMillis > 0 {
			if clock[side] < 0 {
				clock[side] = l.BaseMillis
			}
			clock[side] = max(clock[side]-m, 0) + 100 // an increment of 0.1 s
			left := clock[side]
			mv.ClockMillis = &left
		}
		r.Moves = append(r.Moves, mv)
		side ^= 1
	}
	return r
}

// TestTimings: each engine's moves, thinking time, overruns within the margin and faults, on a
// fixed time per move, on a clock and at a depth (render's time table prints these figures).
func TestTimings(t *testing.T) {
	fixed := Player{Name: "fixed", Time: "st=0.5"}
	clocked := Player{Name: "clocked", Time: "1+0.1"}
	depth := Player{Name: "deep", Time: "depth=3"}
	recs := []Record{
		// fixed (White) overruns its 0.5 s once (620 ms); 500 ms is within budget.
		timedGame(0, fixed, clocked, "Base", []int64{400, 700, 620, 400, 100, 60}, ""),
		// After an opening of one ply Black moves first: clocked, then fixed. Clocked has 0.8 s
		// left when it takes 1.5 s: an overrun (the record holds only moves within the margin).
		timedGame(1, fixed, clocked, "Base;InProgress;Black[1];wS1", []int64{300, 500, 1500, 90}, "Black"),
		timedGame(2, depth, fixed, "Base", []int64{2500, 480, 3100}, "White"),
	}
	ts := NewTimings(recs, []string{"fixed", "clocked"})
	want := map[string]Timing{
		"fixed":   {Moves: 6, MillisTotal: 400 + 620 + 100 + 500 + 90 + 480, MillisMax: 620, Overruns: 1},
		"clocked": {Moves: 5, MillisTotal: 700 + 400 + 60 + 300 + 1500, MillisMax: 1500, Overruns: 1, Faults: 1},
		"deep":    {Moves: 2, MillisTotal: 5600, MillisMax: 3100, Faults: 1},
	}
	for _, e := range ts.Engines {
		w := want[e.Name]
		w.Name = e.Name
		if *e != w {
			t.Errorf("%s: got %+v, want %+v", e.Name, *e, w)
		}
	}
}

func TestParseTimeLimits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want TimeLimits
	}{
		{"st=1.5", TimeLimits{MoveMillis: 1500}},
		{"60+0.5", TimeLimits{BaseMillis: 60000, IncrementMillis: 500}},
		{"tc=10", TimeLimits{BaseMillis: 10000}},
		{"depth=4", TimeLimits{}},
		{"", TimeLimits{}},
		{"-", TimeLimits{}},
		{"x+1", TimeLimits{}},
	} {
		if got := ParseTimeLimits(tc.in); got != tc.want {
			t.Errorf("ParseTimeLimits(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
