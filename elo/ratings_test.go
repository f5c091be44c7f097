package elo

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// bothColours splits the games of first against second, counted from first's point of view,
// into two matches with the colours swapped.
func bothColours(first, second int, c WDL) []Match {
	half := WDL{Wins: c.Wins / 2, Draws: c.Draws / 2, Losses: c.Losses / 2}
	rest := WDL{Wins: c.Wins - half.Wins, Draws: c.Draws - half.Draws, Losses: c.Losses - half.Losses}
	return []Match{{White: first, Black: second, WDL: half}, {White: second, Black: first, WDL: rest.Swap()}}
}

type pairResult struct {
	first, second int
	result        WDL // first's
}

// TestRatingVectors checks the multi-player vectors of §3.7.
func TestRatingVectors(t *testing.T) {
	tests := []struct {
		name    string
		players int
		pairs   []pairResult
		elo     []float64
		field   []float64 // EloFromScore of each score against the field
	}{
		{
			name:    "Laskos triangle",
			players: 3,
			pairs: []pairResult{
				{0, 1, WDL{Wins: 20, Draws: 5, Losses: 5}}, // 75 % of 30 games
				{1, 2, WDL{Wins: 20, Draws: 5, Losses: 5}}, // 75 %
				{0, 2, WDL{Wins: 25, Draws: 4, Losses: 1}}, // 90 %
			},
			elo: []float64{190.85, 0, -190.85},
		},
		{
			name:    "4-player round robin",
			players: 4,
			pairs: []pairResult{
				{0, 1, WDL{Wins: 40, Draws: 40, Losses: 20}}, // 60 of 100
				{0, 2, WDL{Wins: 50, Draws: 40, Losses: 10}}, // 70
				{0, 3, WDL{Wins: 60, Draws: 40, Losses: 0}},  // 80
				{1, 2, WDL{Wins: 35, Draws: 40, Losses: 25}}, // 55
				{1, 3, WDL{Wins: 45, Draws: 40, Losses: 15}}, // 65
				{2, 3, WDL{Wins: 40, Draws: 40, Losses: 20}}, // 60
			},
			elo:   []float64{112.58, 18.04, -27.62, -103.00},
			field: []float64{147.19, 23.20, -34.86, -133.61},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var matches []Match
			for _, p := range tt.pairs {
				matches = append(matches, bothColours(p.first, p.second, p.result)...)
			}
			r, err := Ratings(tt.players, matches, RatingOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.elo {
				near(t, "Elo", r.Elo[i], want, 0.005)
			}
			for i, want := range tt.field {
				near(t, "field Elo", EloFromScore(r.Score[i]), want, 0.005)
			}
		})
	}
}

