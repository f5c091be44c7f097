package search

import "hivearbiter/rules"

// Evaluation weights. The queens' surroundings decide the game, but self-play matches at equal
// nodes showed that mobility matters as much: an enemy piece against a queen costs about what
// a free ant is worth, and doubling these in-play values against an earlier set won 79% of
// the points, while raising the queen terms instead lost.
var (
	// inPlayValue is a movable piece's worth; an immovable one is worth nothing on the board.
	// Ants first: nothing else reaches every gap in one move.
	inPlayValue = [rules.NumBugs]int{
		rules.QueenBee:    0,
		rules.Spider:      10,
		rules.Beetle:      28,
		rules.Grasshopper: 12,
		rules.SoldierAnt:  32,
		rules.Mosquito:    28,
		rules.Ladybug:     24,
		rules.Pillbug:     20,
	}
	// handValue keeps some pieces in reserve: a piece in hand can be placed on any free
	// friendly cell later, so it is worth part of a movable one.
	handValue = [rules.NumBugs]int{
		rules.QueenBee:    0,
		rules.Spider:      2,
		rules.Beetle:      6,
		rules.Grasshopper: 2,
		rules.SoldierAnt:  7,
		rules.Mosquito:    7,
		rules.Ladybug:     5,
		rules.Pillbug:     4,
	}
	// surroundPenalty[n] is the extra cost of n occupied cells around a queen on top of the
	// per-neighbour costs: the fifth and sixth neighbours are far worse than the first.
	surroundPenalty = [7]int{0, 0, 0, 8, 24, 70, 0}
)

const (
	enemyNeighborCost   = 36 // an enemy piece next to a queen
	stuckFriendCost     = 26 // an own piece next to the queen that cannot leave
	freeFriendCost      = 12 // an own piece next to the queen that can step away
	queenMobileBonus    = 12 // the queen can still run
	queenInHandCost     = 10 // nothing may move until the queen is placed
	beetleOnQueenBonus  = 70 // a beetle on the enemy queen pins it and owns the cell
	beetleNearQueen     = 16 // a beetle on the hive next to the enemy queen can drop into a gap
	stackedBonus        = 8  // any piece on top of the hive: unpinnable and blocks the one below
	pillbugDefenceBonus = 30 // an own pillbug beside the queen can lift attackers off or move it
	pillbugAttackBonus  = 18 // an enemy pillbug beside a queen can throw it into a worse place
	touchingEnemyQueen  = 6  // a piece next to the enemy queen is committed and adds nothing more
	tempoBonus          = 6
	holeThreat          = 8 // an empty cell by the enemy queen that an own piece touches
)

// Aggression weighs attack against mobility: at DefaultAggression the weights are those
// above; higher values scale the queen terms up (5 doubles them), lower ones down. An
// aggressive evaluation plays worse against good opponents but makes a shallow search go for
// the enemy queen instead of hoarding mobility.
const (
	MinAggression     = 1
	DefaultAggression = 3
	MaxAggression     = 5
)

// aggressionScale is the factor, in sixths, that each aggression level puts on the queen terms.
var aggressionScale = [MaxAggression + 1]int{0, 4, 5, 6, 9, 12}

// Evaluate scores a position for the side to move at the default aggression; positive is
// good for it. Finished games are the search's business (mate scores), not the evaluation's.
func Evaluate(b *rules.Board) int { return evaluate(b, DefaultAggression) }

func evaluate(b *rules.Board, aggression int) int {
	pinned := b.PinnedPieces()
	var score [2]int
	for c := rules.White; c <= rules.Black; c++ {
		mobility, attack := evaluateSide(b, c, pinned)
		score[c] = mobility + attack*aggressionScale[aggression]/6
	}
	us := b.ToMove()
	return score[us] - score[us.Opponent()] + tempoBonus
}

// evaluateSide is colour c's share of the evaluation, before the opponent's is subtracted:
// the mobility and material terms, and the queen terms that aggression scales.
func evaluateSide(b *rules.Board, c rules.Color, pinned uint32) (score, attack int) {
	them := c.Opponent()
	enemyQueen := b.CellOf(rules.Queen(them))
	first := rules.Piece(c) * rules.PiecesPerColor
	for p := first; p < first+rules.PiecesPerColor; p++ {
		bug := p.Bug()
		if b.InHand(p) {
			score += handValue[bug]
			continue
		}
		cell := b.CellOf(p)
		if cell == rules.NoCell || b.Top(cell) != p {
			continue // not in this game, or covered: it does nothing while covered
		}
		stacked := b.Level(p) > 0
		if stacked {
			score += stackedBonus
			if bug == rules.Beetle || bug == rules.Mosquito {
				switch {
				case b.Below(p) == rules.Queen(them):
					attack += beetleOnQueenBonus
				case enemyQueen != rules.NoCell && adjacent(cell, enemyQueen):
					attack += beetleNearQueen
				}
			}
		}
		if bug == rules.QueenBee {
			continue
		}
		if enemyQueen != rules.NoCell && adjacent(cell, enemyQueen) {
			score += touchingEnemyQueen // the queen terms count it; it should stay put
			continue
		}
		if !stacked && !canLeave(b, p, cell, pinned) {
			continue
		}
		v := inPlayValue[bug]
		if bug == rules.Mosquito && !stacked {
			v = mosquitoValue(b, cell)
		}
		score += v
	}
	attack -= queenDanger(b, c, pinned)
	if enemyQueen != rules.NoCell {
		attack += holeThreat * threatenedHoles(b, c, enemyQueen, pinned)
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
func queenDanger(b *rules.Board, c rules.Color, pinned uint32) int {
	q := rules.Queen(c)
	qc := b.CellOf(q)
	if qc == rules.NoCell {
		if b.PiecesInHand(c) < rules.PiecesPerColor {
			return queenInHandCost
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
			cost += enemyNeighborCost
			if b.Height(n) == 1 && powersPillbug(b, top, n) {
				cost += pillbugAttackBonus
			}
			continue
		}
		if b.Height(n) == 1 && pinned&(1<<top) != 0 {
			cost += stuckFriendCost
		} else {
			cost += freeFriendCost
		}
		if b.Height(n) == 1 && powersPillbug(b, top, n) {
			defended = true
		}
	}
	cost += surroundPenalty[occupied]
	if b.IsCovered(q) {
		return cost // a beetle on it: it cannot move, and the beetle's owner is paid for that
	}
	if defended && occupied < 6 {
		cost -= pillbugDefenceBonus
	}
	if pinned&(1<<q) == 0 && canSlide(b, qc) {
		cost -= queenMobileBonus
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
func mosquitoValue(b *rules.Board, cell rules.Cell) int {
	best := 0
	for d := range rules.Direction(rules.NumDirections) {
		if t := b.Top(cell.Neighbor(d)); t != rules.NoPiece && t.Bug() != rules.Mosquito {
			best = max(best, inPlayValue[t.Bug()])
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
