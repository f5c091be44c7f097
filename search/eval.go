package search

import "hivearbiter/rules"

// Evaluation weights, in centi-ant-ish units: an enemy piece against a queen is worth about
// three free ants, because in Hive the queen's surroundings decide the game and everything
// else only matters for how fast pieces can get there.
var (
	// inPlayValue is a movable piece's worth; an immovable one is worth nothing on the board.
	// Ants first: nothing else reaches every gap in one move.
	inPlayValue = [rules.NumBugs]int{
		rules.QueenBee:    0,
		rules.Spider:      5,
		rules.Beetle:      14,
		rules.Grasshopper: 6,
		rules.SoldierAnt:  16,
		rules.Mosquito:    14,
		rules.Ladybug:     12,
		rules.Pillbug:     10,
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
)

// Evaluate scores a position for the side to move, in the units above; positive is good
// for it. Finished games are the search's business (mate scores), not the evaluation's.
func Evaluate(b *rules.Board) int {
	pinned := b.PinnedPieces()
	var score [2]int
	for c := rules.White; c <= rules.Black; c++ {
		score[c] = evaluateSide(b, c, pinned)
	}
	us := b.ToMove()
	return score[us] - score[us.Opponent()] + tempoBonus
}

// evaluateSide is colour c's share of the evaluation, before the opponent's is subtracted.
func evaluateSide(b *rules.Board, c rules.Color, pinned uint32) int {
	them := c.Opponent()
	score := 0
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
					score += beetleOnQueenBonus
				case enemyQueen != rules.NoCell && adjacent(cell, enemyQueen):
					score += beetleNearQueen
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
	score -= queenDanger(b, c, pinned)
	return score
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
