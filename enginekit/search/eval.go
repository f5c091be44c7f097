package search

import "hivearbiter/rules"

// Aggression weighs attack against mobility: at DefaultAggression the Weights count as
// they are; higher values scale the queen terms up (5 doubles them), lower ones down. An
// aggressive evaluation plays worse against good opponents but makes a shallow search go for
// the enemy queen instead of hoarding mobility.
const (
	MinAggression     = 1
	DefaultAggression = 3
	MaxAggression     = 5
)

// aggressionScale is the factor, in sixths, that each aggression level puts on the queen terms.
var aggressionScale = [MaxAggression + 1]int{0, 4, 5, 6, 9, 12}

// Evaluate scores a position for the side to move with the default weights and aggression;
// positive is good for it. Finished games are the search's business (mate scores), not the
// evaluation's.
func Evaluate(b *rules.Board) int { return evaluate(b, &defaultWeights, DefaultAggression) }

func evaluate(b *rules.Board, w *Weights, aggression int) int {
	pinned := b.PinnedPieces()
	var score [2]int
	for c := rules.White; c <= rules.Black; c++ {
		mobility, attack := evaluateSide(b, w, c, pinned)
		score[c] = mobility + attack*aggressionScale[aggression]/6
	}
	us := b.ToMove()
	return score[us] - score[us.Opponent()] + w.Tempo
}

// evaluateSide is colour c's share of the evaluation, before the opponent's is subtracted:
// the mobility and material terms, and the queen terms that aggression scales.
func evaluateSide(b *rules.Board, w *Weights, c rules.Color, pinned uint32) (score, attack int) {
	them := c.Opponent()
	enemyQueen := b.CellOf(rules.Queen(them))
	first := rules.Piece(c) * rules.PiecesPerColor
	for p := first; p < first+rules.PiecesPerColor; p++ {
		bug := p.Bug()
		if b.InHand(p) {
			score += w.InHand[bug]
			continue
		}
		cell := b.CellOf(p)
		if cell == rules.NoCell || b.Top(cell) != p {
			continue // not in this game, or covered: it does nothing while covered
		}
		stacked := b.Level(p) > 0
		if stacked {
			score += w.Stacked
			if bug == rules.Beetle || bug == rules.Mosquito {
				switch {
				case b.Below(p) == rules.Queen(them):
					attack += w.BeetleOnQueen
				case enemyQueen != rules.NoCell && adjacent(cell, enemyQueen):
					attack += w.BeetleNearQueen
				}
			}
		}
		if bug == rules.QueenBee {
			continue
		}
		if enemyQueen != rules.NoCell && adjacent(cell, enemyQueen) {
			score += w.TouchingEnemyQueen // the queen terms count it; it should stay put
			continue
		}
		if !stacked && !canLeave(b, p, cell, pinned) {
			continue
		}
		v := w.InPlay[bug]
		if bug == rules.Mosquito && !stacked {
			v = mosquitoValue(b, w, cell)
		}
		score += v
	}
	attack -= queenDanger(b, w, c, pinned)
	if enemyQueen != rules.NoCell {
		attack += w.HoleThreat * threatenedHoles(b, c, enemyQueen, pinned)
	}
	return score, attack
}

// threatenedHoles counts the empty cells around the enemy queen at qc that one of colour c's
// pieces touches and could step into: a gradient toward the last cells, which a shallow search
// would otherwise never see how to fill.
func threatenedHoles(b *rules.Board, c rules.Color, qc rules.Cell, pinned uint32) int {
	n := 0
	for d := range rules.Direction(rules.NumDirections) {
		hole := qc.Neighbor(d)
		if b.Height(hole) != 0 {
			continue
		}
		for d2 := range rules.Direction(rules.NumDirections) {
			nb := hole.Neighbor(d2)
			p := b.Top(nb)
			if p == rules.NoPiece || p.Color() != c || p.Bug() == rules.QueenBee || adjacent(nb, qc) && b.Height(nb) == 1 {
				continue
			}
			if b.Height(nb) > 1 || pinned&(1<<p) == 0 {
				n++
				break
			}
		}
	}
	return n
}

