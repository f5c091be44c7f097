package compliance

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Overshoot is how far an engine's timed searches at one budget ran past it, as a check
// measures them: one search says little of how far the engine runs over in a match (docs/check.md
// tells of one that lost a game on time so), so a check runs several, through a game as a match
// plays it.
type Overshoot struct {
	Budget time.Duration
	// Samples are each search's time past the budget, 0 for one that answered within it.
	Samples []time.Duration
	// Moves, when set, are the move of the engine's side that each sample was (1 for its
	// first), in games played from the start as a match plays them: the overshoot of an engine
	// that slows as its game goes on grows with them.
	Moves []int
	// AtOnce is how many such games were played at once, each by its own engine process, as
	// a run of that -concurrency plays them; 0 for searches in fresh positions, one at a time.
	AtOnce int
}

// String names the distribution: "5 searches of 1 s ran over by median 0.100 s, max 0.430 s",
// and for searches through games, which moves and how many games at once.
func (o Overshoot) String() string {
	if len(o.Samples) == 0 {
		return fmt.Sprintf("no search of %s was measured", secondsText(o.Budget))
	}
	sorted := slices.Sorted(slices.Values(o.Samples))
	if len(sorted) == 1 && len(o.Moves) == 0 {
		return fmt.Sprintf("1 search of %s ran over by %.3f s", secondsText(o.Budget), sorted[0].Seconds())
	}
	searches := "searches"
	if len(sorted) == 1 {
		searches = "search"
	}
	where := ""
	if len(o.Moves) > 0 {
		games := "1 game"
		if o.AtOnce > 1 {
			games = fmt.Sprintf("%d games at once", o.AtOnce)
		}
		where = fmt.Sprintf(" through moves %d to %d of %s", slices.Min(o.Moves), slices.Max(o.Moves), games)
	}
	text := fmt.Sprintf("%d %s of %s%s ran over by median %.3f s, max %.3f s", len(sorted), searches, secondsText(o.Budget), where,
		sorted[(len(sorted)-1)/2].Seconds(), sorted[len(sorted)-1].Seconds())
	if g, ok := o.growth(); ok {
		text += fmt.Sprintf(", growing from %.3f s (median of moves %d to %d) to %.3f s (moves %d to %d)",
			g.early.Seconds(), g.earlyMoves[0], g.earlyMoves[1], g.late.Seconds(), g.lateMoves[0], g.lateMoves[1])
	}
	return text
}

// secondsText is a budget as a person reads it: "1 s", "0.25 s".
func secondsText(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// growth is an overshoot that grows through a game: the median of its first third of moves
// and of its last third.
type growth struct {
	early, late           time.Duration
	earlyMoves, lateMoves [2]int
}

// Growth is seen when the last third of a game's moves ran over by a median at least half as
// much again as the first third's, and by at least minGrowth more: a few milliseconds of
// jitter is no trend.
const (
	growthRatio = 1.5
	minGrowth   = 20 * time.Millisecond
)

// growth reports whether the overshoot grew from the first moves measured to the last.
func (o Overshoot) growth() (growth, bool) {
	if len(o.Moves) != len(o.Samples) || len(o.Moves) < 6 {
		return growth{}, false
	}
	first, last := slices.Min(o.Moves), slices.Max(o.Moves)
	third := (last - first + 1) / 3
	if third < 2 {
		return growth{}, false
	}
	var early, late []time.Duration
	for i, m := range o.Moves {
		switch {
		case m < first+third:
			early = append(early, o.Samples[i])
		case m > last-third:
			late = append(late, o.Samples[i])
		}
	}
	g := growth{early: median(early), late: median(late),
		earlyMoves: [2]int{first, first + third - 1}, lateMoves: [2]int{last - third + 1, last}}
	return g, float64(g.late) >= growthRatio*float64(g.early) && g.late-g.early >= minGrowth
}

// median is the lower median of durations, 0 of none.
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sorted := slices.Sorted(slices.Values(d))
	return sorted[(len(sorted)-1)/2]
}

