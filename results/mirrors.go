package results

import "slices"

// Mirrors counts the complete game pairs of the records, and among them the mirrors: pairs
// whose two games are the same game with the colours swapped (the same opening, the same
// moves, the same result by colour). Deterministic engines that play identically, such as a
// build against itself at a fixed depth, play nothing but mirrors; each scores one point, and a
// gate learns from them only that the engines are alike in those openings.
func Mirrors(recs []Record) (mirrors, pairs int) {
	var m MirrorTally
	for i := range recs {
		m.Add(&recs[i])
	}
	return m.Counts()
}

// A MirrorTally counts mirrors (see Mirrors) as the games come, one at a time: it holds the
// first game of each pair until its partner comes, and of it only what a mirror compares.
type MirrorTally struct {
	first          map[pairKey]pairHalf
	mirrors, pairs int
}

// pairHalf is what a mirror compares of the first game of a pair to come.
type pairHalf struct {
	game                          int
	white, black, opening, result string
	moves                         []string
}

// Add counts a game: with its partner in, a pair, and a mirror if it is one.
func (m *MirrorTally) Add(r *Record) {
	if m.first == nil {
		m.first = make(map[pairKey]pairHalf)
	}
	k := pairKey{r.Run, r.Pair}
	o, ok := m.first[k]
	if !ok {
		h := pairHalf{game: r.Game, white: r.White.Name, black: r.Black.Name, opening: r.Opening, result: r.Result, moves: make([]string, len(r.Moves))}
		for i, mv := range r.Moves {
			h.moves[i] = mv.Move
		}
		m.first[k] = h
		return
	}
	if o.game == r.Game || o.white != r.Black.Name || o.black != r.White.Name {
		return // a game recorded twice, or records that are not one pair
	}
	delete(m.first, k)
	m.pairs++
	if o.opening == r.Opening && o.result == r.Result && slices.EqualFunc(o.moves, r.Moves, func(a string, b Move) bool { return a == b.Move }) {
		m.mirrors++
	}
}

// Counts are the complete pairs added and the mirrors among them.
func (m *MirrorTally) Counts() (mirrors, pairs int) { return m.mirrors, m.pairs }
