package search

import (
	"strings"

	"hivearbiter/rules"
)

// Weights are the evaluation's terms. Each Searcher has its own (SetWeights), so engines in
// one process can be tuned apart, and a search copies them when it starts, so its threads
// read one set while the next is being set.
//
// The defaults (DefaultWeights) were chosen by self-play matches at equal nodes. The queens'
// surroundings decide the game, but mobility matters as much: an enemy piece against a queen
// costs about what a free ant is worth, and doubling the in-play values against an earlier set
// won 79% of the points, while raising the queen terms instead lost.
type Weights struct {
	// InPlay is a movable piece's worth; an immovable one is worth nothing on the board.
	// Ants first: nothing else reaches every gap in one move.
	InPlay [rules.NumBugs]int
	// InHand keeps some pieces in reserve: a piece in hand can be placed on any free
	// friendly cell later, so it is worth part of a movable one.
	InHand [rules.NumBugs]int
	// Surround[n] is the extra cost of n occupied cells around a queen on top of the
	// per-neighbour costs: the fifth and sixth neighbours are far worse than the first.
	Surround [7]int

	EnemyNeighbor      int // an enemy piece next to a queen
	StuckFriend        int // an own piece next to the queen that cannot leave
	FreeFriend         int // an own piece next to the queen that can step away
	QueenMobile        int // the queen can still run
	QueenInHand        int // nothing may move until the queen is placed
	BeetleOnQueen      int // a beetle on the enemy queen pins it and owns the cell
	BeetleNearQueen    int // a beetle on the hive next to the enemy queen can drop into a gap
	Stacked            int // any piece on top of the hive: unpinnable and blocks the one below
	PillbugDefence     int // an own pillbug beside the queen can lift attackers off or move it
	PillbugAttack      int // an enemy pillbug beside a queen can throw it into a worse place
	TouchingEnemyQueen int // a piece next to the enemy queen is committed and adds nothing more
	Tempo              int
	HoleThreat         int // an empty cell by the enemy queen that an own piece touches
}

// defaultWeights are hivebot's weights; Bench's node count depends on them.
var defaultWeights = Weights{
	InPlay: [rules.NumBugs]int{
		rules.QueenBee:    0,
		rules.Spider:      10,
		rules.Beetle:      28,
		rules.Grasshopper: 12,
		rules.SoldierAnt:  32,
		rules.Mosquito:    28,
		rules.Ladybug:     24,
		rules.Pillbug:     20,
	},
	InHand: [rules.NumBugs]int{
		rules.QueenBee:    0,
		rules.Spider:      2,
		rules.Beetle:      6,
		rules.Grasshopper: 2,
		rules.SoldierAnt:  7,
		rules.Mosquito:    7,
		rules.Ladybug:     5,
		rules.Pillbug:     4,
	},
	Surround:           [7]int{0, 0, 0, 8, 24, 70, 0},
	EnemyNeighbor:      36,
	StuckFriend:        26,
	FreeFriend:         12,
	QueenMobile:        12,
	QueenInHand:        10,
	BeetleOnQueen:      70,
	BeetleNearQueen:    16,
	Stacked:            8,
	PillbugDefence:     30,
	PillbugAttack:      18,
	TouchingEnemyQueen: 6,
	Tempo:              6,
	HoleThreat:         8,
}

// DefaultWeights returns the evaluation's default weights.
func DefaultWeights() Weights { return defaultWeights }

// Param is one tunable weight: a name an engine can show as an integer option, and its range.
type Param struct {
	Name     string
	Min, Max int
	field    func(*Weights) *int
}

// Get returns the parameter's value in w.
func (p Param) Get(w *Weights) int { return *p.field(w) }

// Set sets the parameter in w to v, clamped to the range.
func (p Param) Set(w *Weights, v int) { *p.field(w) = min(max(v, p.Min), p.Max) }

// Default returns the parameter's value in DefaultWeights.
func (p Param) Default() int {
	w := defaultWeights
	return p.Get(&w)
}

// params are the tunable weights, in the order an engine lists them. Every range runs from
// 0 to four times the default (at least 40): wide enough to detune a term on purpose and for a
// tuner to find its way back. The queen's in-play value and the surround costs of fewer than
// three neighbours (or six, which ends the game) are not parameters: the evaluation never
// reads them, or they are zero by design.
var params = func() []Param {
	var out []Param
	add := func(name string, field func(*Weights) *int) {
		w := defaultWeights
		out = append(out, Param{Name: name, Min: 0, Max: max(4**field(&w), 40), field: field})
	}
	bugs := []struct {
		name string
		bug  rules.Bug
	}{
		{"Spider", rules.Spider}, {"Beetle", rules.Beetle}, {"Grasshopper", rules.Grasshopper},
		{"Ant", rules.SoldierAnt}, {"Mosquito", rules.Mosquito}, {"Ladybug", rules.Ladybug},
		{"Pillbug", rules.Pillbug},
	}
	for _, b := range bugs {
		add("InPlay"+b.name, func(w *Weights) *int { return &w.InPlay[b.bug] })
	}
	for _, b := range bugs {
		add("InHand"+b.name, func(w *Weights) *int { return &w.InHand[b.bug] })
	}
	for _, n := range []int{3, 4, 5} {
		add("Surround"+string(rune('0'+n)), func(w *Weights) *int { return &w.Surround[n] })
	}
	add("EnemyNeighbor", func(w *Weights) *int { return &w.EnemyNeighbor })
	add("StuckFriend", func(w *Weights) *int { return &w.StuckFriend })
	add("FreeFriend", func(w *Weights) *int { return &w.FreeFriend })
	add("QueenMobile", func(w *Weights) *int { return &w.QueenMobile })
	add("QueenInHand", func(w *Weights) *int { return &w.QueenInHand })
	add("BeetleOnQueen", func(w *Weights) *int { return &w.BeetleOnQueen })
	add("BeetleNearQueen", func(w *Weights) *int { return &w.BeetleNearQueen })
	add("Stacked", func(w *Weights) *int { return &w.Stacked })
	add("PillbugDefence", func(w *Weights) *int { return &w.PillbugDefence })
	add("PillbugAttack", func(w *Weights) *int { return &w.PillbugAttack })
	add("TouchingEnemyQueen", func(w *Weights) *int { return &w.TouchingEnemyQueen })
	add("Tempo", func(w *Weights) *int { return &w.Tempo })
	add("HoleThreat", func(w *Weights) *int { return &w.HoleThreat })
	return out
}()

// Params returns the tunable weights, in a fixed order.
func Params() []Param { return append([]Param(nil), params...) }

// ParamByName finds a tunable weight by name, in any case.
func ParamByName(name string) (Param, bool) {
	for _, p := range params {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Param{}, false
}