// TestLaskosTriangleExact checks the triangle against its exact values 400·log10 3 and
// 400·log10 9, at 30 games per pair with half-point scores.
func TestLaskosTriangleExact(t *testing.T) {
	matches := []Match{
		{White: 0, Black: 1, WDL: WDL{Wins: 20, Draws: 5, Losses: 5}}, // 22.5/30 = 75 %
		{White: 1, Black: 2, WDL: WDL{Wins: 20, Draws: 5, Losses: 5}}, // 75 %
		{White: 2, Black: 0, WDL: WDL{Wins: 1, Draws: 4, Losses: 25}}, // A scores 27/30 = 90 %
	}
	r, err := Ratings(3, matches, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := 400 * math.Log10(3)
	near(t, "A", r.Elo[0], d, 1e-9)
	near(t, "B", r.Elo[1], 0, 1e-9)
	near(t, "C", r.Elo[2], -d, 1e-9)
	near(t, "A-C", r.Elo[0]-r.Elo[2], 400*math.Log10(9), 1e-9)
}

// TestRatingsTwoPlayers checks the standard errors against the closed form for two players:
// Var(R₀-R₁) = (400/ln 10)²/(n·p·(1-p)).
func TestRatingsTwoPlayers(t *testing.T) {
	c := WDL{Wins: 30, Draws: 40, Losses: 10}
	r, err := Ratings(2, []Match{{White: 0, Black: 1, WDL: c}}, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Score()
	near(t, "difference", r.Elo[0]-r.Elo[1], EloFromScore(p), 1e-9)
	near(t, "mean", r.Elo[0]+r.Elo[1], 0, 1e-9)
	sd := eloPerLogit / math.Sqrt(float64(c.Games())*p*(1-p))
	near(t, "SE", r.StdErr[0], sd/2, 1e-9)
	near(t, "SE", r.StdErr[1], sd/2, 1e-9)
	near(t, "LOS", r.LOS[0][1], normalCDF((r.Elo[0]-r.Elo[1])/sd), 1e-12)
	near(t, "LOS", r.LOS[1][0], 1-r.LOS[0][1], 1e-12)
	near(t, "LOS diagonal", r.LOS[0][0], 0.5, 0)
	lo, hi := r.Interval(0)
	near(t, "interval", hi-lo, 2*z95*sd/2, 1e-9)

	anchored, err := Ratings(2, []Match{{White: 0, Black: 1, WDL: c}}, RatingOptions{Anchor: &Anchor{Player: 1, Elo: 1500}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "anchor", anchored.Elo[1], 1500, 1e-9)
	near(t, "anchored", anchored.Elo[0], 1500+EloFromScore(p), 1e-9)
	near(t, "anchor SE", anchored.StdErr[1], 0, 1e-9)
	near(t, "anchored SE", anchored.StdErr[0], sd, 1e-9)
	near(t, "anchored LOS", anchored.LOS[0][1], r.LOS[0][1], 1e-9)
}

// TestRatingsWhiteAdvantage fits an exactly solvable case: A scores 75 % with White and 50 %
// with Black against B, so White is worth half of 400·log10 3 and so is A's edge.
func TestRatingsWhiteAdvantage(t *testing.T) {
	matches := []Match{
		{White: 0, Black: 1, WDL: WDL{Wins: 30, Draws: 30, Losses: 0}},  // 75 % for White A
		{White: 1, Black: 0, WDL: WDL{Wins: 20, Draws: 20, Losses: 20}}, // 50 % for White B
	}
	r, err := Ratings(2, matches, RatingOptions{WhiteAdvantage: true})
	if err != nil {
		t.Fatal(err)
	}
	half := 200 * math.Log10(3)
	near(t, "white advantage", r.WhiteAdvantage, half, 1e-9)
	near(t, "A-B", r.Elo[0]-r.Elo[1], half, 1e-9)
	if !(r.WhiteAdvantageStdErr > 0) {
		t.Errorf("WhiteAdvantageStdErr = %v", r.WhiteAdvantageStdErr)
	}

	plain, err := Ratings(2, matches, RatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.WhiteAdvantage != 0 || plain.WhiteAdvantageStdErr != 0 {
		t.Errorf("white advantage without the option: %v ± %v", plain.WhiteAdvantage, plain.WhiteAdvantageStdErr)
	}
}

func TestRatingsDegenerate(t *testing.T) {
	win := WDL{Wins: 5}
	tests := []struct {
		name    string
		players int
		matches []Match
		opts    RatingOptions
		unrated []int // the players the *RatingError names, if fail
		fail    bool
	}{
		{"no games", 3, []Match{{White: 0, Black: 1, WDL: WDL{Wins: 1, Losses: 1}}}, RatingOptions{}, []int{2}, true},
		{"disconnected", 4, []Match{
			{White: 0, Black: 1, WDL: WDL{Wins: 1, Losses: 1}},
			{White: 2, Black: 3, WDL: WDL{Wins: 1, Losses: 1}},
		}, RatingOptions{}, []int{2, 3}, true},
		{"perfect winner", 3, []Match{
			{White: 0, Black: 1, WDL: WDL{Wins: 1, Losses: 1}},
			{White: 2, Black: 0, WDL: win},
			{White: 1, Black: 2, WDL: win.Swap()},
		}, RatingOptions{}, []int{2}, true},
		{"perfect loser", 3, []Match{
			{White: 0, Black: 1, WDL: WDL{Wins: 1, Losses: 1}},
			{White: 2, Black: 0, WDL: win.Swap()},
		}, RatingOptions{}, []int{2}, true},
		{"perfect winner with virtual draws", 3, []Match{
			{White: 0, Black: 1, WDL: WDL{Wins: 1, Losses: 1}},
			{White: 2, Black: 0, WDL: win},
		}, RatingOptions{VirtualDraws: 2}, nil, false},
		{"white always wins", 2, []Match{
			{White: 0, Black: 1, WDL: win},
			{White: 1, Black: 0, WDL: win},
		}, RatingOptions{WhiteAdvantage: true}, nil, true},
		{"colours never swapped", 2, []Match{
			{White: 0, Black: 1, WDL: WDL{Wins: 2, Losses: 1}},
		}, RatingOptions{WhiteAdvantage: true}, nil, true},
		{"all draws", 2, []Match{{White: 0, Black: 1, WDL: WDL{Draws: 4}}}, RatingOptions{}, nil, false},
		{"one player", 1, nil, RatingOptions{}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Ratings(tt.players, tt.matches, tt.opts)
			if !tt.fail {
				if err != nil {
					t.Fatal(err)
				}
				for i := range r.Elo {
					for _, f := range []float64{r.Elo[i], r.StdErr[i]} {
						if math.IsNaN(f) || math.IsInf(f, 0) {
							t.Errorf("non-finite result %+v", r)
						}
					}
				}
				return
			}
			var re *RatingError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RatingError", err)
			}
			if tt.unrated != nil && !equalInts(re.Players, tt.unrated) {
				t.Errorf("players = %v, want %v (%v)", re.Players, tt.unrated, err)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRatingsBadInput(t *testing.T) {
	tests := []struct {
		name    string
		players int
		matches []Match
		opts    RatingOptions
	}{
		{"no players", 0, nil, RatingOptions{}},
		{"out of range", 2, []Match{{White: 0, Black: 2, WDL: WDL{Wins: 1}}}, RatingOptions{}},
		{"self", 2, []Match{{White: 1, Black: 1, WDL: WDL{Wins: 1}}}, RatingOptions{}},
		{"negative", 2, []Match{{White: 0, Black: 1, WDL: WDL{Wins: -1}}}, RatingOptions{}},
		{"anchor", 2, []Match{{White: 0, Black: 1, WDL: WDL{Wins: 1, Losses: 1}}}, RatingOptions{Anchor: &Anchor{Player: 2}}},
		{"virtual draws", 2, nil, RatingOptions{VirtualDraws: math.NaN()}},
	}
	for _, tt := range tests {
		if _, err := Ratings(tt.players, tt.matches, tt.opts); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

// TestRatingsPermutationInvariant checks on random round robins that renumbering the
// players renumbers the ratings and nothing else.
func TestRatingsPermutationInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		players := 2 + rng.IntN(6)
		var matches []Match
		for i := range players {
			for j := range players {
				if i != j {
					matches = append(matches, Match{White: i, Black: j, WDL: WDL{
						Wins: 1 + rng.IntN(20), Draws: rng.IntN(20), Losses: 1 + rng.IntN(20),
					}})
				}
			}
		}
		perm := rng.Perm(players)
		permuted := make([]Match, len(matches))
		for k, m := range matches {
			permuted[len(matches)-1-k] = Match{White: perm[m.White], Black: perm[m.Black], WDL: m.WDL}
		}
		opts := RatingOptions{WhiteAdvantage: trial%2 == 0}
		a, err := Ratings(players, matches, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Ratings(players, permuted, opts)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "white advantage", b.WhiteAdvantage, a.WhiteAdvantage, 1e-8)
		var sum float64
		for i := range players {
			sum += a.Elo[i]
			near(t, "Elo", b.Elo[perm[i]], a.Elo[i], 1e-8)
			near(t, "StdErr", b.StdErr[perm[i]], a.StdErr[i], 1e-8)
			for j := range players {
				near(t, "LOS", b.LOS[perm[i]][perm[j]], a.LOS[i][j], 1e-8)
				near(t, "LOS symmetry", a.LOS[i][j]+a.LOS[j][i], 1, 1e-12)
			}
		}
		near(t, "mean", sum, 0, 1e-8)
	}
}
