package elo

import "math"

// WDL counts the games of a match from the first engine's point of view.
type WDL struct {
	Wins, Draws, Losses int
}

// Games returns the number of games.
func (c WDL) Games() int { return c.Wins + c.Draws + c.Losses }

// Points returns the first engine's points, a draw counting one half.
func (c WDL) Points() float64 { return float64(c.Wins) + float64(c.Draws)/2 }

// Score returns the mean score per game in [0, 1], or 0.5 when there are no games.
func (c WDL) Score() float64 {
	n := c.Games()
	if n == 0 {
		return 0.5
	}
	return c.Points() / float64(n)
}

// DrawRatio returns the fraction of games drawn, or 0 when there are no games
// (cutechess's DrawRatio).
func (c WDL) DrawRatio() float64 {
	n := c.Games()
	if n == 0 {
		return 0
	}
	return float64(c.Draws) / float64(n)
}

// Add returns the sum of c and d.
func (c WDL) Add(d WDL) WDL {
	return WDL{c.Wins + d.Wins, c.Draws + d.Draws, c.Losses + d.Losses}
}

// Swap returns the same games from the second engine's point of view.
func (c WDL) Swap() WDL { return WDL{c.Losses, c.Draws, c.Wins} }

// counts returns the counts in the order of their scores 0, ½, 1.
func (c WDL) counts() []float64 {
	return []float64{float64(c.Losses), float64(c.Draws), float64(c.Wins)}
}

// Pentanomial counts game pairs by the first engine's score in the pair, in half points:
// index 0 is a pair lost twice (LL), 1 a loss and a draw (LD), 2 a win and a loss or two draws
// (WL+DD), 3 a win and a draw (WD) and 4 two wins (WW). This is fastchess's "Ptnml(0-2)".
type Pentanomial [5]int

// Pairs returns the number of game pairs.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Games returns the number of games, twice the number of pairs.
func (p Pentanomial) Games() int { return 2 * p.Pairs() }

// Points returns the first engine's points over all pairs.
func (p Pentanomial) Points() float64 {
	return (float64(p[1]) + 2*float64(p[2]) + 3*float64(p[3]) + 4*float64(p[4])) / 2
}

// Score returns the mean score per game in [0, 1], or 0.5 when there are no pairs.
func (p Pentanomial) Score() float64 {
	n := p.Games()
	if n == 0 {
		return 0.5
	}
	return p.Points() / float64(n)
}

// Add returns the sum of p and q.
func (p Pentanomial) Add(q Pentanomial) Pentanomial {
	for i := range p {
		p[i] += q[i]
	}
	return p
}

// DrawRatio returns the fraction of pairs scoring exactly one point (WL+DD), or 0 when there
// are no pairs (fastchess's pentanomial DrawRatio).
func (p Pentanomial) DrawRatio() float64 {
	n := p.Pairs()
	if n == 0 {
		return 0
	}
	return float64(p[2]) / float64(n)
}

// PairsRatio returns (WW+WD)/(LL+LD), the ratio of pairs won to pairs lost (fastchess's
// PairsRatio). It is 0 when no pair was won, and +Inf when pairs were won but none lost.
func (p Pentanomial) PairsRatio() float64 {
	return ratio(p[3]+p[4], p[0]+p[1])
}

// counts returns the counts as floats, in the order of their scores.
func (p Pentanomial) counts() []float64 {
	return []float64{float64(p[0]), float64(p[1]), float64(p[2]), float64(p[3]), float64(p[4])}
}

// PairCounts counts game pairs by the first engine's two results, keeping a win and a loss
// (WL) apart from two draws (DD): the pentanomial model merges them, but the WL/DD ratio and the
// per-game counts need them separate.
type PairCounts struct {
	LL, LD, WL, DD, WD, WW int
}

// AddPair counts one pair from the first engine's scores in its two games (each 0, 0.5 or 1).
// It panics on any other score.
func (c *PairCounts) AddPair(first, second float64) {
	switch first + second {
	case 0:
		c.LL++
	case 0.5:
		c.LD++
	case 1:
		if first == 0.5 {
			c.DD++
		} else {
			c.WL++
		}
	case 1.5:
		c.WD++
	case 2:
		c.WW++
	default:
		panic("elo: pair score out of range")
	}
}

// Add returns the sum of c and d.
func (c PairCounts) Add(d PairCounts) PairCounts {
	return PairCounts{c.LL + d.LL, c.LD + d.LD, c.WL + d.WL, c.DD + d.DD, c.WD + d.WD, c.WW + d.WW}
}

// Pentanomial returns the pair counts by pair score.
func (c PairCounts) Pentanomial() Pentanomial {
	return Pentanomial{c.LL, c.LD, c.WL + c.DD, c.WD, c.WW}
}

// WDL returns the counts of the individual games.
func (c PairCounts) WDL() WDL {
	return WDL{
		Wins:   2*c.WW + c.WD + c.WL,
		Draws:  2*c.DD + c.WD + c.LD,
		Losses: 2*c.LL + c.LD + c.WL,
	}
}

// WLDDRatio returns WL/DD, how often a one-point pair is a win and a loss rather than two
// draws (fastchess's "WL/DD Ratio"). It is 0 when WL is 0, and +Inf when only DD is 0.
func (c PairCounts) WLDDRatio() float64 { return ratio(c.WL, c.DD) }

func ratio(a, b int) float64 {
	switch {
	case a == 0:
		return 0
	case b == 0:
		return math.Inf(1)
	}
	return float64(a) / float64(b)
}
