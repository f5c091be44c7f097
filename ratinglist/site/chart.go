package site

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/ratinglist"
)

// The chart's size in SVG units; the page scales it to its width.
const (
	chartWidth, chartHeight        = 720, 300
	chartLeft, chartRight          = 64, 24
	chartTop, chartBottom          = 20, 44
	chartPlotWidth, chartPlotHight = chartWidth - chartLeft - chartRight, chartHeight - chartTop - chartBottom
)

// chart is an engine's versions' ratings, each with its 95% interval, at the date of its
// first game: the SVG the engine page draws, with every coordinate computed here.
type chart struct {
	Width, Height          float64
	Left, Right, Top, Base float64 // the plot's edges
	YTicks, XTicks         []tick
	Points                 []point
	Line                   string // the polyline through the points, in time order
	Title                  string
}

type tick struct {
	At    float64
	Label string
}

type point struct {
	X, Y, Low, High float64
	Bar             bool // an error bar: not for the anchor, whose rating is fixed
	Label, Title    string
}

// newChart charts the rated versions that have played; nil when none has.
func newChart(rows []ratinglist.Row) *chart {
	var rated []ratinglist.Row
	for _, r := range rows {
		if r.Rated && !r.First.IsZero() {
			rated = append(rated, r)
		}
	}
	if len(rated) == 0 {
		return nil
	}
	slices.SortStableFunc(rated, func(a, b ratinglist.Row) int { return a.First.Compare(b.First) })
	t0, t1 := rated[0].First, rated[len(rated)-1].First
	if span := t1.Sub(t0); span < 24*time.Hour {
		// One day at least, centred on the games, so that a lone point sits in the middle.
		pad := (24*time.Hour - span) / 2
		t0, t1 = t0.Add(-pad), t1.Add(pad)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rated {
		lo, hi = min(lo, r.Elo-r.Error), max(hi, r.Elo+r.Error)
	}
	eloStep := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/eloStep)*eloStep, math.Ceil(hi/eloStep)*eloStep
	if hi-lo < eloStep {
		lo, hi = lo-eloStep, hi+eloStep
	}
	c := &chart{Width: chartWidth, Height: chartHeight, Left: chartLeft, Right: chartWidth - chartRight,
		Top: chartTop, Base: chartHeight - chartBottom, Title: "Rating of each version (95% interval) at its first game"}
	x := func(t time.Time) float64 {
		return round1(chartLeft + 8 + (chartPlotWidth-16)*float64(t.Sub(t0))/float64(t1.Sub(t0)))
	}
	y := func(e float64) float64 { return round1(chartTop + chartPlotHight*(hi-e)/(hi-lo)) }
	for e := lo; e <= hi+eloStep/2; e += eloStep {
		c.YTicks = append(c.YTicks, tick{y(e), strconv.FormatFloat(e, 'f', -1, 64)})
	}
	day := 24 * time.Hour
	step := day
	for _, days := range []int{2, 7, 14, 28, 91, 182, 364} {
		if t1.Sub(t0) <= 6*step {
			break
		}
		step = time.Duration(days) * day
	}
	for at := t0.UTC().Truncate(day); !at.After(t1); at = at.Add(step) {
		if !at.Before(t0) {
			c.XTicks = append(c.XTicks, tick{x(at), at.Format(firstGameLayout)})
		}
	}
	var line []string
	for _, r := range rated {
		p := point{X: x(r.First), Y: y(r.Elo), Low: y(r.Elo - r.Error), High: y(r.Elo + r.Error),
			Bar: r.Status != ratinglist.StatusAnchor && r.Error > 0, Label: r.Version,
			Title: fmt.Sprintf("%s: %.0f ± %.0f Elo, first game %s", r.Player, r.Elo, r.Error, r.First.UTC().Format(firstGameLayout))}
		c.Points = append(c.Points, p)
		line = append(line, fmt.Sprintf("%g,%g", p.X, p.Y))
	}
	c.Line = strings.Join(line, " ")
	return c
}

// niceStep is the tick step of 1, 2, 2.5 or 5 times a power of ten nearest above raw.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 10
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			return max(m*p, 5)
		}
	}
	return 10 * p
}

func round1(x float64) float64 { return math.Round(10*x) / 10 }
