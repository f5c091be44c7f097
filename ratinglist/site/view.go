package site

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"hivearbiter/ratinglist"
)

// site is what the pages are made from: the list, its table, and the names that link them.
type site struct {
	list   *ratinglist.List
	table  *ratinglist.Table
	checks map[string]string
	slugs  map[string]string // by engine name
	// engines are the engine names in the list's order; engineOf is each player's engine.
	engines  []string
	engineOf map[string]string
	position map[string]int // each player's row in the table
	// anchors are the ids of each player's section on its engine's page.
	anchors map[string]string
}

func newSite(l *ratinglist.List, t *ratinglist.Table, checks map[string]string) *site {
	s := &site{list: l, table: t, checks: checks, slugs: Slugs(l), engineOf: map[string]string{}, position: map[string]int{}}
	for _, e := range l.Entrants {
		if !slices.Contains(s.engines, e.Name) {
			s.engines = append(s.engines, e.Name)
		}
		s.engineOf[e.Player()] = e.Name
	}
	for i, r := range t.Rows {
		s.position[r.Player] = i
	}
	s.anchors = map[string]string{}
	for _, name := range s.engines {
		taken := map[string]bool{}
		for _, r := range t.Versions(name) {
			a := "v-" + slug(r.Version)
			for n := 2; taken[a]; n++ {
				a = fmt.Sprintf("v-%s-%d", slug(r.Version), n)
			}
			taken[a] = true
			s.anchors[r.Player] = a
		}
	}
	return s
}

func (s *site) enginePage(name string) string { return EnginesDir + "/" + s.slugs[name] + ".html" }
func (s *site) enginePGN(name string) string  { return EnginesDir + "/" + s.slugs[name] + ".pgn" }

// frame is what every page shows around its content: the list's name and the links between
// pages. Root leads from the page's folder to the site's.
type frame struct {
	List, Title, Root, Updated, Here string
}

func (s *site) frame(title, root, here string) frame {
	updated := "no game yet"
	if !s.table.Updated.IsZero() {
		updated = s.table.Updated.UTC().Format(updatedLayout)
	}
	return frame{List: s.table.List, Title: title, Root: root, Updated: updated, Here: here}
}

// row is a table row as the pages print it.
type row struct {
	Rank, Player, Name, Version, Link                    string
	Elo, Error, LOS, Score, Draw, AvgOpponent, FirstGame string
	Games, Wins, Draws, Losses, Faults                   int
	Status, Failure, Author, URL, Licence, Program       string
	// Why says why a failed or refused entrant is not rated (why), as a title and a note;
	// Said is the same as a sentence.
	Why, Said     string
	Rated, Marked bool
}

func (s *site) row(r ratinglist.Row, root string) row {
	v := row{Player: r.Player, Name: r.Name, Version: r.Version, Link: root + s.enginePage(r.Name) + "#" + s.anchors[r.Player],
		Elo: "—", Error: "—", LOS: "", Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses,
		Faults: r.Faults, Status: string(r.Status), Failure: r.Failure, Author: r.Author, URL: r.URL,
		Licence: r.Licence, Program: r.Program, Rated: r.Rated, Score: "—", Draw: "—", AvgOpponent: "—"}
	v.Marked = r.Status != ratinglist.StatusRated && r.Status != ratinglist.StatusAnchor
	if v.Why = why(r); v.Why != "" {
		v.Said = strings.ToUpper(v.Why[:1]) + v.Why[1:]
	}
	if r.Rated {
		v.Rank = fmt.Sprint(r.Rank)
		v.Elo = fmt.Sprintf("%.0f", r.Elo)
		if r.Status != ratinglist.StatusAnchor {
			v.Error = fmt.Sprintf("±%.0f", r.Error)
		}
	}
	if r.LOSNext != nil {
		v.LOS = percent(*r.LOSNext, 0)
	}
	if r.Games > 0 {
		v.Score, v.Draw = percent(r.Score, 1), percent(r.DrawRatio(), 1)
		v.AvgOpponent = fmt.Sprintf("%.0f", r.AvgOpponent)
	}
	if !r.First.IsZero() {
		v.FirstGame = r.First.UTC().Format(firstGameLayout)
	}
	return v
}

func percent(x float64, decimals int) string {
	v := fmt.Sprintf("%.*f%%", decimals, 100*x)
	if strings.HasPrefix(v, "-0") && strings.Trim(v, "-0.%") == "" {
		v = v[1:]
	}
	return v
}

// signed prints an Elo difference with its sign.
func signed(x float64) string {
	if math.Round(x) == 0 {
		return "0"
	}
	return fmt.Sprintf("%+.0f", x)
}

type indexPage struct {
	frame
	Conditions     [][2]string
	Games, Rated   int
	WhiteAdvantage string
	VirtualDraws   float64
	Rows           []row
	Stopped        []row // the failed entrants
	Refused        []row
	Apart          [][]string
}

func (s *site) index() indexPage {
	t := s.table
	p := indexPage{frame: s.frame(t.List, "", "index"), Conditions: t.Conditions, Games: t.Games, Rated: t.Rated,
		VirtualDraws: t.VirtualDraws, Apart: t.Apart}
	p.WhiteAdvantage = fmt.Sprintf("%s ± %.0f Elo", signed(t.WhiteAdvantage), t.WhiteAdvantageError)
	for _, r := range t.Rows {
		v := s.row(r, "")
		p.Rows = append(p.Rows, v)
		switch r.Status {
		case ratinglist.StatusFailed:
			p.Stopped = append(p.Stopped, v)
		case ratinglist.StatusRefused:
			p.Refused = append(p.Refused, v)
		}
	}
	return p
}

