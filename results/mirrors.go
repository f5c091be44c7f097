package results

import "slices"

// Mirrors counts the complete game pairs of the records, and among them the mirrors: pairs
// whose two games are the same game with the colours swapped (the same opening, the same
// moves, the same result by colour). Deterministic engines that play identically, such as a
// build against itself at a fixed depth, play nothing but mirrors; each scores one point, and a
// gate learns from them only that the engines are alike in those openings.
func Mirrors(recs []Record) (mirrors, pairs int) {
	type key struct {
		run  string
		pair int
	}
	first := map[key]*Record{}
	for i := range recs {
		r := &recs[i]
		k := key{r.Run, r.Pair}
		o, ok := first[k]
		if !ok {
			first[k] = r
			continue
		}
		if o.Game == r.Game || o.White.Name != r.Black.Name || o.Black.Name != r.White.Name {
			continue // a game recorded twice, or records that are not one pair
		}
		delete(first, k)
		pairs++
		if o.Opening == r.Opening && o.Result == r.Result && slices.EqualFunc(o.Moves, r.Moves, func(a, b Move) bool { return a.Move == b.Move }) {
			mirrors++
		}
	}
	return mirrors, pairs
}
