package report

import "hivearbiter/results"

// clocks follows both sides' clocks through a game so that the page's data can hold them
// compactly. The page predicts a side's clock after a move as the arbiter charges it: the
// clock before the move less the thinking time (not below zero) plus the increment. The data
// holds only the drift of each recorded clock from that prediction, zero but for rounding:
// five digits a move less, for the same clocks.
type clocks struct {
	left [2]int64 // -1 for a side without a clock
	inc  [2]int64
}

// newClocks starts the clocks of a game from the sides' time controls, and reports whether
// either side plays on a clock.
func newClocks(white, black string) (clocks, bool) {
	var c clocks
	for side, tc := range [2]string{white, black} {
		c.left[side], c.inc[side] = clockOf(tc)
	}
	return c, c.left[0] >= 0 || c.left[1] >= 0
}

// drift charges a move to its side's clock and returns the recorded clock less the predicted.
func (c *clocks) drift(side int, m results.Move) int64 {
	if c.left[side] < 0 || m.ClockMillis == nil {
		return 0
	}
	predicted := max(c.left[side]-m.Millis, 0) + c.inc[side]
	c.left[side] = *m.ClockMillis
	return *m.ClockMillis - predicted
}

// clockOf reads the base and increment, in milliseconds, of a time control as records write
// it; the base is -1 for one without a clock ("st=1", "depth=3").
func clockOf(tc string) (base, inc int64) {
	l := results.ParseTimeLimits(tc)
	if l.BaseMillis == 0 {
		return -1, 0
	}
	return l.BaseMillis, l.IncrementMillis
}
