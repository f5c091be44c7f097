//go:build linux

package main

import (
	"fmt"
	"math"
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
// first test is within a process: at the same number of engines, does the quantity grow with
// the games that process has recorded? The growth per game is the least-squares slope pooled
// over every (process, engines) stretch, each against its own mean (a fixed-effects
// regression: the level of a stretch does not count, only its trend), and it is judged over
// the most games a process was watched playing: what it would have leaked by then. The
// second test is the same across the run, for what outlives a process (a level that rises
// with the records the run holds): the slope against the games in the records file, pooled
// over the samples at each number of engines, judged over the games the run was watched for.

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

// minFlatSamples is the fewest samples judged, by each test, so that a slope is not that of a
// moment.
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
// started (it has read the records, tried its engines and seated them) and is past warmup;
// and whether it can be compared: no engine started or ended while it was taken (its
// descriptors and goroutines would then be those of another engine count than its own).
func atWork(s Sample, warmup time.Duration) bool {
	return s.LifeGames > 0 && s.Up >= warmup && s.Settled
}

// flatVerdict is one quantity's check.
type flatVerdict struct {
	Name     string
	Criteria flatness
	Samples  int     // samples of an arbiter at work
	Level    float64 // their median
	Limit    float64 // the growth allowed: Level*(Ratio-1) + Slack
	InLife   growth  // within a process, at the same number of engines
	InRun    growth  // across the run, at the same number of engines
	// PerRun, for a pool server: within a process, at the same load, against the runs it
	// finished (nil for an arbiter).
	PerRun *growth
	Flat   bool
}

// growth is one test of a quantity: its growth per game, pooled over groups of samples that
// are alike, and what that comes to over the games watched, with its standard error (from
// the residuals of the fit). A short run, whose lives are short, has few groups in which the
// games change, and a step of the memory (the collector's, a flood's buffers) weighs on the
// slope: growth beyond the allowance is a leak only when it exceeds it by two standard
// errors. The residuals do not see all of a step's weight (a group of two samples fits any
// step), so the short variant's memory test stays coarse.
type growth struct {
	Slope   float64 // per game
	Span    int     // games watched
	Total   float64 // Slope*Span
	Error   float64 // the standard error of Total
	Pooled  int     // samples in groups of two or more
	Moved   bool    // games(s) changed within a group
	Decided bool    // enough samples
}

// within reports whether the growth stays within limit, or exceeds it by less than two
// standard errors.
func (g growth) within(limit float64) bool { return g.Total-2*g.Error <= limit }

// Decided reports whether there were samples enough to judge every way.
func (v flatVerdict) Decided() bool {
	return v.InLife.Decided && v.InRun.Decided && (v.PerRun == nil || v.PerRun.Decided)
}

func (v flatVerdict) String() string {
	perRun := ""
	if g := v.PerRun; g != nil {
		perRun = fmt.Sprintf("; in a process against the runs it finished %+.3f a run over %d runs = %+.1f ± %.1f", g.Slope, g.Span, g.Total, g.Error)
		if !g.Decided {
			perRun = fmt.Sprintf("; %d samples alike in processes that finished a run", g.Pooled)
		}
	}
	if !v.Decided() {
		return fmt.Sprintf("%s: %d samples at work (%d and %d alike%s), too few to judge (%d needed)",
			v.Name, v.Samples, v.InLife.Pooled, v.InRun.Pooled, perRun, minFlatSamples)
	}
	verdict := "flat"
	if !v.Flat {
		verdict = "NOT FLAT"
	}
	return fmt.Sprintf("%s: level %.0f, growth allowed %.0f (%.0f%% + %.0f); in a process %+.4f a game over %d games = %+.1f ± %.1f; "+
		"across the run %+.5f a game over %d games = %+.1f ± %.1f%s (%d samples): %s",
		v.Name, v.Level, v.Limit, 100*(v.Criteria.Ratio-1), v.Criteria.Slack, v.InLife.Slope, v.InLife.Span, v.InLife.Total, v.InLife.Error,
		v.InRun.Slope, v.InRun.Span, v.InRun.Total, v.InRun.Error, perRun, v.Samples, verdict)
}

// judgeFlat applies the criterion to the samples of an arbiter at work.
func judgeFlat(name string, samples []Sample, warmup time.Duration, c flatness) flatVerdict {
	return judge(name, samples, warmup, c, false)
}

// judgeServerFlat applies it to the samples of a pool server at work, and asks a third
// question: within one process, at the same load (active runs and workers), does the quantity
// grow with the runs the server has finished? A server that keeps a subscription, a goroutine
// or a buffer of each run it ends grows in steps at each run's end, and the runs a process
// finishes are what it would keep.
func judgeServerFlat(name string, samples []Sample, warmup time.Duration, c flatness) flatVerdict {
	return judge(name, samples, warmup, c, true)
}

func judge(name string, samples []Sample, warmup time.Duration, c flatness, perRun bool) flatVerdict {
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
	v.InLife = pooledGrowth(name, work,
		func(s Sample) stretch { return stretch{s.Life, s.Engines, s.Runs, s.Workers} },
		func(s Sample) int { return s.LifeGames })
	v.InRun = pooledGrowth(name, work,
		func(s Sample) stretch { return stretch{0, s.Engines, s.Runs, s.Workers} },
		func(s Sample) int { return s.Games })
	v.Flat = v.Decided() && v.InLife.within(v.Limit) && v.InRun.within(v.Limit)
	if perRun {
		g := pooledGrowth(name, work,
			func(s Sample) stretch { return stretch{s.Life, s.Engines, s.Runs, s.Workers} },
			func(s Sample) int { return s.LifeRuns })
		// Only a stretch in which a run ended can show a growth per run: without one the
		// test would pass having seen nothing.
		g.Decided = g.Decided && g.Span > 0 && g.Moved
		v.PerRun = &g
		v.Flat = v.Decided() && v.Flat && g.within(v.Limit)
	}
	return v
}

// fit is one group's sums of products about its own means, x the games and y the quantity.
type fit struct{ sxy, sxx float64 }

// stretch is a group of samples that are alike: of one process (or any), holding one number
// of engines (a pool server: at one number of active runs and workers).
type stretch struct{ life, engines, runs, workers int }

// pooledGrowth is the least-squares slope of the quantity against games(s), pooled over the
// groups of samples that group(s) makes, each against its own means (a fixed-effects
// regression), and the growth it comes to over the span of games(s) that the groups cover.
func pooledGrowth(name string, work []Sample, group func(Sample) stretch, games func(Sample) int) growth {
	groups := make(map[stretch][]Sample)
	for _, s := range work {
		groups[group(s)] = append(groups[group(s)], s)
	}
	var (
		g             growth
		fits          []fit
		sxy, sxx, syy float64
	)
	lo, hi := math.MaxInt, math.MinInt
	for _, ss := range groups {
		if len(ss) < 2 {
			continue
		}
		var mx, my float64
		for _, s := range ss {
			mx += float64(games(s))
			my += quantity(name, s)
			lo, hi = min(lo, games(s)), max(hi, games(s))
		}
		mx /= float64(len(ss))
		my /= float64(len(ss))
		var f fit
		for _, s := range ss {
			dx, dy := float64(games(s))-mx, quantity(name, s)-my
			f.sxy += dx * dy
			f.sxx += dx * dx
			syy += dy * dy
		}
		sxy, sxx = sxy+f.sxy, sxx+f.sxx
		fits = append(fits, f)
		g.Pooled += len(ss)
	}
	if g.Pooled > 0 {
		g.Span = hi - lo
	}
	g.Moved = sxx > 0
	if sxx > 0 {
		g.Slope = sxy / sxx
		g.Error = slopeError(g.Slope, sxy, sxx, syy, g.Pooled, fits) * float64(g.Span)
	}
	g.Total = g.Slope * float64(g.Span)
	g.Decided = g.Pooled >= minFlatSamples
	return g
}

// slopeError is the standard error of a pooled slope (sxy/sxx over the groups' fits), the
// larger of two estimates. One takes the samples as independent: the residuals' variance, with
// a degree of freedom lost to each group's mean and one to the slope. But samples a few
// milliseconds apart are not independent (memory stays level for seconds, then steps), which
// makes that estimate too small; the other takes each group as one observation (the
// cluster-robust estimate: how far the groups' own slopes scatter about the pooled one), once
// there are two groups.
func slopeError(slope, sxy, sxx, syy float64, samples int, fits []fit) float64 {
	iid := math.Inf(1)
	if dof := samples - len(fits) - 1; dof > 0 {
		iid = math.Sqrt(max(syy-slope*sxy, 0) / float64(dof) / sxx)
	}
	k := 0
	var scatter float64
	for _, f := range fits {
		if f.sxx > 0 {
			// Σ dx·residual over the group, the group's share of the slope's error.
			u := f.sxy - slope*f.sxx
			scatter += u * u
			k++
		}
	}
	if k < 2 {
		return iid
	}
	clustered := math.Sqrt(scatter*float64(k)/float64(k-1)) / sxx
	return max(iid, clustered)
}

// minPeakLives is the fewest arbiter processes whose peaks are judged.
const minPeakLives = 8

// peakVerdict is the check of the arbiter's peak memory: a process that resumes a run reads its
// records file, and must not need more memory the more games the file holds. Its peak comes
// as it starts, before it is at work, so the tests above do not see it.
type peakVerdict struct {
	Lives   int
	Level   float64 // median of the peaks, KiB
	Limit   float64 // growth allowed, KiB (as for RSS)
	Growth  growth  // of a life's peak against the games the file held when it started
	Decided bool
	Flat    bool
}

func (v peakVerdict) String() string {
	if !v.Decided {
		return fmt.Sprintf("peak RSS of each process: %d processes, too few to judge (%d needed); not judged", v.Lives, minPeakLives)
	}
	verdict := "flat"
	if !v.Flat {
		verdict = "NOT FLAT"
	}
	return fmt.Sprintf("peak RSS of each process against the games it resumed from: level %.1f MiB, growth allowed %.1f MiB; %+.1f KiB a game over %d games = %+.1f ± %.1f MiB (%d processes): %s",
		v.Level/1024, v.Limit/1024, v.Growth.Slope, v.Growth.Span, v.Growth.Total/1024, v.Growth.Error/1024, v.Lives, verdict)
}

// judgePeaks fits each process's peak resident memory against the games in the records file
// as it started.
func judgePeaks(samples []Sample) peakVerdict {
	type life struct {
		games int
		peak  int64
	}
	var lives []life
	index := make(map[int]int)
	for _, s := range samples {
		i, ok := index[s.Life]
		if !ok {
			i = len(lives)
			index[s.Life] = i
			lives = append(lives, life{games: s.Games - s.LifeGames})
		}
		lives[i].peak = max(lives[i].peak, s.RSSKiB)
	}
	var peaks []Sample // one a process: its games at the start and its peak
	var level []float64
	for _, l := range lives {
		peaks = append(peaks, Sample{Games: l.games, RSSKiB: l.peak})
		level = append(level, float64(l.peak))
	}
	v := peakVerdict{Lives: len(lives), Decided: len(lives) >= minPeakLives}
	if !v.Decided {
		return v
	}
	c := flatCriteria["RSS"]
	v.Level = median(level)
	v.Limit = v.Level*(c.Ratio-1) + c.Slack
	v.Growth = pooledGrowth("RSS", peaks, func(Sample) stretch { return stretch{} }, func(s Sample) int { return s.Games })
	v.Flat = v.Growth.within(v.Limit)
	return v
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
