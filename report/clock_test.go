package report

import (
	"testing"

	"hivearbiter/results"
)

func TestClockOf(t *testing.T) {
	for _, tc := range []struct {
		in        string
		base, inc int64
	}{{"60+0.5", 60000, 500}, {"tc=10", 10000, 0}, {"st=1", -1, 0}, {"depth=4", -1, 0}, {"", -1, 0}, {"x+1", -1, 0}} {
		if base, inc := clockOf(tc.in); base != tc.base || inc != tc.inc {
			t.Errorf("clockOf(%q) = %d, %d; want %d, %d", tc.in, base, inc, tc.base, tc.inc)
		}
	}
}

func TestClockDrift(t *testing.T) {
	c, ok := newClocks("1+0.1", "st=1")
	if !ok {
		t.Fatal("a clock game without clocks")
	}
	at := func(ms int64) *int64 { return &ms }
	for _, tc := range []struct {
		side int
		move results.Move
		want int64
	}{
		{0, results.Move{Millis: 300, ClockMillis: at(800)}, 0},  // 1000 - 300 + 100
		{1, results.Move{Millis: 900}, 0},                        // no clock
		{0, results.Move{Millis: 200, ClockMillis: at(699)}, -1}, // 800 - 200 + 100, a millisecond off
		{0, results.Move{Millis: 900, ClockMillis: at(100)}, 0},  // the clock does not go below zero
	} {
		if got := c.drift(tc.side, tc.move); got != tc.want {
			t.Errorf("side %d, %+v: drift %d, want %d", tc.side, tc.move, got, tc.want)
		}
	}
}