// cell is one score of the head-to-head matrix, from its row's entrant's point of view.
type cell struct {
	Text, Title, Class string
}

type headToHeadPage struct {
	frame
	Players []row
	Cells   [][]cell
}

func (s *site) headToHead() headToHeadPage {
	p := headToHeadPage{frame: s.frame("Head to head", "", "head-to-head")}
	var players []ratinglist.Row
	for _, r := range s.table.Rows {
		if r.Games > 0 {
			players = append(players, r)
			p.Players = append(p.Players, s.row(r, ""))
		}
	}
	at := map[string]int{}
	for i, r := range players {
		at[r.Player] = i
	}
	score := make([][]*ratinglist.HeadToHead, len(players))
	for i := range score {
		score[i] = make([]*ratinglist.HeadToHead, len(players))
	}
	for _, h := range s.table.HeadToHead {
		a, okA := at[h.A]
		b, okB := at[h.B]
		if okA && okB {
			score[a][b] = &ratinglist.HeadToHead{A: h.A, B: h.B, Wins: h.Wins, Draws: h.Draws, Losses: h.Losses}
			score[b][a] = &ratinglist.HeadToHead{A: h.B, B: h.A, Wins: h.Losses, Draws: h.Draws, Losses: h.Wins}
		}
	}
	for i := range players {
		cells := make([]cell, len(players))
		for j := range players {
			h := score[i][j]
			switch {
			case i == j:
				cells[j] = cell{Class: "self"}
			case h == nil:
				cells[j] = cell{Text: "·", Title: players[i].Player + " has not met " + players[j].Player, Class: "none"}
			default:
				cells[j] = scoreCell(*h)
			}
		}
		p.Cells = append(p.Cells, cells)
	}
	return p
}

func scoreCell(h ratinglist.HeadToHead) cell {
	games := h.Wins + h.Draws + h.Losses
	points := float64(h.Wins) + float64(h.Draws)/2
	c := cell{Text: fmt.Sprintf("%s/%d", half(points), games),
		Title: fmt.Sprintf("%s against %s: %d won, %d drawn, %d lost", h.A, h.B, h.Wins, h.Draws, h.Losses), Class: "even"}
	switch {
	case 2*points > float64(games):
		c.Class = "ahead"
	case 2*points < float64(games):
		c.Class = "behind"
	}
	return c
}

// half prints a score of whole and half points without a needless decimal.
func half(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// opponent is a version's score against one opponent.
type opponent struct {
	Player, Link, Score, Percent, Class string
	Wins, Draws, Losses, Games          int
}

type version struct {
	row
	Anchor    string // the id of its section
	Opponents []opponent
	Check     string
	HasCheck  bool
}

type enginePage struct {
	frame
	Name, PGN, Author, URL, Licence string
	// Linked says that URL is a web address to link to; any other is shown as text.
	Linked   bool
	Versions []version
	Chart    *chart
	Games    int
}

func (s *site) engine(name string) enginePage {
	p := enginePage{frame: s.frame(name, "../", "engine"), Name: name, PGN: s.slugs[name] + ".pgn"}
	rows := s.table.Versions(name)
	for _, r := range rows {
		v := version{row: s.row(r, "../"), Anchor: s.anchors[r.Player]}
		v.Check, v.HasCheck = s.checks[r.Player]
		if !v.HasCheck {
			v.Check = noCheckReport
		}
		v.Opponents = s.opponents(r.Player)
		p.Versions = append(p.Versions, v)
		p.Games += r.Games + r.Faults
		p.Author, p.URL, p.Licence = cmpOr(p.Author, r.Author), cmpOr(p.URL, r.URL), cmpOr(p.Licence, r.Licence)
	}
	p.Linked = strings.HasPrefix(p.URL, "https://") || strings.HasPrefix(p.URL, "http://")
	p.Chart = newChart(rows)
	return p
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// opponents are a player's scores against each entrant it met, in the table's order.
func (s *site) opponents(player string) []opponent {
	var out []opponent
	for _, h := range s.table.HeadToHead {
		switch player {
		case h.A:
		case h.B:
			h = ratinglist.HeadToHead{A: h.B, B: h.A, Wins: h.Losses, Draws: h.Draws, Losses: h.Wins}
		default:
			continue
		}
		c := scoreCell(h)
		games := h.Wins + h.Draws + h.Losses
		o := opponent{Player: h.B, Score: c.Text, Class: c.Class, Wins: h.Wins, Draws: h.Draws, Losses: h.Losses, Games: games}
		if games > 0 {
			o.Percent = percent((float64(h.Wins)+float64(h.Draws)/2)/float64(games), 1)
		}
		if name, ok := s.engineOf[h.B]; ok {
			o.Link = s.slugs[name] + ".html#" + s.anchors[h.B]
		}
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b opponent) int { return s.rank(a.Player) - s.rank(b.Player) })
	return out
}

func (s *site) rank(player string) int {
	if i, ok := s.position[player]; ok {
		return i
	}
	return len(s.position)
}
