package report

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// Data is everything a page shows, computed in Go: the page's script only draws it. It is
// embedded in the page as JSON.
type Data struct {
	Title   string   `json:"title"`
	Engines []string `json:"engines"`
	Games   int      `json:"games"`
	// Planned is the number of games scheduled, when known (a running match).
	Planned int `json:"planned,omitempty"`
	// Tables is the text the arbiter prints: the result block, or the field, rating and cross
	// tables, and the faults.
	Tables       string        `json:"tables"`
	Progress     Progress      `json:"progress"`
	Openings     OpeningScores `json:"openings"`
	Terminations Terminations  `json:"terminations"`
	Times        []MoveTimes   `json:"times"`
	// Lengths counts the games by their length in plies, opening included: Lengths[n] games
	// lasted n plies.
	Lengths []int       `json:"lengths"`
	Timing  []TimingRow `json:"timing"`
	List    []Game      `json:"list"`
}

// Progress is how the statistics developed as game pairs were played, in schedule order.
type Progress struct {
	// Unit is what a point stands for: "pairs" (complete game pairs) or, when the games are
	// not played in pairs, "games".
	Unit string `json:"unit"`
	// Elo has one curve per engine against the field (for two engines, the first engine's).
	Elo  []EloCurve `json:"elo"`
	SPRT *SPRTCurve `json:"sprt,omitempty"`
}

// EloCurve is an engine's Elo estimate after each point with its 95% interval: the interval is
// null where the results have no spread yet or it reaches a score of 0 or 1, the estimate too
// where every result so far was won or every one lost (an infinite Elo).
type EloCurve struct {
	Engine string `json:"engine"`
	Elo    []num  `json:"elo"`
	Lower  []num  `json:"lower"`
	Upper  []num  `json:"upper"`
}

// SPRTCurve is the LLR of the first engine after each point, and the test's bounds.
type SPRTCurve struct {
	LLR      []num  `json:"llr"`
	Lower    num    `json:"lower"`
	Upper    num    `json:"upper"`
	Elo0     num    `json:"elo0"`
	Elo1     num    `json:"elo1"`
	Model    string `json:"model"`
	Decision string `json:"decision"`
	// DecidedAt is the point at which the LLR first crossed a bound (from 1), 0 if never.
	DecidedAt int `json:"decided_at"`
}

// OpeningScores is the score of each opening, for the first engine of a two-engine match and
// for White otherwise.
type OpeningScores struct {
	Of   string         `json:"of"`
	List []OpeningScore `json:"list"`
}

// OpeningScore is the result of the games played from one opening.
type OpeningScore struct {
	Index  int    `json:"index"` // in the openings' source; -1 for none
	Moves  string `json:"moves"` // the opening's MoveStrings, joined by ";"
	Games  int    `json:"games"`
	Points num    `json:"points"`
}

// Terminations counts how each engine's games ended: Count[e][r] is {won, drawn, lost} for
// engine e and reason Reasons[r].
type Terminations struct {
	Reasons []results.Reason `json:"reasons"`
	Count   [][][3]int       `json:"count"`
}

// MoveTimes is an engine's thinking time and clock by its move number in a game (its first
// move after the opening is 1): the averages over the games that lasted that long.
type MoveTimes struct {
	Engine string `json:"engine"`
	Millis []num  `json:"ms"`
	// Clock is the time left after the move, null for moves not played on a clock.
	Clock []num `json:"clock"`
}

// maxMoveNumber bounds the move numbers the time curves show.
const maxMoveNumber = 200

// TimingRow is one engine's row of the time table.
type TimingRow struct {
	Engine     string `json:"engine"`
	Moves      int    `json:"moves"`
	MeanMillis num    `json:"mean_ms"`
	MaxMillis  int64  `json:"max_ms"`
	Overruns   int    `json:"overruns"`
	Faults     int    `json:"faults"`
}

