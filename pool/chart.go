package pool

import (
	"math"
	"strconv"
	"strings"
)

// The charts' size in SVG units; the page scales them to its width.
const (
	chartWidth, chartHeight = 640, 220
	chartLeft, chartRight   = 52, 16
	chartTop, chartBottom   = 14, 34
	// chartPoints bounds the points a curve is drawn with: a run of 20,000 pairs is drawn
	// with one point in 40, which a 640-unit-wide chart cannot tell from all of them.
	chartPoints = 500
)

// chart is a curve over a run's pairs (the LLR, or the Elo with its 95% band), drawn by the
// test page as inline SVG with every coordinate computed here: no script draws it.
type chart struct {
	Width, Height          float64
	Left, Right, Top, Base float64 // the plot's edges
	Title, Unit            string  // what it shows; what the x axis counts
	YTicks, XTicks         []chartTick
	// Rules are horizontal lines across the plot (the SPRT's bounds, zero), each labelled.
	Rules []chartRule
	Line  string // the curve's polyline points
	Band  string // the 95% band's polygon points, "" for none
}

type chartTick struct {
	At    float64
	Label string
}

type chartRule struct {
	At    float64
	Label string
	Class string
}

// series is a curve to chart: values by point (NaN where there is none yet), with an optional
// band of the same length.
type series struct {
	values, lower, upper []float64
	rules                []chartRule // At holds the value, not yet the coordinate
}

// newChart charts s, or returns nil when it has no value to draw.
func newChart(title, unit string, s series) *chart {
	n := len(s.values)
	lo, hi := math.Inf(1), math.Inf(-1)
	seen := false
	for i, v := range s.values {
		for _, x := range []float64{v, at(s.lower, i), at(s.upper, i)} {
			if finite(x) {
				lo, hi, seen = min(lo, x), max(hi, x), true
			}
		}
	}
	if !seen {
		return nil
	}
	for _, r := range s.rules {
		lo, hi = min(lo, r.At), max(hi, r.At)
	}
	step := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi-lo < step {
		lo, hi = lo-step, hi+step
	}
	c := &chart{Width: chartWidth, Height: chartHeight, Left: chartLeft, Right: chartWidth - chartRight,
		Top: chartTop, Base: chartHeight - chartBottom, Title: title, Unit: unit}
	plotWidth, plotHeight := c.Right-c.Left, c.Base-c.Top
	x := func(i int) float64 {
		if n <= 1 {
			return round1(c.Left + plotWidth/2)
		}
		return round1(c.Left + plotWidth*float64(i)/float64(n-1))
	}
	y := func(v float64) float64 { return round1(c.Top + plotHeight*(hi-v)/(hi-lo)) }
	for v := lo; v <= hi+step/2; v += step {
		c.YTicks = append(c.YTicks, chartTick{y(v), strconv.FormatFloat(round1(v), 'f', -1, 64)})
	}
	xStep := max(1, int(niceStep(float64(n)/5)))
	for i := 0; i <= n; i += xStep {
		if i >= 1 {
			c.XTicks = append(c.XTicks, chartTick{x(i - 1), strconv.Itoa(i)})
		}
	}
	for _, r := range s.rules {
		c.Rules = append(c.Rules, chartRule{At: y(r.At), Label: r.Label, Class: r.Class})
	}
	every := max(1, (n+chartPoints-1)/chartPoints)
	var line, upper, lower []string
	for i := 0; i < n; i++ {
		if i%every != 0 && i != n-1 {
			continue
		}
		if v := s.values[i]; finite(v) {
			line = append(line, point(x(i), y(v)))
		}
		if lo, hi := at(s.lower, i), at(s.upper, i); finite(lo) && finite(hi) {
			lower, upper = append(lower, point(x(i), y(lo))), append(upper, point(x(i), y(hi)))
		}
	}
	c.Line = strings.Join(line, " ")
	if len(upper) > 1 {
		for i, j := 0, len(lower)-1; i < j; i, j = i+1, j-1 {
			lower[i], lower[j] = lower[j], lower[i]
		}
		c.Band = strings.Join(append(upper, lower...), " ")
	}
	return c
}

func at(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func point(x, y float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64) + "," + strconv.FormatFloat(y, 'f', -1, 64)
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// niceStep is the tick step of 1, 2 or 5 times a power of ten nearest above raw.
func niceStep(raw float64) float64 {
	if raw <= 0 || !finite(raw) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}
