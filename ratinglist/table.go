package ratinglist

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"time"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// The labels a list writes into each record's Settings.
const (
	LabelList    = "list"         // the list's ID
	LabelBatch   = "list batch"   // the batch's number, from 1
	LabelEntrant = "list entrant" // the entrant whose gauntlet the batch is
)

// VirtualDraws is the prior of a list's fit: this many drawn games added to each pairing that
// met, half with each colour, as BayesElo adds them.
const VirtualDraws = 1

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// Table is a list's standing: a pure function of the list and its records.
type Table struct {
	List       string      `json:"list"`
	ID         string      `json:"id"`
	Conditions [][2]string `json:"conditions"`
	// Games counts every game of the records; Rated those the ratings are fitted to (the
	// games that ended by an engine's failure are not).
	Games int `json:"games"`
	Rated int `json:"rated"`
	// WhiteAdvantage is the fitted Elo bonus of moving first, with its 95% error.
	WhiteAdvantage      float64 `json:"white_advantage"`
	WhiteAdvantageError float64 `json:"white_advantage_error"`
	// VirtualDraws were added to each pairing that met: the prior of the fit (VirtualDraws).
	VirtualDraws float64 `json:"virtual_draws,omitempty"`
	Rows         []Row   `json:"rows"`
	// HeadToHead holds every pair of entrants that met, from A's point of view.
	HeadToHead []HeadToHead `json:"head_to_head"`
	// Apart names the groups of entrants with games that no game connects to the anchor:
	// their ratings cannot be compared with the list's, so they are not rated.
	Apart [][]string `json:"apart,omitempty"`
	// Updated is when the last game finished.
	Updated time.Time `json:"updated"`
}

// Status says where an entrant stands.
type Status string

// The statuses of a row.
const (
	StatusAnchor      Status = "anchor"
	StatusRated       Status = "rated"
	StatusProvisional Status = "provisional"
	StatusFailed      Status = "failed"   // stopped by its failure streak
	StatusRefused     Status = "refused"  // not let in: its check failed, or it cannot play the list's games
	StatusApart       Status = "apart"    // no game connects it to the anchor
	StatusUnplayed    Status = "unplayed" // no game yet
)