// overshootQuantile is the quantile of the overshoots that the margin covers: the 99th
// percentile, which of fewer than a hundred searches is the slowest. A match plays hundreds
// of moves, so the margin must hold for the slow tail, not for a typical search.
const overshootQuantile = 0.99

// loadHeadroom is what the margin multiplies the quantile by: a loaded machine (a run's other
// games, the user's other work) doubles a search's overshoot: the engine of issue 47 ran 29 ms
// over early in a quiet game and lost games at 0.5 s with two games at once beside other work,
// and the fake whose overshoot doubles under load (uhpfake.Config.OvershootPerMove) plays its
// games beside busy loops without a time loss (docs/experiments/measurements.md).
const loadHeadroom = 2

// growthHeadroom is what the margin multiplies the quantile by again when the overshoot grew
// through the game measured: that game ends at the engine's 20th move, a match's go on to
// twice as many and more, and an overshoot that grows steadily is about twice as large by then.
const growthHeadroom = 2

// loadAllowance is what a loaded machine adds to a search, as measured of three engines at a
// load of 2 a core (docs/experiments/measurements.md).
const loadAllowance = 250 * time.Millisecond

// MinCheckedMargin is the least margin a check advises.
const MinCheckedMargin = 500 * time.Millisecond

// MarginFor is the margin an engine's measured overshoots need, and why, in a sentence that
// begins "margin 0.9 s: ": their 99th percentile (nearest rank, over every search; of fewer
// than a hundred, the slowest), doubled for a loaded machine (loadHeadroom), doubled again
// when it grew through a game (growthHeadroom), and a loaded machine's allowance, at least
// MinCheckedMargin, rounded up to tenths of a second. With nothing measured it is the least,
// and says so.
func MarginFor(overshoots []Overshoot) (time.Duration, string) {
	var all []time.Duration
	var parts []string
	grows := false
	for _, o := range overshoots {
		if len(o.Samples) > 0 {
			all = append(all, o.Samples...)
			parts = append(parts, o.String())
		}
		if _, ok := o.growth(); ok {
			grows = true
		}
	}
	if len(all) == 0 {
		return MinCheckedMargin, fmt.Sprintf("margin %.1f s, the least: its overshoot was not measured (see why above), and a loaded machine adds a quarter of a second",
			MinCheckedMargin.Seconds())
	}
	slices.Sort(all)
	rank := int(float64(len(all))*overshootQuantile+0.999999) - 1 // nearest rank, from 0
	q := all[min(max(rank, 0), len(all)-1)]
	headroom, why := loadHeadroom, "twice the 99th percentile of them (%.3f s), as a loaded machine doubles it,"
	if len(all) < 100 {
		why = "twice the slowest of them (%.3f s), as a loaded machine doubles it,"
	}
	if grows {
		headroom *= growthHeadroom
		why += " doubled again as its overshoot grew through the game, for the longer games of a match,"
	}
	m := max(time.Duration(headroom)*q+loadAllowance, MinCheckedMargin)
	m = (m + 99*time.Millisecond).Truncate(100 * time.Millisecond)
	return m, fmt.Sprintf("margin %.1f s: %s; it covers "+why+" and a quarter of a second that load adds to any search",
		m.Seconds(), strings.Join(parts, "; "), q.Seconds())
}

// maxMarginSeconds bounds the margins MarginChecked reads: a day, far above any a check advises.
const maxMarginSeconds = 24 * 60 * 60

// MarginChecked is the margin a check's rows advise (the setting margin=SECONDS of its time
// setting row), for a list or a gate that plays the engine: false if no row advises one.
func MarginChecked(checks []Result) (time.Duration, bool) {
	for _, c := range checks {
		for _, s := range c.Settings {
			if v, ok := strings.CutPrefix(s, "margin="); ok {
				// A check writes tenths of a second; a margin of days is no margin it wrote.
				if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0.001 && f < maxMarginSeconds {
					return time.Duration(math.Round(f*1000)) * time.Millisecond, true
				}
			}
		}
	}
	return 0, false
}
