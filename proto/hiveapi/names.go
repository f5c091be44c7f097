package hiveapi

import "hivearbiter/rules"

// The API's names of the sides and of the turn types.
const (
	White = "White"
	Black = "Black"

	Placement      = "Placement"
	Movement       = "Movement"
	SpecialAbility = "Special Ability"
	Forfeit        = "Forfeit"
)

// bugNames are the API's piece types, by the referee's bugs.
var bugNames = [rules.NumBugs]string{
	rules.QueenBee: "Queen Bee", rules.Spider: "Spider", rules.Beetle: "Beetle",
	rules.Grasshopper: "Grasshopper", rules.SoldierAnt: "Soldier Ant",
	rules.Mosquito: "Mosquito", rules.Ladybug: "Ladybug", rules.Pillbug: "Pillbug",
}

// BugName is the API's name of a bug, such as "Soldier Ant".
func BugName(b rules.Bug) string { return bugNames[b] }

// ParseBug reads the API's name of a bug; names are exact, as the real modules write them.
func ParseBug(name string) (rules.Bug, bool) {
	for b, n := range bugNames {
		if n == name {
			return rules.Bug(b), true
		}
	}
	return 0, false
}

func colorName(c rules.Color) string {
	if c == rules.White {
		return White
	}
	return Black
}