// Row is one entrant's line of the table.
type Row struct {
	Rank    int    `json:"rank"` // 0 for an entrant without a rating
	Player  string `json:"player"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Author  string `json:"author,omitempty"`
	URL     string `json:"url,omitempty"`
	Licence string `json:"licence,omitempty"`
	// Program is the hash of the entrant's program that its games record.
	Program string `json:"program,omitempty"`
	// Rated is false for an entrant without a rating (apart, unplayed, or failed before one).
	Rated bool    `json:"rated"`
	Elo   float64 `json:"elo"`
	Error float64 `json:"error"` // half-width of the 95% interval; 0 for the anchor
	// LOSNext is the likelihood that this entrant is stronger than the next rated one down.
	LOSNext *float64 `json:"los_next,omitempty"`
	Games   int      `json:"games"` // rated games
	Wins    int      `json:"wins"`
	Draws   int      `json:"draws"`
	Losses  int      `json:"losses"`
	Score   float64  `json:"score"` // mean score of its rated games
	// Faults counts its games that ended by its own failure (crash, time loss, illegal move...):
	// recorded, not rated.
	Faults      int     `json:"faults"`
	AvgOpponent float64 `json:"avg_opponent"`
	Status      Status  `json:"status"`
	// Failure says why a failed entrant was stopped, or why a refused one was not let in.
	Failure string    `json:"failure,omitempty"`
	First   time.Time `json:"first_game,omitzero"`
	Last    time.Time `json:"last_game,omitzero"`
}

// DrawRatio is the fraction of its rated games drawn.
func (r Row) DrawRatio() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.Draws) / float64(r.Games)
}

// HeadToHead is the score of two entrants' rated games, from A's point of view.
type HeadToHead struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
}

// state is what a list's records say, in the numbers that the table and the planner share.
type state struct {
	l       *List
	n       int
	colours map[[2]int]*elo.WDL // rated games by (white, black)
	pair    map[[2]int]*elo.WDL // rated games by (a, b), a < b, from a's view
	metAll  map[[2]int]int      // every game by (a, b), a < b
	games   []int               // every game, faults included, by entrant
	faults  []int
	own     []int        // games of the entrant's own gauntlet batches
	owners  map[int]bool // the entrants whose gauntlets the records hold
	lastOwn []int        // the index in recs of the entrant's last game of its own gauntlet, -1
	recs    []results.Record
	failed  []string      // why an entrant was stopped, "" if it was not
	refused []Refusal     // why an entrant was not let in; Reason "" if it was
	program []string      // the program its games record
	first   []time.Time   // its first and last game
	last    []time.Time   //
	streak  []streakCount // its current run of failures
	total   int
	rated   int
	updated time.Time
	// fit: by entrant, NaN where unrated
	elo, se                     []float64
	los                         [][]float64 // by entrant
	rated2                      []bool
	whiteAdvantage, whiteAdvErr float64
	virtualDraws                float64
	apart                       [][]int
}

type streakCount struct {
	reason results.Reason
	n      int
	detail string
}

// RecordsError is a records file that does not belong to the list: a game of another list,
// of a player who is no entrant, or of an entrant under another program.
type RecordsError struct {
	Game string // the game, as "run R game N"
	Msg  string
}

// Error is the Message after the package's name.
func (e *RecordsError) Error() string { return "ratinglist: " + e.Message() }

// Message is the error without the package's name.
func (e *RecordsError) Message() string { return e.Game + ": " + e.Msg }

func gameName(r *results.Record) string {
	return fmt.Sprintf("run %s game %d", r.Run, r.Game+1)
}

// newState reads the records into the list's numbers and fits the ratings. refusals are the
// list's (List.Refusals): an entrant refused that has no game in recs is out of the list.
func newState(l *List, recs []results.Record, refusals map[string]Refusal) (*state, error) {
	n := len(l.Entrants)
	s := &state{l: l, n: n, colours: map[[2]int]*elo.WDL{}, pair: map[[2]int]*elo.WDL{}, metAll: map[[2]int]int{}, owners: map[int]bool{},
		games: make([]int, n), faults: make([]int, n), own: make([]int, n), failed: make([]string, n), refused: make([]Refusal, n),
		program: make([]string, n), first: make([]time.Time, n), last: make([]time.Time, n), streak: make([]streakCount, n),
		lastOwn: make([]int, n), recs: recs}
	for i := range s.lastOwn {
		s.lastOwn[i] = -1
	}
	index := make(map[string]int, n)
	for i, e := range l.Entrants {
		index[e.Player()] = i
	}
	id := l.ID()
	for k := range recs {
		if owner, ok := index[recs[k].Settings[LabelEntrant]]; ok {
			s.lastOwn[owner] = k
		}
		if err := s.add(&recs[k], id, index); err != nil {
			return nil, err
		}
	}
	for i, e := range l.Entrants {
		// An entrant is refused before its first game: one that has played was let in (its
		// refusal, if one is kept, is older than its games).
		if r, ok := refusals[e.Player()]; ok && s.games[i] == 0 {
			s.refused[i] = r
		}
	}
	s.fit()
	return s, nil
}

func (s *state) add(r *results.Record, id string, index map[string]int) error {
	if got := r.Settings[LabelList]; got != id {
		what := "no list's"
		if got != "" {
			what = "list " + got + "'s"
		}
		return &RecordsError{gameName(r), fmt.Sprintf("a game of %s, not of this list (%s): a records file of another list, or of this list under other conditions", what, id)}
	}
	w, okW := index[r.White.Name]
	b, okB := index[r.Black.Name]
	if !okW || !okB {
		missing := r.White.Name
		if okW {
			missing = r.Black.Name
		}
		return &RecordsError{gameName(r), fmt.Sprintf("%q played it, and is no entrant of the list: entrants stay on a list once they have played", missing)}
	}
	for side, e := range [2]int{w, b} {
		p := r.White
		if side == 1 {
			p = r.Black
		}
		switch {
		case s.program[e] == "":
			s.program[e] = p.Program
		case p.Program != s.program[e]:
			return &RecordsError{gameName(r), fmt.Sprintf("%s played it as program %.12s, and its earlier games as %.12s: one version is one program", p.Name, p.Program, s.program[e])}
		}
		s.games[e]++
		if s.first[e].IsZero() || r.Finished.Before(s.first[e]) {
			s.first[e] = r.Finished
		}
		if r.Finished.After(s.last[e]) {
			s.last[e] = r.Finished
		}
	}
	if owner, ok := index[r.Settings[LabelEntrant]]; ok {
		s.own[owner]++
		s.owners[owner] = true
	}
	s.total++
	s.metAll[[2]int{min(w, b), max(w, b)}]++
	if r.Finished.After(s.updated) {
		s.updated = r.Finished
	}
	culprit := -1
	if r.Reason.IsFault() {
		switch r.Culprit {
		case "White":
			culprit = w
		case "Black":
			culprit = b
		}
	}
	for side, e := range [2]int{w, b} {
		st := &s.streak[e]
		moved := len(r.Moves) > side
		switch {
		case e != culprit && !moved && culprit >= 0:
			// The other side failed before this one moved: nothing said of this one, as the
			// arbiter's failure streak counts it.
		case e != culprit:
			*st = streakCount{}
		case st.reason == r.Reason:
			st.n++
			st.detail = r.Detail
		default:
			*st = streakCount{reason: r.Reason, n: 1, detail: r.Detail}
		}
		if st.n >= s.l.FailureStreak && s.failed[e] == "" {
			s.failed[e] = fmt.Sprintf("%d games in a row lost by %s (the last: %s)", st.n, st.reason, st.detail)
		}
	}
	if r.Reason.IsFault() {
		if culprit >= 0 {
			s.faults[culprit]++
		}
		return nil
	}
	s.rated++
	score := r.WhiteScore()
	add := func(m map[[2]int]*elo.WDL, k [2]int, score float64) {
		c := m[k]
		if c == nil {
			c = &elo.WDL{}
			m[k] = c
		}
		*c = c.Add(results.ScoreWDL(score))
	}
	add(s.colours, [2]int{w, b}, score)
	if w < b {
		add(s.pair, [2]int{w, b}, score)
	} else {
		add(s.pair, [2]int{b, w}, 1-score)
	}
	return nil
}

// components groups the entrants with rated games by the games that connect them; the
// anchor's group comes first.
func (s *state) components() [][]int {
	parent := make([]int, s.n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	played := make([]bool, s.n)
	for k := range s.pair {
		played[k[0]], played[k[1]] = true, true
		parent[find(k[0])] = find(k[1])
	}
	anchor := s.l.anchor()
	played[anchor] = true
	groups := map[int][]int{}
	var roots []int
	for i := range s.n {
		if !played[i] {
			continue
		}
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], i)
	}
	slices.SortStableFunc(roots, func(a, b int) int {
		switch {
		case find(anchor) == a:
			return -1
		case find(anchor) == b:
			return 1
		}
		return 0
	})
	out := make([][]int, len(roots))
	for i, r := range roots {
		out[i] = groups[r]
	}
	return out
}

// fit fits the ratings of the anchor's group, in list order, with the anchor fixed.
func (s *state) fit() {
	s.elo, s.se = make([]float64, s.n), make([]float64, s.n)
	s.rated2 = make([]bool, s.n)
	s.los = make([][]float64, s.n)
	for i := range s.n {
		s.elo[i], s.se[i] = math.NaN(), math.Inf(1)
	}
	groups := s.components()
	s.apart = groups[1:]
	group := groups[0]
	anchor := s.l.anchor()
	local := make([]int, s.n)
	for i := range local {
		local[i] = -1
	}
	for k, e := range group {
		local[e] = k
	}
	if len(group) == 1 {
		s.elo[anchor], s.se[anchor], s.rated2[anchor] = s.l.Anchor.Elo, 0, true
		return
	}
	// The matches in a fixed order, so that the fit (and the table) is the same float for float.
	keys := make([][2]int, 0, len(s.colours))
	for k := range s.colours {
		if local[k[0]] >= 0 && local[k[1]] >= 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	matches := make([]elo.Match, len(keys))
	for i, k := range keys {
		matches[i] = elo.Match{White: local[k[0]], Black: local[k[1]], WDL: *s.colours[k]}
	}
	// A virtual draw per pairing, always, as BayesElo's prior: it keeps all-win and all-loss
	// ratings finite, and a list's errors do not leap when the last such entrant draws its
	// first game and the plain maximum-likelihood fit suddenly exists (on a list of real
	// engines an entrant's error went from ±218 to ±487 so).
	opts := elo.RatingOptions{WhiteAdvantage: true, VirtualDraws: VirtualDraws, Anchor: &elo.Anchor{Player: local[anchor], Elo: s.l.Anchor.Elo}}
	res, err := elo.Ratings(len(group), matches, opts)
	var infinite *elo.RatingError
	if errors.As(err, &infinite) {
		// One colour scored every point: no White advantage can be fitted from so few games.
		opts.WhiteAdvantage = false
		res, err = elo.Ratings(len(group), matches, opts)
	}
	if err != nil {
		// Nothing is rated but the anchor until the games allow a fit.
		s.elo[anchor], s.se[anchor], s.rated2[anchor] = s.l.Anchor.Elo, 0, true
		return
	}
	s.virtualDraws = opts.VirtualDraws
	s.whiteAdvantage, s.whiteAdvErr = res.WhiteAdvantage, z95*res.WhiteAdvantageStdErr
	for k, e := range group {
		s.elo[e], s.se[e], s.rated2[e] = res.Elo[k], res.StdErr[k], true
		s.los[e] = make([]float64, s.n)
		for k2, e2 := range group {
			s.los[e][e2] = res.LOS[k][k2]
		}
	}
}

// out reports whether an entrant is out of the list's schedule: stopped by its failures, or
// refused.
func (s *state) out(i int) bool { return s.failed[i] != "" || s.refused[i].Reason != "" }

// errorOf is the half-width of an entrant's 95% interval, +Inf when it has no rating.
func (s *state) errorOf(i int) float64 {
	if !s.rated2[i] {
		return math.Inf(1)
	}
	return z95 * s.se[i]
}

// Compute is the list's table from its records and the refusals kept in its checks folder
// (List.Refusals): a pure function of them. It refuses records that are not the list's, naming
// the game.
func Compute(l *List, recs []results.Record) (*Table, error) {
	refusals, err := l.Refusals()
	if err != nil {
		return nil, err
	}
	s, err := newState(l, recs, refusals)
	if err != nil {
		return nil, err
	}
	return s.table(), nil
}

func (s *state) table() *Table {
	l := s.l
	t := &Table{List: l.Name, ID: l.ID(), Conditions: l.Conditions(), Games: s.total, Rated: s.rated,
		WhiteAdvantage: round(s.whiteAdvantage), WhiteAdvantageError: round(s.whiteAdvErr), VirtualDraws: s.virtualDraws, Updated: s.updated}
	anchor := l.anchor()
	rows := make([]Row, s.n)
	for i, e := range l.Entrants {
		r := Row{Player: e.Player(), Name: e.Name, Version: e.Version, Author: e.Author, URL: e.URL, Licence: e.Licence,
			Program: s.program[i], Faults: s.faults[i], First: s.first[i], Last: s.last[i], Failure: s.failed[i]}
		var opp float64
		for k, c := range s.pair {
			var mine elo.WDL
			other := -1
			switch i {
			case k[0]:
				mine, other = *c, k[1]
			case k[1]:
				mine, other = elo.WDL{Wins: c.Losses, Draws: c.Draws, Losses: c.Wins}, k[0]
			default:
				continue
			}
			r.Wins += mine.Wins
			r.Draws += mine.Draws
			r.Losses += mine.Losses
			if s.rated2[other] {
				opp += s.elo[other] * float64(mine.Games())
			}
		}
		r.Games = r.Wins + r.Draws + r.Losses
		if r.Games > 0 {
			r.Score = round(elo.WDL{Wins: r.Wins, Draws: r.Draws, Losses: r.Losses}.Score())
			r.AvgOpponent = round(opp / float64(r.Games))
		}
		r.Rated = s.rated2[i]
		if r.Rated {
			r.Elo, r.Error = round(s.elo[i]), round(s.errorOf(i))
		}
		switch {
		case s.refused[i].Reason != "":
			r.Status, r.Failure = StatusRefused, s.refused[i].Reason
		case i == anchor:
			r.Status = StatusAnchor
		case s.failed[i] != "":
			r.Status = StatusFailed
		case s.games[i] == 0:
			r.Status = StatusUnplayed
		case !r.Rated:
			r.Status = StatusApart
		case s.errorOf(i) > l.ErrorTarget:
			r.Status = StatusProvisional
		default:
			r.Status = StatusRated
		}
		rows[i] = r
	}
	order := make([]int, s.n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ra, rb := rows[a].Rated, rows[b].Rated
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		case ra && rb && s.elo[a] != s.elo[b]:
			if s.elo[a] > s.elo[b] {
				return -1
			}
			return 1
		}
		return 0
	})
	rank := 0
	for k, i := range order {
		r := rows[i]
		if r.Rated {
			rank++
			r.Rank = rank
			if k+1 < len(order) && rows[order[k+1]].Rated {
				los := round(s.los[i][order[k+1]])
				r.LOSNext = &los
			}
		}
		t.Rows = append(t.Rows, r)
	}
	keys := make([][2]int, 0, len(s.pair))
	for k := range s.pair {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	for _, k := range keys {
		c := s.pair[k]
		t.HeadToHead = append(t.HeadToHead, HeadToHead{A: l.Entrants[k[0]].Player(), B: l.Entrants[k[1]].Player(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses})
	}
	for _, g := range s.apart {
		var names []string
		for _, e := range g {
			names = append(names, l.Entrants[e].Player())
		}
		t.Apart = append(t.Apart, names)
	}
	return t
}

// round keeps two decimals: the table's numbers are for reading, and a published table
// must be the same whatever the last bits of a float.
func round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return v
}

// Row returns the row of the entrant with this player name.
func (t *Table) Row(player string) (Row, bool) {
	for _, r := range t.Rows {
		if r.Player == player {
			return r, true
		}
	}
	return Row{}, false
}

// Versions returns the rows of an engine's versions, in the order they first played.
func (t *Table) Versions(name string) []Row {
	var out []Row
	for _, r := range t.Rows {
		if r.Name == name {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b Row) int { return a.First.Compare(b.First) })
	return out
}
