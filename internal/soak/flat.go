//go:build linux

package main

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// The flatness criterion compares like with like. An arbiter's goroutines and descriptors are
// not one level that a leak would raise: they are a base (12 descriptors, 9 goroutines in the
// seed-28 soak) plus a share for each engine process it holds (4 and 3), and each worker
// starts an engine when its first game needs it, so a new process goes from no engine while
// it reads the records and tries the engines (10 to 25 s on a loaded machine) to a full seat
// pool many games later. A run whose processes are killed 3 to 30 s after their first game
// spends much of its time between those levels, and a criterion that compares a quarter of
// the run with another measures how the kills fell, not a leak: the seed-28 soak was judged
// not flat (goroutines 39 against 30) without one. So only samples of an arbiter at work
// are judged (it has recorded a game since it started, and is past its warm-up), and they are
// compared only with samples taken while it held as many engine processes.
//
// And a leak is a process's: a SIGKILL takes it away, and a run of many short lives grows a
// saw whose quarters have the same median, which a comparison of quarters cannot see. So the
// main test is within a process: at the same number of engines, does the quantity grow with
// the games that process has recorded? The growth per game is the least-squares slope pooled
// over every (process, engines) stretch, each against its own mean (a fixed-effects
// regression: the level of a stretch does not count, only its trend), and it is judged over
// the most games a process was watched playing: what it would have leaked by then. The comparison of
// quarters stays, among the samples with the commonest engine count, for what outlives a
// process: a level that rises with the records a run holds.

// flatness is how much a sampled quantity may grow and still be called flat: by Ratio-1 of
// its level plus Slack (in the quantity's unit, for small counts).
type flatness struct {
	Ratio float64
	Slack float64
}

// flatCriteria are the soak's: memory may drift 25% (the Go collector lets the heap grow
// to twice the live data, and the RSS follows it in steps), goroutines and descriptors 10%
// plus a few (an engine being restarted holds a few for a moment).
var flatCriteria = map[string]flatness{
	"RSS":        {Ratio: 1.25, Slack: 2048},
	"goroutines": {Ratio: 1.10, Slack: 4},
	"fds":        {Ratio: 1.10, Slack: 4},
}

// minFlatSamples is the fewest samples judged, by each test: ten a quarter, so that the
// medians are not those of a moment.
const minFlatSamples = 40

// quantity picks one sampled quantity, -1 for none.
func quantity(name string, s Sample) float64 {
	switch name {
	case "RSS":
		return float64(s.RSSKiB)
	case "goroutines":
		return float64(s.Goroutines)
	case "fds":
		return float64(s.FDs)
	}
	return -1
}

// atWork reports whether a sample shows the arbiter playing: it has recorded a game since it
// started (it has read the records, tried its engines and seated them) and is past warmup.
func atWork(s Sample, warmup time.Duration) bool { return s.LifeGames > 0 && s.Up >= warmup }

// flatVerdict is one quantity's check.
type flatVerdict struct {
	Name     string
	Criteria flatness
	Samples  int     // samples of an arbiter at work
	Level    float64 // their median
	Limit    float64 // the growth allowed: Level*(Ratio-1) + Slack

	// Within a process, at the same number of engines.
	Slope   float64 // growth per game recorded
	Span    int     // the most games a process recorded
	Growth  float64 // Slope*Span
	Pooled  int     // samples in stretches of two or more
	InLives bool    // judged: enough samples

	// Across the run, at the commonest number of engines.
	Engines int
	Q2, Q4  float64 // medians of the second and last quarter
	Class   int     // samples with that many engines
	Across  bool    // judged: enough samples

	Flat bool
}

// Decided reports whether there were samples enough to judge both ways.
func (v flatVerdict) Decided() bool { return v.InLives && v.Across }

func (v flatVerdict) String() string {
	if !v.Decided() {
		return fmt.Sprintf("%s: %d samples at work (%d in stretches, %d with %d engines), too few to judge (%d needed)",
			v.Name, v.Samples, v.Pooled, v.Class, v.Engines, minFlatSamples)
	}
	verdict := "flat"
	if !v.Flat {
		verdict = "NOT FLAT"
	}
	return fmt.Sprintf("%s: level %.0f, growth allowed %.0f (x%.2f + %.0f); in a process %+.3f a game over %d games = %+.1f (%d samples); "+
		"across the run at %d engines, last quarter %.0f against second %.0f (%d samples): %s",
		v.Name, v.Level, v.Limit, v.Criteria.Ratio-1, v.Criteria.Slack, v.Slope, v.Span, v.Growth, v.Pooled,
		v.Engines, v.Q4, v.Q2, v.Class, verdict)
}

