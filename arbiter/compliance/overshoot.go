package compliance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Overshoot is how far an engine's timed searches at one budget ran past it, as a check
// measures them: one search says little of how far the engine runs over in a match (docs/check.md
// tells of one that lost a game on time so), so a check runs several.
type Overshoot struct {
	Budget time.Duration
	// Samples are each search's time past the budget, 0 for one that answered within it.
	Samples []time.Duration
}

// String names the distribution: "5 searches of 1 s ran over by median 0.100 s, max 0.430 s".
func (o Overshoot) String() string {
	if len(o.Samples) == 0 {
		return fmt.Sprintf("no search of %s was measured", secondsText(o.Budget))
	}
	sorted := slices.Sorted(slices.Values(o.Samples))
	if len(sorted) == 1 {
		return fmt.Sprintf("1 search of %s ran over by %.3f s", secondsText(o.Budget), sorted[0].Seconds())
	}
	return fmt.Sprintf("%d searches of %s ran over by median %.3f s, max %.3f s", len(sorted), secondsText(o.Budget),
		sorted[(len(sorted)-1)/2].Seconds(), sorted[len(sorted)-1].Seconds())
}

// secondsText is a budget as a person reads it: "1 s", "0.25 s".
func secondsText(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// overshootQuantile is the quantile of the overshoots that the margin covers: with up to ten
// searches, the slowest.
const overshootQuantile = 0.9

// loadAllowance is what a loaded machine adds to a search, as measured of three engines at a
// load of 2 a core (docs/experiments/measurements.md).
const loadAllowance = 250 * time.Millisecond

// MinCheckedMargin is the least margin a check advises.
const MinCheckedMargin = 500 * time.Millisecond

// MarginFor is the margin an engine's measured overshoots need, and why, in a sentence that
// begins "margin 0.9 s: ": twice their 90th percentile (nearest rank, over every search) and a
// loaded machine's allowance, at least MinCheckedMargin, rounded up to tenths of a second.
// With nothing measured it is the least, and says so.
func MarginFor(overshoots []Overshoot) (time.Duration, string) {
	var all []time.Duration
	var parts []string
	for _, o := range overshoots {
		if len(o.Samples) > 0 {
			all = append(all, o.Samples...)
			parts = append(parts, o.String())
		}
	}
	if len(all) == 0 {
		return MinCheckedMargin, fmt.Sprintf("margin %.1f s, the least: its overshoot was not measured (see why above), and a loaded machine adds a quarter of a second",
			MinCheckedMargin.Seconds())
	}
	slices.Sort(all)
	rank := int(float64(len(all))*overshootQuantile+0.999999) - 1 // nearest rank, from 0
	q := all[min(max(rank, 0), len(all)-1)]
	m := max(2*q+loadAllowance, MinCheckedMargin)
	m = (m + 99*time.Millisecond).Truncate(100 * time.Millisecond)
	return m, fmt.Sprintf("margin %.1f s: %s; it covers twice the 90th percentile of them (%.3f s) and a quarter of a second that a loaded machine adds",
		m.Seconds(), strings.Join(parts, "; "), q.Seconds())
}
