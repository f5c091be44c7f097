package ugiserver

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/rules"
)

func TestParseGo(t *testing.T) {
	for _, tc := range []struct {
		args   string
		side   rules.Color
		played int
		want   GoArgs
	}{
		{"infinite", rules.White, 0, GoArgs{}},
		{"depth 4", rules.White, 0, GoArgs{Depth: 4}},
		{"nodes 5000", rules.Black, 0, GoArgs{Nodes: 5000}},
		{"movetime 100", rules.White, 0, GoArgs{Time: 100 * time.Millisecond}},
		// With an increment: a 20th of the mover's own time at the start, a 15th after 10
		// moves, a 10th from the 20th on, plus three quarters of the increment.
		{"p1time 10000 p2time 500 p1inc 400 p2inc 0", rules.White, 0, GoArgs{Time: 800 * time.Millisecond}},
		{"p1time 10000 p2time 500 p1inc 400 p2inc 0", rules.White, 10, GoArgs{Time: 966666666}},
		{"p1time 10000 p2time 500 p1inc 400 p2inc 0", rules.White, 60, GoArgs{Time: 1300 * time.Millisecond}},
		// Without one, a 25th whatever the move.
		{"p1time 10000 p2time 500 p1inc 400 p2inc 0", rules.Black, 0, GoArgs{Time: 20 * time.Millisecond}},
		{"p2time 100 p1time 100", rules.Black, 40, GoArgs{Time: 4 * time.Millisecond}},
		// Never more than half of what is left.
		{"p1time 100 p2time 100 p1inc 1000 p2inc 1000", rules.White, 0, GoArgs{Time: 50 * time.Millisecond}},
	} {
		got, err := ParseGo(strings.Fields(tc.args), tc.side, tc.played)
		if err != nil || got != tc.want {
			t.Errorf("go %s (%s, %d played): got %+v, %v; want %+v", tc.args, tc.side, tc.played, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "depth", "depth x", "depth 3 nodes 4", "movetime -5", "p1time 0 p2time 5", "p1inc 5 p2inc 5", "ponder", "depth 3 depth 4", "p1time 5 p2time 5 depth 2"} {
		if got, err := ParseGo(strings.Fields(bad), rules.White, 0); err == nil {
			t.Errorf("go %s: got %+v, want an error", bad, got)
		}
	}
}

func TestParseSetOption(t *testing.T) {
	for line, want := range map[string][2]string{
		"name Hash value 64":           {"Hash", "64"},
		"name Max Depth value 3":       {"Max Depth", "3"},
		"name Book File value a b.txt": {"Book File", "a b.txt"},
		"name Clear Hash":              {"Clear Hash", ""},
		"name Profile value":           {"Profile", ""},
	} {
		name, value, err := ParseSetOption(strings.Fields(line))
		if err != nil || name != want[0] || value != want[1] {
			t.Errorf("setoption %s: got %q %q %v", line, name, value, err)
		}
	}
}

func FuzzParseGo(f *testing.F) {
	for _, s := range []string{"infinite", "depth 4", "nodes 1", "movetime 100", "p1time 1 p2time 2 p1inc 3 p2inc 4", "p1time 99999999999999999 p2time 1"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, args string, white bool) {
		side := rules.Black
		if white {
			side = rules.White
		}
		l, err := ParseGo(strings.Fields(args), side, 0)
		if err != nil {
			return
		}
		if l.Time < 0 || l.Depth < 0 || l.Nodes < 0 {
			t.Errorf("go %s: %+v", args, l)
		}
		set := 0
		for _, b := range []bool{l.Time > 0, l.Depth > 0, l.Nodes > 0} {
			if b {
				set++
			}
		}
		if set > 1 {
			t.Errorf("go %s: more than one limit: %+v", args, l)
		}
	})
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"startpos", "startpos moves wS1 bS1_wS1-", "fen Base+MLP moves wS1", "fen Base;InProgress;White[2];wS1;bS1_wS1-", "fen Base;x", "moves"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		g, err := ParsePosition(strings.Fields(args))
		if err != nil {
			return
		}
		// What was accepted is a legal game, and its queries answer.
		if _, err := rules.ParseGameString(g.GameString()); err != nil {
			t.Errorf("position %s: accepted %q: %v", args, g.GameString(), err)
		}
		for _, q := range []string{"p1turn", "gameover", "result"} {
			if _, err := Query(g, []string{q}); err != nil {
				t.Error(err)
			}
		}
	})
}

func FuzzParseSetOption(f *testing.F) {
	f.Add("name Hash value 64")
	f.Add("name value")
	f.Fuzz(func(t *testing.T, line string) {
		name, _, err := ParseSetOption(strings.Fields(line))
		if err == nil && name == "" {
			t.Errorf("setoption %s: no name", line)
		}
	})
}
