//go:build linux

package main

import (
	"fmt"
	"slices"
	"time"
)

// flatness is the criterion a sampled quantity must meet to be called flat: after the
// warm-up of each arbiter process, the median of the last quarter of the samples may exceed
// the median of the second quarter by at most Ratio, plus Slack (in the quantity's unit) for
// small counts. The first quarter is left out: a process's heap and its pools of engines
// and goroutines grow there to their working size.
type flatness struct {
	Ratio float64
	Slack float64
}

// flatCriteria are the soak's: memory may drift 25% (the Go collector lets the heap grow
// to twice the live data, and the RSS follows it in steps), goroutines and descriptors 10%
// plus a few, since they move with the engines running at the moment of the sample.
var flatCriteria = map[string]flatness{
	"RSS":        {Ratio: 1.25, Slack: 2048},
	"goroutines": {Ratio: 1.10, Slack: 4},
	"fds":        {Ratio: 1.10, Slack: 4},
}

// minFlatSamples is the fewest samples judged: ten a quarter, so that the medians are not
// those of a moment (the engines alive at a sample move the descriptors by a dozen).
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

// flatVerdict is one quantity's check.
type flatVerdict struct {
	Name     string
	Q2, Q4   float64 // medians of the second and last quarter
	Limit    float64
	Samples  int
	Flat     bool
	Decided  bool // there were enough samples to judge
	Criteria flatness
}

func (v flatVerdict) String() string {
	if !v.Decided {
		return fmt.Sprintf("%s: %d samples after warm-up, too few to judge", v.Name, v.Samples)
	}
	verdict := "flat"
	if !v.Flat {
		verdict = "NOT FLAT"
	}
	return fmt.Sprintf("%s: median of the last quarter %.0f, of the second %.0f (limit %.0f = x%.2f + %.0f, %d samples): %s",
		v.Name, v.Q4, v.Q2, v.Limit, v.Criteria.Ratio, v.Criteria.Slack, v.Samples, verdict)
}

// judgeFlat applies the criterion to the samples taken after warmup in each process.
func judgeFlat(name string, samples []Sample, warmup time.Duration, c flatness) flatVerdict {
	var xs []float64
	for _, s := range samples {
		if x := quantity(name, s); s.Up >= warmup && x >= 0 {
			xs = append(xs, x)
		}
	}
	v := flatVerdict{Name: name, Samples: len(xs), Criteria: c}
	if len(xs) < minFlatSamples {
		return v
	}
	q := len(xs) / 4
	v.Q2, v.Q4 = median(xs[q:2*q]), median(xs[len(xs)-q:])
	v.Limit = v.Q2*c.Ratio + c.Slack
	v.Flat, v.Decided = v.Q4 <= v.Limit, true
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

// around summarizes the samples near a moment of the run (a fraction of it, 0 to 1): the
// medians of the tenth of the samples there.
func around(samples []Sample, at float64) string {
	if len(samples) == 0 {
		return "no samples"
	}
	n := max(len(samples)/10, 1)
	i := min(int(at*float64(len(samples)-n)), len(samples)-n)
	part := samples[i : i+n]
	var rss, fds, gor []float64
	for _, s := range part {
		rss, fds = append(rss, float64(s.RSSKiB)), append(fds, float64(s.FDs))
		if s.Goroutines >= 0 {
			gor = append(gor, float64(s.Goroutines))
		}
	}
	g := "?"
	if len(gor) > 0 {
		g = fmt.Sprintf("%.0f", median(gor))
	}
	return fmt.Sprintf("%5.1f MiB RSS, %s goroutines, %.0f fds (games %d-%d, %d samples)",
		median(rss)/1024, g, median(fds), part[0].Games, part[len(part)-1].Games, n)
}