// queenDanger is what colour c's queen's surroundings cost c.
func queenDanger(b *rules.Board, w *Weights, c rules.Color, pinned uint32) int {
	q := rules.Queen(c)
	qc := b.CellOf(q)
	if qc == rules.NoCell {
		if b.PiecesInHand(c) < rules.PiecesPerColor {
			return w.QueenInHand
		}
		return 0
	}
	cost, occupied := 0, 0
	defended := false
	for d := range rules.Direction(rules.NumDirections) {
		n := qc.Neighbor(d)
		top := b.Top(n)
		if top == rules.NoPiece {
			continue
		}
		occupied++
		if top.Color() != c {
			cost += w.EnemyNeighbor
			if b.Height(n) == 1 && powersPillbug(b, top, n) {
				cost += w.PillbugAttack
			}
			continue
		}
		if b.Height(n) == 1 && pinned&(1<<top) != 0 {
			cost += w.StuckFriend
		} else {
			cost += w.FreeFriend
		}
		if b.Height(n) == 1 && powersPillbug(b, top, n) {
			defended = true
		}
	}
	cost += w.Surround[occupied]
	if b.IsCovered(q) {
		return cost // a beetle on it: it cannot move, and the beetle's owner is paid for that
	}
	if defended && occupied < 6 {
		cost -= w.PillbugDefence
	}
	if pinned&(1<<q) == 0 && canSlide(b, qc) {
		cost -= w.QueenMobile
	}
	return cost
}

// powersPillbug reports whether the ground piece p at cell can use the pillbug's power: a
// pillbug, or a mosquito next to one.
func powersPillbug(b *rules.Board, p rules.Piece, cell rules.Cell) bool {
	switch p.Bug() {
	case rules.Pillbug:
		return true
	case rules.Mosquito:
		for d := range rules.Direction(rules.NumDirections) {
			if t := b.Top(cell.Neighbor(d)); t != rules.NoPiece && t.Bug() == rules.Pillbug {
				return true
			}
		}
	}
	return false
}

// canLeave reports whether the ground piece p at cell could move at all, judged cheaply:
// not pinned to the hive, and a crawler must have a slide out of its cell.
func canLeave(b *rules.Board, p rules.Piece, cell rules.Cell, pinned uint32) bool {
	if pinned&(1<<p) != 0 {
		return false
	}
	switch p.Bug() {
	case rules.Spider, rules.SoldierAnt, rules.Pillbug, rules.QueenBee:
		return canSlide(b, cell)
	}
	return true
}

// canSlide reports whether a ground piece at cell has a first step: an empty neighbour with
// exactly one of the two flanking cells occupied (both is a gate, neither loses contact).
func canSlide(b *rules.Board, cell rules.Cell) bool {
	var occupied [rules.NumDirections]bool
	for d := range rules.Direction(rules.NumDirections) {
		occupied[d] = b.Height(cell.Neighbor(d)) != 0
	}
	for d := range rules.NumDirections {
		if !occupied[d] && occupied[(d+5)%rules.NumDirections] != occupied[(d+1)%rules.NumDirections] {
			return true
		}
	}
	return false
}

// mosquitoValue is a ground mosquito's worth: the best bug it can copy now.
func mosquitoValue(b *rules.Board, w *Weights, cell rules.Cell) int {
	best := 0
	for d := range rules.Direction(rules.NumDirections) {
		if t := b.Top(cell.Neighbor(d)); t != rules.NoPiece && t.Bug() != rules.Mosquito {
			best = max(best, w.InPlay[t.Bug()])
		}
	}
	return best
}

// adjacent reports whether two cells touch.
func adjacent(a, c rules.Cell) bool {
	for d := range rules.Direction(rules.NumDirections) {
		if a.Neighbor(d) == c {
			return true
		}
	}
	return false
}
