package results

// PairTracker completes game pairs: it holds each game of a pair until the pair's other games
// are in, and then hands the whole pair out, once. Games of one pair share a run and a pair
// index; with two games per pair they must also have the same two players with the colours
// swapped, or the second game waits as well (unrelated records that happen to share a pair
// index never make a pair). It keeps only the games of pairs still incomplete.
type PairTracker struct {
	perPair  int
	waiting  map[pairKey][]PairGame
	complete int
}

// PairGame is what a game contributes to its pair.
type PairGame struct {
	Game         int // index in the schedule
	White, Black string
	WhiteScore   float64
}

// ScoreOf is the named player's score in the game.
func (g PairGame) ScoreOf(name string) float64 {
	if name == g.White {
		return g.WhiteScore
	}
	return 1 - g.WhiteScore
}

// NewPairTracker tracks pairs of perPair games (1 or 2).
func NewPairTracker(perPair int) *PairTracker {
	return &PairTracker{perPair: max(perPair, 1), waiting: make(map[pairKey][]PairGame)}
}

// Add takes a finished game. When it completes its pair, Add returns the pair's games in
// schedule order.
func (t *PairTracker) Add(r *Record) ([]PairGame, bool) {
	g := PairGame{Game: r.Game, White: r.White.Name, Black: r.Black.Name, WhiteScore: r.WhiteScore()}
	if t.perPair == 1 {
		t.complete++
		return []PairGame{g}, true
	}
	k := pairKey{r.Run, r.Pair}
	q := t.waiting[k]
	if len(q) == t.perPair-1 && q[0].White == g.Black && q[0].Black == g.White {
		delete(t.waiting, k)
		t.complete++
		pair := append(q, g)
		if pair[1].Game < pair[0].Game {
			pair[0], pair[1] = pair[1], pair[0]
		}
		return pair, true
	}
	t.waiting[k] = append(q, g)
	return nil, false
}

// Complete counts the pairs completed so far.
func (t *PairTracker) Complete() int { return t.complete }
