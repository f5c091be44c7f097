package results

import (
	"slices"

	"hivearbiter/elo"
)

// CrossTable is who beat whom in a field of players: a row and a column per player, ranked by
// score as the field table ranks them, and in each cell the results of the row's player
// against the column's. The console, the HTML report and a CI job's Markdown summary all show
// this one table.
type CrossTable struct {
	// Players are the players by rank, each with its results against the whole field.
	Players []CrossTablePlayer
	// Results[i][j] are the results of Players[i] against Players[j], from i's point of view:
	// no games when they never met, and on the diagonal.
	Results [][]elo.WDL
}

// CrossTablePlayer is a player of a cross table and its results against the field.
type CrossTablePlayer struct {
	Name string
	WDL  elo.WDL
}

// Meeting is the head-to-head results of two players, from First's point of view.
type Meeting struct {
	First, Second string
	WDL           elo.WDL
}

// NewCrossTable lays out the meetings of players (the players' order breaks ties of score;
// a player of a meeting that players lacks is added after them).
func NewCrossTable(players []string, meetings []Meeting) *CrossTable {
	names := slices.Clone(players)
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	at := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(names)
			index[name] = i
			names = append(names, name)
		}
		return i
	}
	type meeting struct {
		a, b int
		wdl  elo.WDL
	}
	var met []meeting
	for _, m := range meetings {
		met = append(met, meeting{at(m.First), at(m.Second), m.WDL})
	}
	field := make([]elo.WDL, len(names))
	for _, m := range met {
		field[m.a] = field[m.a].Add(m.wdl)
		field[m.b] = field[m.b].Add(m.wdl.Swap())
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		si, sj := field[i].Score(), field[j].Score()
		switch {
		case si > sj:
			return -1
		case si < sj:
			return 1
		}
		return 0
	})
	rank := make([]int, len(names))
	c := &CrossTable{Players: make([]CrossTablePlayer, len(names)), Results: make([][]elo.WDL, len(names))}
	for r, i := range order {
		rank[i] = r
		c.Players[r] = CrossTablePlayer{Name: names[i], WDL: field[i]}
		c.Results[r] = make([]elo.WDL, len(names))
	}
	for _, m := range met {
		a, b := rank[m.a], rank[m.b]
		c.Results[a][b] = c.Results[a][b].Add(m.wdl)
		c.Results[b][a] = c.Results[b][a].Add(m.wdl.Swap())
	}
	return c
}

// CrossTable is the cross table of the tally's players.
func (t *Tally) CrossTable() *CrossTable {
	meetings := make([]Meeting, len(t.Pairings))
	for i, p := range t.Pairings {
		meetings[i] = Meeting{p.First, p.Second, p.WDL}
	}
	return NewCrossTable(t.Names(), meetings)
}

// CrossTable is the cross table of the summary's engines.
func (s *Summary) CrossTable() *CrossTable {
	names := make([]string, len(s.Engines))
	for i, e := range s.Engines {
		names[i] = e.Name
	}
	meetings := make([]Meeting, len(s.Pairings))
	for i, p := range s.Pairings {
		meetings[i] = Meeting{p.First, p.Second, elo.WDL{Wins: p.Wins, Draws: p.Draws, Losses: p.Losses}}
	}
	return NewCrossTable(names, meetings)
}
