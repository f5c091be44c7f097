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

// SetupOf reads a run's setup from its records; the source of the openings is not in them
// (Openings counts the distinct openings instead), and the cap only when they carry their
// run's test (Record.Test).
func SetupOf(recs []Record) Setup {
	var t SetupTally
	openings := map[string]bool{}
	fromFile := false
	for i := range recs {
		t.Add(&recs[i])
		openings[recs[i].Opening] = true
		fromFile = fromFile || recs[i].OpeningIndex >= 0
	}
	s := t.Setup()
	source := "random"
	if fromFile {
		source = "from a file"
	}
	if len(recs) > 0 {
		s.Openings = fmt.Sprintf("%s (%s)", plural(len(openings), "opening"), source)
	}
	if test, err := RecordsTest(recs); err == nil && test != nil {
		s.MaxGames = test.MaxGames
	}
	return s
}

// A SetupTally reads a run's setup from its records as they come, one at a time, in the memory
// of its engines alone: the openings are not counted (a run that knows its configuration names
// them; SetupOf counts them in records read whole).
type SetupTally struct {
	names, gameTypes []string
	limits, ids      map[string]string
}

// Add reads a record's part of the setup: its players' limits and ids, its game type.
func (t *SetupTally) Add(r *Record) {
	if t.limits == nil {
		t.limits, t.ids = map[string]string{}, map[string]string{}
	}
	for _, p := range []Player{r.White, r.Black} {
		if _, seen := t.limits[p.Name]; !seen {
			t.names = append(t.names, p.Name)
			t.limits[p.Name] = p.Time
		}
		if t.ids[p.Name] == "" {
			t.ids[p.Name] = p.ID
		}
	}
	if !slices.Contains(t.gameTypes, r.GameType) {
		t.gameTypes = append(t.gameTypes, r.GameType)
	}
}

// Setup is the setup the records added so far show, without their openings.
func (t *SetupTally) Setup() Setup {
	var s Setup
	for _, n := range t.names {
		s.Engines = append(s.Engines, Identity{Name: n, ID: t.ids[n]})
	}
	s.Limit = limitsText(t.names, t.limits)
	s.GameType = strings.Join(t.gameTypes, ", ")
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
