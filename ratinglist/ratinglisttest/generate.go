package ratinglisttest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"hivearbiter/ratinglist"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// Start is when the first synthetic game finishes; game k finishes k minutes later.
var Start = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// drawRatio is the share of the games between equals that are drawn, as in Hive engine
// matches at short time controls.
const drawRatio = 0.3

// whiteAdvantage is the Elo bonus of moving first in the games drawn.
const whiteAdvantage = 30

// Synthetic returns a normalized list of entrants of random true strength (two versions of
// each engine name, the first entrant the anchor at 1000) and games between them drawn from
// the Elo model with draws. Entrants join one after another over the first half of the games,
// so that their first games spread over time, as a list's do; a few games end by a time
// forfeit. The moves of each game are one of a few random legal games, so that its PGN has a
// game's length. The same arguments give the same list and records.
func Synthetic(entrants, games int, seed uint64) (*ratinglist.List, []results.Record) {
	if entrants < 2 {
		panic("ratinglisttest: a list needs two entrants")
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	l := &ratinglist.List{
		Name:     "Synthetic list",
		GameType: rules.BaseMLP.String(),
		Limit:    []string{"tc=60+0.6"},
		Seed:     int64(seed),
	}
	strength := make([]float64, entrants)
	joins := make([]int, entrants) // the game index from which each entrant plays
	programs := make([]string, entrants)
	for i := range entrants {
		l.Entrants = append(l.Entrants, ratinglist.Entrant{
			Name:    fmt.Sprintf("Engine %02d", i/2),
			Version: fmt.Sprintf("1.%d", i%2),
			Author:  fmt.Sprintf("Author %d", i/2),
		})
		strength[i] = 200 * rng.NormFloat64()
		if i >= 2 {
			joins[i] = i * games / (2 * entrants)
		}
		programs[i] = fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64())
	}
	l.Anchor = ratinglist.Anchor{Entrant: l.Entrants[0].Player(), Elo: ratinglist.DefaultAnchorElo}
	if err := l.Normalize(); err != nil {
		panic(err)
	}
	id := l.ID()
	played := randomGames(rng, 16)
	recs := make([]results.Record, games)
	open := 2 // entrants that have joined
	for k := range recs {
		for open < entrants && joins[open] <= k {
			open++
		}
		// The newest entrant plays half the games, as its gauntlet.
		w := open - 1
		if rng.IntN(2) == 0 {
			w = rng.IntN(open)
		}
		b := rng.IntN(open - 1)
		if b >= w {
			b++
		}
		if rng.IntN(2) == 0 {
			w, b = b, w
		}
		moves := played[rng.IntN(len(played))]
		r := results.Record{
			Schema:       results.SchemaVersion,
			Run:          "synthetic",
			Game:         k,
			Round:        k/2 + 1,
			Pair:         k / 2,
			White:        results.Player{Name: l.Entrants[w].Player(), Time: "60+0.6", Program: programs[w]},
			Black:        results.Player{Name: l.Entrants[b].Player(), Time: "60+0.6", Program: programs[b]},
			Opening:      l.GameType + ";NotStarted;White[1]",
			OpeningIndex: -1,
			GameType:     l.GameType,
			Moves:        moves,
			Started:      Start.Add(time.Duration(k)*time.Minute - 50*time.Second),
			Finished:     Start.Add(time.Duration(k) * time.Minute),
			Arbiter:      "synthetic",
			Seed:         int64(seed),
			Settings: map[string]string{
				ratinglist.LabelList:    id,
				ratinglist.LabelEntrant: l.Entrants[max(w, b)].Player(),
				ratinglist.LabelBatch:   fmt.Sprint(k/64 + 1),
			},
		}
		expected := 1 / (1 + math.Pow(10, -(strength[w]-strength[b]+whiteAdvantage)/400))
		// Draws are likeliest between equals and never make the expected score impossible.
		draw := min(drawRatio, 2*expected, 2*(1-expected))
		switch u := rng.Float64(); {
		case u < 0.002:
			r.Result, r.Reason, r.Culprit, r.Detail = results.BlackWins, results.ReasonTimeForfeit, "White", "White's clock fell"
		case u < expected-draw/2:
			r.Result, r.Reason, r.Detail = results.WhiteWins, results.ReasonQueenSurrounded, "Black's queen is surrounded"
		case u < expected+draw/2:
			r.Result, r.Reason, r.Detail = results.Draw, results.ReasonRepetition, "the position repeated 3 times"
		default:
			r.Result, r.Reason, r.Detail = results.BlackWins, results.ReasonQueenSurrounded, "White's queen is surrounded"
		}
		recs[k] = r
	}
	return l, recs
}

// randomGames plays n random legal games of 30 to 90 plies and returns their moves, each move
// with a thinking time.
func randomGames(rng *rand.Rand, n int) [][]results.Move {
	out := make([][]results.Move, n)
	for i := range out {
		g := rules.NewGame(rules.BaseMLP)
		for range 30 + rng.IntN(60) {
			moves := g.ValidMoves()
			if len(moves) == 0 {
				break
			}
			if err := g.PlayMove(moves[rng.IntN(len(moves))]); err != nil {
				panic(err)
			}
		}
		for _, m := range g.Moves() {
			out[i] = append(out[i], results.Move{Move: m, Millis: 200 + rng.Int64N(1800)})
		}
	}
	return out
}
