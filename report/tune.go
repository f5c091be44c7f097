package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"hivearbiter/tune"
)

// TuneData is what the page of an SPSA tune shows, computed in Go like Data: each parameter's
// path over the pairs (as a share of its range, so that parameters of any scale share a
// chart), the step sizes, and the plus side's running score.
type TuneData struct {
	Title  string `json:"title"`
	Engine string `json:"engine"`
	// Games says how the pairs are played, as the tune's header has it.
	Games string `json:"games"`
	// Iterations is the number of pairs the tune plays; Pairs those on record.
	Iterations int         `json:"iterations"`
	Pairs      int         `json:"pairs"`
	Params     []TuneParam `json:"params"`
	// X is the pair count of each point, in the order the updates were applied: 0 is the
	// start, and a long tune is thinned to at most maxTunePoints points (the last always in).
	X []int `json:"x"`
	// Score is the plus side's score in percent over all pairs so far, Recent over the last
	// recentPairs; null at the start.
	Score  []num `json:"score"`
	Recent []num `json:"recent"`
	// Tables is the tune's state as text: the plus side's games, and each parameter's start,
	// value and range, with the values as option words and as a configuration line.
	Tables string `json:"tables"`
}

// TuneParam is one tuned parameter and its curves, one point per TuneData.X.
type TuneParam struct {
	Name  string `json:"name"`
	Min   num    `json:"min"`
	Max   num    `json:"max"`
	Start num    `json:"start"`
	Value num    `json:"value"`
	// Path is the value after each point's pair, as a share of the range in percent.
	Path []num `json:"path"`
	// C is the perturbation c_k of each point's iteration in percent of the range, and R the
	// learning rate r_k = a_k / c_k^2 (the step is r_k c_k per unit of result); null at the
	// start.
	C []num  `json:"c"`
	R []rate `json:"r"`
}

const (
	// maxTunePoints bounds the points of a tune's curves: the page stays small and quick
	// however long the tune.
	maxTunePoints = 1000
	// recentPairs is the window of the recent score.
	recentPairs = 100
)

// tuneCollector accumulates a tune's pairs, one at a time, into a page's data.
type tuneCollector struct {
	h      *tune.Header
	gains  tune.Gains
	theta  [][]float64 // after each pair, the start first
	c, r   [][]float64 // per pair
	sums   []float64   // the plus side's points in the first n pairs, n from 0
	wins   int
	draws  int
	losses int
}

func newTuneCollector(h *tune.Header) *tuneCollector {
	start := make([]float64, len(h.Params))
	for i, p := range h.Params {
		start[i] = p.Start
	}
	return &tuneCollector{h: h, theta: [][]float64{start}, sums: []float64{0},
		gains: tune.Gains{Iterations: h.Iterations, A: h.A, Alpha: h.Alpha, Gamma: h.Gamma}}
}

func (c *tuneCollector) add(r *tune.Record) {
	c.theta = append(c.theta, r.After)
	cs, rs := make([]float64, len(c.h.Params)), make([]float64, len(c.h.Params))
	for i, p := range c.h.Params {
		cs[i] = r.C[i]
		rs[i] = c.gains.Gain(p, r.Iteration) / (r.C[i] * r.C[i])
	}
	c.c, c.r = append(c.c, cs), append(c.r, rs)
	points := 0.0
	for _, g := range r.Games {
		points += g.PlusScore
		switch g.PlusScore {
		case 1:
			c.wins++
		case 0:
			c.losses++
		default:
			c.draws++
		}
	}
	c.sums = append(c.sums, c.sums[len(c.sums)-1]+points)
}

// BuildTune computes the page of a tune from its records (as tune.ReadRecords returns them).
func BuildTune(h *tune.Header, recs []tune.Record) *TuneData {
	c := newTuneCollector(h)
	for i := range recs {
		c.add(&recs[i])
	}
	return c.data()
}

func (c *tuneCollector) data() *TuneData {
	pairs := len(c.sums) - 1
	d := &TuneData{Title: "Tune of " + c.h.Engine, Engine: c.h.Engine, Games: c.h.Games, Iterations: c.h.Iterations, Pairs: pairs}
	step := (pairs + maxTunePoints - 1) / maxTunePoints
	step = max(step, 1)
	for x := 0; x <= pairs; x += step {
		d.X = append(d.X, x)
	}
	if d.X[len(d.X)-1] != pairs {
		d.X = append(d.X, pairs)
	}
	sums := c.sums
	for _, x := range d.X {
		if x == 0 {
			d.Score, d.Recent = append(d.Score, null), append(d.Recent, null)
			continue
		}
		from := max(0, x-recentPairs)
		d.Score = append(d.Score, num(100*sums[x]/float64(2*x)))
		d.Recent = append(d.Recent, num(100*(sums[x]-sums[from])/float64(2*(x-from))))
	}
	last := c.theta[pairs]
	for i, p := range c.h.Params {
		tp := TuneParam{Name: p.Name, Min: num(p.Min), Max: num(p.Max), Start: num(p.Start), Value: num(last[i])}
		span := p.Max - p.Min
		for _, x := range d.X {
			tp.Path = append(tp.Path, num(100*(c.theta[x][i]-p.Min)/span))
			if x == 0 {
				tp.C, tp.R = append(tp.C, null), append(tp.R, rate(math.NaN()))
				continue
			}
			tp.C = append(tp.C, num(100*c.c[x-1][i]/span))
			tp.R = append(tp.R, rate(c.r[x-1][i]))
		}
		d.Params = append(d.Params, tp)
	}
	d.Tables = c.tables(last)
	return d
}

// rate is a learning rate as the page shows it: four significant digits, far below num's two
// decimals; null when not a finite number.
type rate float64

func (r rate) MarshalJSON() ([]byte, error) {
	f := float64(r)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', 4, 64), nil
}

// tables writes the tune's state as text.
func (c *tuneCollector) tables(theta []float64) string {
	var b strings.Builder
	pairs := len(c.sums) - 1
	fmt.Fprintf(&b, "Tune of %s: %d of %d game pairs (%s)\n", c.h.Engine, pairs, c.h.Iterations, c.h.Games)
	games := c.wins + c.draws + c.losses
	score := "-"
	if games > 0 {
		score = strconv.FormatFloat(100*(float64(c.wins)+float64(c.draws)/2)/float64(games), 'f', 1, 64) + " %"
	}
	fmt.Fprintf(&b, "Plus side: +%d =%d -%d, score %s\n\n", c.wins, c.draws, c.losses, score)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "Parameter\tStart\tNow\tMin\tMax\tc_end\tr_end\t\n")
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for i, p := range c.h.Params {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Name, f(p.Start), strconv.FormatFloat(theta[i], 'f', 2, 64), f(p.Min), f(p.Max), f(p.CEnd), f(p.REnd))
	}
	tw.Flush()
	fmt.Fprintf(&b, "\n%s\n%s\n", tune.Words(c.h.Params, theta), tune.TOML(c.h.Params, theta))
	return b.String()
}

// WriteTune writes a self-contained HTML page of a tune: it opens offline, in any browser.
func WriteTune(w io.Writer, d *TuneData) error {
	data, err := dataJSON(d)
	if err != nil {
		return err
	}
	return page(w, d.Title, "tune", "<script id=\"data\" type=\"application/json\">"+string(data)+"</script>\n")
}