// Game is one game for the list and the replayer, compact because a report holds thousands.
type Game struct {
	Index   int    `json:"n"` // in the schedule
	Round   int    `json:"round"`
	Pair    int    `json:"pair"`
	White   int    `json:"w"` // in Data.Engines
	Black   int    `json:"b"`
	Result  string `json:"r"` // WhiteWins, BlackWins, Draw; empty while the game is played
	Reason  string `json:"why,omitempty"`
	Culprit string `json:"culprit,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Type    string `json:"type"`
	// OpeningPlies is how many of the plies are the opening's.
	OpeningPlies int `json:"open"`
	// Deltas holds deltaWidth characters per ply, opening included (see replay.go): the
	// parts of its MoveString, enough to rebuild the referee's position at any ply and to
	// write the move.
	Deltas string `json:"x"`
	// Millis is the thinking time of each ply after the opening.
	Millis []int64 `json:"ms"`
	// StartClock and Increment are each side's clock before its first move and its increment,
	// in milliseconds, when either side plays on a clock (-1 for a side that does not).
	// ClockDrift is, for each ply after the opening, the mover's recorded clock less the clock
	// predicted from them (see clocks).
	StartClock *[2]int64 `json:"clock0,omitempty"`
	Increment  *[2]int64 `json:"inc,omitempty"`
	ClockDrift []int64   `json:"drift,omitempty"`
	Warnings   []string  `json:"warn,omitempty"`
	// Error says why the game could not be replayed to its end.
	Error string `json:"error,omitempty"`
}

// num is a number as the page shows it: two decimals, null when not a finite number.
type num float64

var null = num(math.NaN())

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	b := strconv.AppendFloat(nil, f, 'f', 2, 64)
	b = bytes.TrimRight(b, "0")
	b = bytes.TrimSuffix(b, []byte("."))
	if string(b) == "-0" {
		b = []byte("0")
	}
	return b, nil
}

// Options describe what the records alone do not say.
type Options struct {
	Title string
	// Engines lists the engines in the tournament's order, for a stable page; engines found
	// in the records are added after them.
	Engines []string
	// SPRT, if set, is the test of the first engine against the second whose LLR is drawn.
	SPRT *elo.SPRT
	// Planned is the number of games scheduled, for a progress bar.
	Planned int
}

// Build computes a page's data from records, which must hold one game each (as
// results.ReadFiles returns them). Games whose moves do not replay through the referee are
// listed with the error and the plies that did replay.
func Build(recs []results.Record, opts Options) *Data {
	c := newCollector(opts)
	for i := range recs {
		c.add(&recs[i])
	}
	return c.data()
}

// collector accumulates records into a page's data, one record at a time.
type collector struct {
	opts    Options
	timings *results.Timings
	engines []string
	index   map[string]int
	recs    []*results.Record // kept without moves: what the tables and curves need
	games   []Game
	// openings, by opening key, in the order first seen.
	openings map[string]*openingTally
	openKeys []string
	ends     map[results.Reason]*[][3]int
	times    [][maxMoveNumber][4]float64 // per engine and move number: ms sum, count, clock sum, count
	lengths  []int
}

func newCollector(opts Options) *collector {
	c := &collector{
		opts: opts, timings: results.NewTimings(nil, opts.Engines),
		index: make(map[string]int), openings: make(map[string]*openingTally), ends: make(map[results.Reason]*[][3]int),
	}
	for _, e := range opts.Engines {
		c.engine(e)
	}
	return c
}

func (c *collector) engine(name string) int {
	if i, ok := c.index[name]; ok {
		return i
	}
	c.index[name] = len(c.engines)
	c.engines = append(c.engines, name)
	c.times = append(c.times, [maxMoveNumber][4]float64{})
	return len(c.engines) - 1
}

func (c *collector) add(r *results.Record) {
	c.timings.Add(r)
	w, b := c.engine(r.White.Name), c.engine(r.Black.Name)
	g := gameOf(r, w, b)
	c.games = append(c.games, g)

	light := *r
	light.Moves, light.GameString, light.Detail, light.Warnings = nil, "", "", nil
	c.recs = append(c.recs, &light)

	c.addOpening(r)
	c.addEnd(r, w, b)
	c.addTimes(r, w, b, g.OpeningPlies)
	plies := g.OpeningPlies + len(r.Moves)
	for len(c.lengths) <= plies {
		c.lengths = append(c.lengths, 0)
	}
	c.lengths[plies]++
}

// gameOf replays a record for the list and the replayer.
func gameOf(r *results.Record, w, b int) Game {
	moves := make([]string, len(r.Moves))
	ms := make([]int64, len(r.Moves))
	for i, m := range r.Moves {
		moves[i], ms[i] = m.Move, m.Millis
	}
	rp := replayGame(r.Opening, moves)
	g := Game{
		Index: r.Game, Round: r.Round, Pair: r.Pair, White: w, Black: b,
		Result: r.Result, Reason: string(r.Reason), Culprit: r.Culprit, Detail: r.Detail,
		Type: cmp.Or(rp.gameType, r.GameType), OpeningPlies: rp.opening,
		Deltas: rp.deltas.String(), Millis: ms, Warnings: results.WarningTexts(r.Warnings),
	}
	if rp.err != nil {
		g.Error = rp.err.Error()
	}
	if c, ok := newClocks(r.White.Time, r.Black.Time); ok {
		start, inc := c.left, c.inc
		g.StartClock, g.Increment = &start, &inc
		g.ClockDrift = make([]int64, len(r.Moves))
		for i, m := range r.Moves {
			g.ClockDrift[i] = c.drift((g.OpeningPlies+i)%2, m)
		}
	}
	return g
}

// openingTally is the results of one opening, for White and for the first engine: which one
// the page shows depends on how many engines there are in the end.
type openingTally struct {
	index       int
	moves       string
	games       int
	whitePoints float64
	firstGames  int
	firstPoints float64
}

// openingMoves returns the MoveStrings of an opening GameString, joined by ";".
func openingMoves(gameString string) string {
	fields := strings.SplitN(gameString, ";", 4)
	if len(fields) < 4 {
		return ""
	}
	return fields[3]
}

func (c *collector) addOpening(r *results.Record) {
	key := fmt.Sprintf("%d;%s", r.OpeningIndex, r.Opening)
	o := c.openings[key]
	if o == nil {
		o = &openingTally{index: r.OpeningIndex, moves: openingMoves(r.Opening)}
		c.openings[key] = o
		c.openKeys = append(c.openKeys, key)
	}
	o.games++
	o.whitePoints += r.WhiteScore()
	if first := c.engines[0]; r.White.Name == first || r.Black.Name == first {
		o.firstGames++
		o.firstPoints += r.ScoreOf(first)
	}
}

func (c *collector) addEnd(r *results.Record, w, b int) {
	counts := c.ends[r.Reason]
	if counts == nil {
		counts = &[][3]int{}
		c.ends[r.Reason] = counts
	}
	for len(*counts) < len(c.engines) {
		*counts = append(*counts, [3]int{})
	}
	ws := r.WhiteScore()
	(*counts)[w][outcome(ws)]++
	(*counts)[b][outcome(1-ws)]++
}

// outcome is the column of a score in Terminations: won, drawn, lost.
func outcome(score float64) int {
	switch score {
	case 1:
		return 0
	case 0:
		return 2
	}
	return 1
}

func (c *collector) addTimes(r *results.Record, w, b, openingPlies int) {
	side := openingPlies % 2
	engines := [2]int{w, b}
	var number [2]int
	for _, m := range r.Moves {
		if n := number[side]; n < maxMoveNumber {
			t := &c.times[engines[side]][n]
			t[0] += float64(m.Millis)
			t[1]++
			if m.ClockMillis != nil {
				t[2] += float64(*m.ClockMillis)
				t[3]++
			}
		}
		number[side]++
		side ^= 1
	}
}

// reasonOrder is the order of the reasons in the terminations chart: results of play first.
var reasonOrder = []results.Reason{
	results.ReasonQueenSurrounded, results.ReasonForfeit, results.ReasonMoveLimit, results.ReasonRepetition,
	results.ReasonTimeForfeit, results.ReasonIllegalMove, results.ReasonIllegalPass, results.ReasonCrash,
	results.ReasonStall, results.ReasonProtocol, results.ReasonDesync, results.ReasonFalseClaim,
}

func (c *collector) data() *Data {
	d := &Data{
		Title: cmp.Or(c.opts.Title, "Hive Arbiter report"), Engines: c.engines, Games: len(c.games),
		Planned: c.opts.Planned, Lengths: c.lengths, List: c.games,
	}
	if d.Lengths == nil {
		d.Lengths = []int{}
	}
	if d.List == nil {
		d.List = []Game{}
	}
	// The tally is made afresh in the engines' order: a live page learns engines as games
	// start, before their games finish.
	recs := make([]results.Record, len(c.recs))
	for i, r := range c.recs {
		recs[i] = *r
	}
	d.Tables = tablesText(results.NewTally(recs, c.engines), c.opts.SPRT)
	d.Progress = progressOf(c.recs, c.engines, c.opts.SPRT)

	d.Openings.Of = "White"
	if len(c.engines) == 2 {
		d.Openings.Of = c.engines[0]
	}
	d.Openings.List = []OpeningScore{}
	for _, k := range c.openKeys {
		o := c.openings[k]
		score := OpeningScore{Index: o.index, Moves: o.moves, Games: o.games, Points: num(o.whitePoints)}
		if len(c.engines) == 2 {
			score.Games, score.Points = o.firstGames, num(o.firstPoints)
		}
		d.Openings.List = append(d.Openings.List, score)
	}
	slices.SortStableFunc(d.Openings.List, func(a, b OpeningScore) int { return cmp.Compare(a.Index, b.Index) })

	d.Terminations = Terminations{Reasons: []results.Reason{}, Count: [][][3]int{}}
	for range c.engines {
		d.Terminations.Count = append(d.Terminations.Count, [][3]int{})
	}
	reasons := append([]results.Reason(nil), reasonOrder...)
	for r := range c.ends {
		if !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	for _, r := range reasons {
		counts := c.ends[r]
		if counts == nil {
			continue
		}
		d.Terminations.Reasons = append(d.Terminations.Reasons, r)
		for e := range c.engines {
			var n [3]int
			if e < len(*counts) {
				n = (*counts)[e]
			}
			d.Terminations.Count[e] = append(d.Terminations.Count[e], n)
		}
	}

	for e, name := range c.engines {
		mt := MoveTimes{Engine: name, Millis: []num{}, Clock: []num{}}
		for _, t := range c.times[e] {
			if t[1] == 0 {
				break
			}
			mt.Millis = append(mt.Millis, num(t[0]/t[1]))
			if t[3] > 0 {
				mt.Clock = append(mt.Clock, num(t[2]/t[3]))
			} else {
				mt.Clock = append(mt.Clock, null)
			}
		}
		d.Times = append(d.Times, mt)
	}
	timings := slices.Clone(c.timings.Engines)
	slices.SortStableFunc(timings, func(a, b *results.Timing) int { return cmp.Compare(c.index[a.Name], c.index[b.Name]) })
	for _, t := range timings {
		d.Timing = append(d.Timing, TimingRow{Engine: t.Name, Moves: t.Moves, MeanMillis: num(t.MeanMillis()),
			MaxMillis: t.MillisMax, Overruns: t.Overruns, Faults: t.Faults})
	}
	return d
}

// tablesText is what "arbiter stats" prints for the same records (the page shows the time
// table as a table of its own).
func tablesText(tally *results.Tally, test *elo.SPRT) string {
	var b strings.Builder
	if tally.Games == 0 {
		return "No games finished yet.\n"
	}
	if len(tally.Players) == 2 {
		first, second := tally.Players[0].Name, tally.Players[1].Name
		p := tally.Pairing(first, second)
		var line *render.SPRTLine
		if test != nil && p != nil {
			llr := test.LLR(p.Pairs.Pentanomial())
			lower, upper := test.Bounds()
			line = &render.SPRTLine{LLR: llr, Lower: lower, Upper: upper, Elo0: test.Elo0, Elo1: test.Elo1}
		}
		if p != nil {
			render.WriteMatchBlock(&b, p, render.MatchInfo{SPRT: line})
		}
	} else {
		if err := render.WriteFieldTable(&b, tally); err != nil {
			fmt.Fprintf(&b, "field table: %v\n", err)
		}
		if r, err := results.FitRatings(tally); err == nil {
			if err := render.WriteRatingTable(&b, tally, r); err != nil {
				fmt.Fprintf(&b, "rating table: %v\n", err)
			}
		} else {
			fmt.Fprintf(&b, "No maximum-likelihood ratings: %v\n", err)
		}
		if err := render.WriteCrossTable(&b, tally.CrossTable()); err != nil {
			fmt.Fprintf(&b, "cross table: %v\n", err)
		}
	}
	if err := render.WriteFaults(&b, tally); err != nil {
		fmt.Fprintf(&b, "faults table: %v\n", err)
	}
	return b.String()
}