// judgeFlat applies the criterion to the samples of an arbiter at work.
func judgeFlat(name string, samples []Sample, warmup time.Duration, c flatness) flatVerdict {
	v := flatVerdict{Name: name, Criteria: c}
	var work []Sample
	var xs []float64
	for _, s := range samples {
		if x := quantity(name, s); x >= 0 && atWork(s, warmup) {
			work = append(work, s)
			xs = append(xs, x)
		}
	}
	v.Samples = len(work)
	if len(work) == 0 {
		return v
	}
	v.Level = median(xs)
	v.Limit = v.Level*(c.Ratio-1) + c.Slack
	v.Slope, v.Span, v.Pooled = growthPerGame(name, work)
	v.Growth = v.Slope * float64(v.Span)
	v.InLives = v.Pooled >= minFlatSamples

	v.Engines = commonestEngines(work)
	var class []float64
	for _, s := range work {
		if s.Engines == v.Engines {
			class = append(class, quantity(name, s))
		}
	}
	v.Class = len(class)
	if v.Across = len(class) >= minFlatSamples; v.Across {
		q := len(class) / 4
		v.Q2, v.Q4 = median(class[q:2*q]), median(class[len(class)-q:])
	}
	v.Flat = v.Decided() && v.Growth <= v.Limit && v.Q4 <= v.Q2*c.Ratio+c.Slack
	return v
}

// stretch is the samples of one process holding one number of engines.
type stretch struct{ life, engines int }

// growthPerGame is the least-squares slope of the quantity against the games the process
// has recorded, pooled over the stretches, each against its own means; with the most games
// a process recorded, and the samples that count (those of stretches of two or more).
func growthPerGame(name string, work []Sample) (slope float64, span, pooled int) {
	groups := make(map[stretch][]Sample)
	for _, s := range work {
		k := stretch{s.Life, s.Engines}
		groups[k] = append(groups[k], s)
	}
	var sxy, sxx float64
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		var mx, my float64
		for _, s := range g {
			mx += float64(s.LifeGames)
			my += quantity(name, s)
			span = max(span, s.LifeGames)
		}
		mx /= float64(len(g))
		my /= float64(len(g))
		for _, s := range g {
			dx := float64(s.LifeGames) - mx
			sxy += dx * (quantity(name, s) - my)
			sxx += dx * dx
		}
		pooled += len(g)
	}
	if sxx > 0 {
		slope = sxy / sxx
	}
	return slope, span, pooled
}

// commonestEngines is the number of engine processes the most samples saw (the fewest, of
// those seen as often).
func commonestEngines(work []Sample) int {
	counts := make(map[int]int)
	for _, s := range work {
		counts[s.Engines]++
	}
	best := -1
	for _, e := range slices.Sorted(maps.Keys(counts)) {
		if best < 0 || counts[e] > counts[best] {
			best = e
		}
	}
	return best
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// sampleStats are the figures the report gives of a part of the run: medians and maxima.
type sampleStats struct {
	rss, gor, fds, engines float64 // medians (gor -1: the debug window never answered)
	maxRSS                 int64
	maxGor, maxFDs, maxEng int
	firstGame, lastGame    int
	n                      int
}

func statsOf(part []Sample) sampleStats {
	st := sampleStats{gor: -1, firstGame: part[0].Games, lastGame: part[len(part)-1].Games, n: len(part)}
	var rss, fds, gor, eng []float64
	for _, s := range part {
		rss, fds, eng = append(rss, float64(s.RSSKiB)), append(fds, float64(s.FDs)), append(eng, float64(s.Engines))
		st.maxRSS, st.maxFDs, st.maxEng = max(st.maxRSS, s.RSSKiB), max(st.maxFDs, s.FDs), max(st.maxEng, s.Engines)
		if s.Goroutines >= 0 {
			gor = append(gor, float64(s.Goroutines))
			st.maxGor = max(st.maxGor, s.Goroutines)
		}
	}
	st.rss, st.fds, st.engines = median(rss), median(fds), median(eng)
	if len(gor) > 0 {
		st.gor = median(gor)
	}
	return st
}

// around summarizes the samples near a moment of the run (a fraction of it, 0 to 1): the
// medians of the tenth of the samples there.
func around(samples []Sample, at float64) string {
	if len(samples) == 0 {
		return "no samples"
	}
	n := max(len(samples)/10, 1)
	i := min(int(at*float64(len(samples)-n)), len(samples)-n)
	st := statsOf(samples[i : i+n])
	return fmt.Sprintf("%5.1f MiB RSS, %s goroutines, %.0f fds, %.0f engines (games %d-%d, %d samples)",
		st.rss/1024, goroutineText(st.gor), st.fds, st.engines, st.firstGame, st.lastGame, st.n)
}

// maxima summarizes the largest values of the samples.
func maxima(samples []Sample) string {
	if len(samples) == 0 {
		return "no samples"
	}
	st := statsOf(samples)
	return fmt.Sprintf("%5.1f MiB RSS, %d goroutines, %d fds, %d engines (%d samples)",
		float64(st.maxRSS)/1024, st.maxGor, st.maxFDs, st.maxEng, st.n)
}

func goroutineText(g float64) string {
	if g < 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f", g)
}
