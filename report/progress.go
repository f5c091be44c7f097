package report

import (
	"cmp"
	"slices"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// progressOf replays the statistics point by point in schedule order, as the arbiter's SPRT
// counts them: a point is a complete game pair (ordered by run and pair index), or a game when
// no game has its colour-swapped partner among the records.
func progressOf(recs []*results.Record, engines []string, test *elo.SPRT) Progress {
	type pairKey struct {
		run  string
		pair int
	}
	byPair := make(map[pairKey][]*results.Record)
	for _, r := range recs {
		k := pairKey{r.Run, r.Pair}
		byPair[k] = append(byPair[k], r)
	}
	var points [][]*results.Record // each a complete pair, games in schedule order
	for _, games := range byPair {
		if len(games) == 2 && games[0].White.Name == games[1].Black.Name && games[0].Black.Name == games[1].White.Name {
			g := slices.Clone(games)
			slices.SortFunc(g, func(a, b *results.Record) int { return cmp.Compare(a.Game, b.Game) })
			points = append(points, g)
		}
	}
	unit := "pairs"
	if len(points) == 0 {
		unit = "games"
		for _, r := range recs {
			points = append(points, []*results.Record{r})
		}
	}
	slices.SortFunc(points, func(a, b []*results.Record) int {
		return cmp.Or(cmp.Compare(a[0].Run, b[0].Run), cmp.Compare(a[0].Game, b[0].Game))
	})

	curves := engines
	if len(engines) == 2 {
		curves = engines[:1]
	}
	p := Progress{Unit: unit, Elo: make([]EloCurve, len(curves))}
	for i, e := range curves {
		p.Elo[i] = EloCurve{Engine: e, Elo: []num{}, Lower: []num{}, Upper: []num{}}
	}
	var sprt *SPRTCurve
	if test != nil && len(engines) == 2 {
		lower, upper := test.Bounds()
		sprt = &SPRTCurve{LLR: []num{}, Lower: num(lower), Upper: num(upper), Elo0: num(test.Elo0), Elo1: num(test.Elo1),
			Model: test.Model.String(), Decision: elo.Continue.String()}
		p.SPRT = sprt
	}

	pairs := make([]elo.PairCounts, len(curves))
	wdls := make([]elo.WDL, len(curves))
	for n, games := range points {
		for i, e := range curves {
			if !plays(games[0], e) {
				continue
			}
			if len(games) == 2 {
				pairs[i].AddPair(games[0].ScoreOf(e), games[1].ScoreOf(e))
			} else {
				wdls[i] = wdls[i].Add(results.ScoreWDL(games[0].ScoreOf(e)))
			}
		}
		for i := range curves {
			est := elo.TrinomialEstimate(wdls[i])
			if unit == "pairs" {
				est = elo.PentanomialEstimate(pairs[i].Pentanomial())
			}
			c := &p.Elo[i]
			if est.StdErr == 0 {
				// Every result alike: a score strictly between 0 and 1 (every pair drawn, say)
				// is a finite Elo with no spread to draw a band from; all won or all lost is
				// an infinite one, not drawn.
				value := null
				if est.Degeneracy == elo.NoSpread {
					value = num(est.Elo)
				}
				c.Elo, c.Lower, c.Upper = append(c.Elo, value), append(c.Lower, null), append(c.Upper, null)
				continue
			}
			if est.Unbounded {
				// The 95% interval reaches a score of 0 or 1, where Elo is infinite: no band is
				// drawn rather than a clamped one that looks finite.
				c.Elo, c.Lower, c.Upper = append(c.Elo, num(est.Elo)), append(c.Lower, null), append(c.Upper, null)
				continue
			}
			lo, hi := est.Interval()
			c.Elo, c.Lower, c.Upper = append(c.Elo, num(est.Elo)), append(c.Lower, num(lo)), append(c.Upper, num(hi))
		}
		if sprt != nil {
			llr := test.LLR(pairs[0].Pentanomial())
			if unit == "games" {
				llr = test.LLRTrinomial(wdls[0])
			}
			sprt.LLR = append(sprt.LLR, num(llr))
			if d := test.Status(llr); d != elo.Continue && sprt.DecidedAt == 0 {
				sprt.DecidedAt, sprt.Decision = n+1, d.String()
			}
		}
	}
	return p
}

func plays(r *results.Record, engine string) bool {
	return r.White.Name == engine || r.Black.Name == engine
}

// ProgressOf is the progress curves of records alone (Build's Data.Progress), without the
// game list and the replays that Build makes: for pages that draw the curves themselves.
func ProgressOf(recs []results.Record, engines []string, test *elo.SPRT) Progress {
	ptrs := make([]*results.Record, len(recs))
	for i := range recs {
		ptrs[i] = &recs[i]
	}
	return progressOf(ptrs, engines, test)
}
