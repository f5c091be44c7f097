package report

import (
	"fmt"
	"math/rand/v2"
	"time"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// synthetic describes records made up for tests and measurements: real legal games of random
// moves, with made-up results, times and clocks.
type synthetic struct {
	engines  []string
	games    int
	minPlies int // each game lasts from minPlies to maxPlies plies, unless the rules end it first
	maxPlies int
	// times of the engines, as records write them ("st=0.5", "10+0.1"); one for all when
	// shorter than engines.
	times []string
}

// records plays the games: pairs of games share a random 2-ply opening with colours swapped,
// and with more than two engines the pairs go round the pairings.
func (s synthetic) records(rng *rand.Rand) []results.Record {
	var pairings [][2]int
	for i := range s.engines {
		for j := i + 1; j < len(s.engines); j++ {
			pairings = append(pairings, [2]int{i, j})
		}
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var recs []results.Record
	var opening string
	for n := range s.games {
		pair := n / 2
		players := pairings[pair%len(pairings)]
		if n%2 == 0 {
			g := rules.NewGame(rules.BaseMLP)
			for range 2 {
				moves := g.ValidMoves()
				g.PlayMove(moves[rng.IntN(len(moves))])
			}
			opening = g.GameString()
		} else {
			players[0], players[1] = players[1], players[0]
		}
		rec := results.Record{
			Schema: results.SchemaVersion, Run: "synthetic", Game: n, Round: 1 + pair/len(pairings), Pair: pair,
			White:   s.player(players[0]),
			Black:   s.player(players[1]),
			Opening: opening, OpeningIndex: pair, GameType: "Base+MLP",
			Started: start.Add(time.Duration(n) * time.Minute), Finished: start.Add(time.Duration(n)*time.Minute + 50*time.Second),
			Arbiter: "test", Seed: 1,
		}
		s.play(rng, &rec)
		recs = append(recs, rec)
	}
	return recs
}

func (s synthetic) player(i int) results.Player {
	tc := s.times[min(i, len(s.times)-1)]
	return results.Player{Name: s.engines[i], ID: s.engines[i] + " 1.0", Time: tc}
}

// play plays random legal moves after the opening, charging made-up thinking times to the
// clocks, and ends the game by the rules or with a made-up result in which the first engine
// is the stronger.
func (s synthetic) play(rng *rand.Rand, rec *results.Record) {
	g, err := rules.ParseGameString(rec.Opening)
	if err != nil {
		panic(err)
	}
	limit := s.minPlies + rng.IntN(s.maxPlies-s.minPlies+1)
	tcs := [2]string{rec.White.Time, rec.Black.Time}
	var clock, inc [2]int64
	for i, tc := range tcs {
		clock[i], inc[i] = clockOf(tc)
	}
	for g.Ply() < limit && !g.State().IsOver() {
		side := g.Ply() % 2
		moves := g.ValidMoves()
		m := moves[rng.IntN(len(moves))]
		text := g.MoveString(m)
		if err := g.PlayMove(m); err != nil {
			panic(err)
		}
		used := int64(20 + rng.ExpFloat64()*150)
		mv := results.Move{Move: text, Millis: used}
		if clock[side] >= 0 {
			// The arbiter's clock runs on durations and records milliseconds: a record's
			// clock can be a millisecond off the one predicted from its times.
			clock[side] = max(clock[side]-used, 0) + inc[side] - int64(rng.IntN(2))
			left := clock[side]
			mv.ClockMillis = &left
		}
		rec.Moves = append(rec.Moves, mv)
	}
	rec.GameString = g.GameString()
	switch g.State() {
	case rules.WhiteWins, rules.BlackWins, rules.Draw:
		rec.Result, rec.Reason, rec.Detail = g.State().String(), results.ReasonQueenSurrounded, "a queen is surrounded"
		return
	}
	firstIsWhite := rec.White.Name == s.engines[0]
	switch x := rng.Float64(); {
	case x < 0.03:
		loser := []string{"White", "Black"}[rng.IntN(2)]
		rec.Culprit, rec.Reason = loser, results.ReasonTimeForfeit
		rec.Result = map[string]string{"White": results.BlackWins, "Black": results.WhiteWins}[loser]
		rec.Detail = fmt.Sprintf("%s loses on time: used 0.612 s of 0.500 s allowed (112 ms over)", loser)
	case x < 0.25:
		rec.Result, rec.Reason, rec.Detail = results.Draw, results.ReasonMoveLimit, fmt.Sprintf("the game reached the limit of %d plies", g.Ply())
	default:
		firstWins := x < 0.65
		rec.Reason, rec.Detail = results.ReasonForfeit, "the loser resigned"
		if firstWins == firstIsWhite {
			rec.Result = results.WhiteWins
		} else {
			rec.Result = results.BlackWins
		}
	}
}
