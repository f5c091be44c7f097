package results

import (
	"fmt"
	"slices"
	"strings"
)

// A Setup is what a run was played under, as a report read away from its configuration
// names it: the limit of each engine, the game type, the openings, what each engine said it
// is, and the cap on the run's games.
type Setup struct {
	Limit    string // the engines' limit when they agree ("depth=3"), else each's: "new 1.5+0.05, released 3+0.1"
	GameType string
	Openings string     // "random 4-ply openings", "book openings.txt", or what the records show
	Engines  []Identity // in the order of the first game's players, first engine first
	MaxGames int        // the run's cap on games; 0 when not known (records alone do not say)
}

// An Identity is an engine's name in the run and what it said it is (its "id" line).
type Identity struct {
	Name string
	ID   string // "" when it said nothing of itself
}

// SetupOf reads a run's setup from its records; the cap and the source of the openings are
// not in them: Openings counts the distinct openings instead.
func SetupOf(recs []Record) Setup {
	var s Setup
	limits := map[string]string{}
	ids := map[string]string{}
	var names, gameTypes []string
	openings := map[string]bool{}
	fromFile := false
	for _, r := range recs {
		for _, p := range []Player{r.White, r.Black} {
			if _, seen := limits[p.Name]; !seen {
				names = append(names, p.Name)
				limits[p.Name] = p.Time
			}
			if ids[p.Name] == "" {
				ids[p.Name] = p.ID
			}
		}
		if !slices.Contains(gameTypes, r.GameType) {
			gameTypes = append(gameTypes, r.GameType)
		}
		openings[r.Opening] = true
		fromFile = fromFile || r.OpeningIndex >= 0
	}
	for _, n := range names {
		s.Engines = append(s.Engines, Identity{Name: n, ID: ids[n]})
	}
	s.Limit = limitsText(names, limits)
	s.GameType = strings.Join(gameTypes, ", ")
	source := "random"
	if fromFile {
		source = "from a file"
	}
	if len(recs) > 0 {
		s.Openings = fmt.Sprintf("%s (%s)", plural(len(openings), "opening"), source)
	}
	return s
}

// limitsText is the one limit the engines share, or each engine's.
func limitsText(names []string, limits map[string]string) string {
	var each []string
	same := true
	for _, n := range names {
		if limits[n] != limits[names[0]] {
			same = false
		}
		l := limits[n]
		if l == "" {
			l = "no limit recorded"
		}
		each = append(each, n+" "+l)
	}
	switch {
	case len(names) == 0:
		return ""
	case same && limits[names[0]] != "":
		return limits[names[0]]
	}
	return strings.Join(each, ", ")
}

// plural writes a count with its noun, in the singular for one.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
