package elo_test

import (
	"fmt"

	"hivearbiter/elo"
)

// The fastchess summary of a colour-swapped match, from its pair counts.
func ExamplePentanomialEstimate() {
	pairs := elo.PairCounts{LL: 100, LD: 1500, WL: 600, DD: 2400, WD: 1600, WW: 120}
	p, games := pairs.Pentanomial(), pairs.WDL()
	e := elo.PentanomialEstimate(p)
	fmt.Printf("Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n", e.Elo, e.ErrorMargin, e.NormalizedElo, e.NormalizedErrorMargin)
	fmt.Printf("LOS: %.2f %%, DrawRatio: %.2f %%\n", 100*e.LOS, 100*p.DrawRatio())
	fmt.Printf("Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
		games.Games(), games.Wins, games.Losses, games.Draws, games.Points(), 100*games.Score())
	fmt.Printf("WL/DD Ratio: %.2f\n", pairs.WLDDRatio())
	// Output:
	// Elo: 3.85 +/- 3.40, nElo: 6.86 +/- 6.06
	// LOS: 98.68 %, DrawRatio: 47.47 %
	// Games: 12640, Wins: 2440, Losses: 2300, Draws: 7900, Points: 6390.0 (50.55 %)
	// WL/DD Ratio: 0.25
}

// A fishtest-style normalized SPRT on game pairs.
func ExampleSPRT() {
	test := elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	llr := test.LLR(elo.Pentanomial{100, 1500, 3000, 1600, 120})
	lower, upper := test.Bounds()
	fmt.Printf("LLR: %.2f (%.1f%%) (%.2f, %.2f) [%.2f, %.2f]: %v\n",
		llr, 100*test.Progress(llr), lower, upper, test.Elo0, test.Elo1, test.Status(llr))
	// Output:
	// LLR: 2.28 (77.5%) (-2.94, 2.94) [0.00, 5.00]: continue
}

// Ratings of a round robin, where the score against the field overstates the spread.
func ExampleRatings() {
	var matches []elo.Match
	add := func(first, second, wins, draws, losses int) {
		matches = append(matches, elo.Match{White: first, Black: second, WDL: elo.WDL{Wins: wins, Draws: draws, Losses: losses}})
	}
	add(0, 1, 40, 40, 20)
	add(0, 2, 50, 40, 10)
	add(0, 3, 60, 40, 0)
	add(1, 2, 35, 40, 25)
	add(1, 3, 45, 40, 15)
	add(2, 3, 40, 40, 20)
	r, err := elo.Ratings(4, matches, elo.RatingOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range r.Elo {
		lower, upper := r.Interval(i)
		fmt.Printf("P%d %+7.2f ± %5.2f   field %+7.2f\n", i+1, r.Elo[i], (upper-lower)/2, elo.EloFromScore(r.Score[i]))
	}
	fmt.Printf("LOS(P2 > P3) = %.2f\n", r.LOS[1][2])
	// Output:
	// P1 +112.58 ± 32.49   field +147.19
	// P2  +18.04 ± 30.53   field  +23.20
	// P3  -27.62 ± 30.59   field  -34.86
	// P4 -103.00 ± 32.12   field -133.61
	// LOS(P2 > P3) = 0.96
}
