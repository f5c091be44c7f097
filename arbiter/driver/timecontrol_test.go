package driver

import (
	"errors"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		str  string
	}{
		{"st=1", TimeControl{MoveTime: time.Second}, "st=1"},
		{"st=0.25", TimeControl{MoveTime: 250 * time.Millisecond}, "st=0.25"},
		{"depth=3", TimeControl{Depth: 3}, "depth=3"},
		{"nodes=50000", TimeControl{Nodes: 50000}, "nodes=50000"},
		{"tc=60+0.5", TimeControl{Base: time.Minute, Increment: 500 * time.Millisecond}, "60+0.5"},
		{"10+0.1", TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}, "10+0.1"},
		{"tc=30", TimeControl{Base: 30 * time.Second}, "30+0"},
	}
	for _, tc := range tests {
		got, err := ParseTimeControl(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if got.String() != tc.str {
			t.Errorf("%q prints as %q, want %q", tc.in, got.String(), tc.str)
		}
		again, err := ParseTimeControl(got.String())
		if err != nil || again != got {
			t.Errorf("%q does not survive a round trip: %+v, %v", tc.in, again, err)
		}
	}
}

func TestParseTimeControlErrors(t *testing.T) {
	for _, in := range []string{"", "st=0", "st=-1", "st=x", "depth=0", "depth=2.5", "tc=40/60+1", "tc=+1", "tc=10+-1", "nodes=0", "nodes=1.5", "movetime=100", "tc=NaN", "st=1e300"} {
		_, err := ParseTimeControl(in)
		var tce *TimeControlError
		if !errors.As(err, &tce) {
			t.Errorf("ParseTimeControl(%q) error = %v, want a TimeControlError", in, err)
		}
	}
}

func TestClockMoveTime(t *testing.T) {
	tc := TimeControl{MoveTime: time.Second}
	c := NewClock(tc, tc, 100*time.Millisecond, 100*time.Millisecond)
	if c.Budget(0) != time.Second || c.Deadline(0, time.Minute) != 1100*time.Millisecond {
		t.Fatalf("budget %v deadline %v", c.Budget(0), c.Deadline(0, time.Minute))
	}
	if allowed, lost := c.Charge(0, 1050*time.Millisecond); lost || allowed != time.Second {
		t.Errorf("1.05 s of 1 s with 100 ms margin: allowed %v lost %v", allowed, lost)
	}
	if _, lost := c.Charge(1, 1101*time.Millisecond); !lost {
		t.Error("1.101 s of 1 s with 100 ms margin was not a loss on time")
	}
}

// TestClockBudgetOverTheGame: with an increment, a budget spreads what is left over 20 moves
// at the start, half a move fewer for every move played, and never fewer than 10, plus three
// quarters of the increment; without one, over 25 moves all game long.
func TestClockBudgetOverTheGame(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		inc    time.Duration
		played int
		want   time.Duration
	}{
		{time.Second, 0, 10*time.Second/20 + 750*ms},
		{time.Second, 1, 10*time.Second/20 + 750*ms},
		{time.Second, 2, 10*time.Second/19 + 750*ms},
		{time.Second, 10, 10*time.Second/15 + 750*ms},
		{time.Second, 20, 10*time.Second/10 + 750*ms},
		{time.Second, 150, 10*time.Second/10 + 750*ms},
		{0, 0, 10 * time.Second / 25},
		{0, 40, 10 * time.Second / 25},
	} {
		c := NewClock(TimeControl{Base: 10 * time.Second, Increment: tc.inc}, TimeControl{Base: time.Second}, 0, 0)
		for range tc.played {
			c.Charge(0, tc.inc) // what the increment gives back: the clock stays at 10 s
		}
		if got := c.Budget(0); got != tc.want {
			t.Errorf("increment %v, %d moves played: budget %v, want %v", tc.inc, tc.played, got, tc.want)
		}
	}
}

func TestClockBaseIncrement(t *testing.T) {
	tc := TimeControl{Base: 10 * time.Second, Increment: time.Second}
	c := NewClock(tc, tc, 0, 0)
	if got, want := c.Budget(0), 10*time.Second/20+750*time.Millisecond; got != want {
		t.Errorf("budget = %v, want %v", got, want)
	}
	if _, lost := c.Charge(0, 4*time.Second); lost {
		t.Fatal("4 s of 10 s lost on time")
	}
	if got := c.Remaining(0); got != 7*time.Second {
		t.Errorf("remaining after 4 s + 1 s increment = %v, want 7s", got)
	}
	if c.Remaining(1) != 10*time.Second {
		t.Error("charging White touched Black's clock")
	}
	if c.Deadline(0, time.Minute) != 7*time.Second {
		t.Errorf("deadline = %v, want what is left on the clock", c.Deadline(0, time.Minute))
	}
	allowed, lost := c.Charge(0, 7500*time.Millisecond)
	if !lost || allowed != 7*time.Second {
		t.Errorf("7.5 s of 7 s: allowed %v lost %v", allowed, lost)
	}
	if c.Budget(0) > c.Remaining(0) {
		t.Errorf("budget %v exceeds what is left %v", c.Budget(0), c.Remaining(0))
	}
}

func TestClockDepth(t *testing.T) {
	tc := TimeControl{Depth: 4}
	c := NewClock(tc, tc, 0, 0)
	if c.Deadline(0, 30*time.Second) != 30*time.Second {
		t.Error("a depth search is not bounded by the depth timeout")
	}
	if _, lost := c.Charge(0, time.Hour); lost {
		t.Error("a depth search lost on time")
	}
}
