package results

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"hivearbiter/elo"
)

// Tally aggregates records into what the result tables show. It is built one record at a time
// (Add) and keeps only counts, never the records: its size depends on the number of players,
// not of games, so a tournament of any length runs in flat memory.
type Tally struct {
	// Players lists every player, in the order given to NewTally followed by any others in
	// the order they first appear.
	Players []*PlayerTally
	// Pairings lists every pair of players that met, in the order of Players.
	Pairings []*PairingTally
	// Games counts the records added.
	Games int
	// Runs lists the runs the records come from, sorted.
	Runs []string

	byName   map[string]*PlayerTally
	rank     map[string]int
	pairings map[[2]string]*PairingTally
	// colours counts results by (White, Black) player index, for the maximum-likelihood fit.
	colours     map[[2]int]*elo.WDL
	colourOrder [][2]int
	// pairs holds the games whose colour-swapped partner has not been added yet.
	pairs *PairTracker
}

// pairKey names a game pair: its run and its pair index.
type pairKey struct {
	run  string
	pair int
}

// PlayerTally is one player's results against the whole field.
type PlayerTally struct {
	Name  string
	WDL   elo.WDL        // from the player's point of view
	Pairs elo.PairCounts // completed game pairs, from the player's point of view
	// Faults counts the games the player lost by its own misbehaviour, by reason.
	Faults map[Reason]int
}

// PairingTally is the head-to-head result of two players, from First's point of view.
type PairingTally struct {
	First, Second string
	WDL           elo.WDL
	Pairs         elo.PairCounts
	// Unpaired counts games whose colour-swapped partner is not (yet) among the records.
	Unpaired int
}

// Player returns the tally of the named player, or nil.
func (t *Tally) Player(name string) *PlayerTally { return t.byName[name] }

// Pairing returns the head-to-head tally of two players from a's point of view, or nil if
// they never met.
func (t *Tally) Pairing(a, b string) *PairingTally {
	for _, p := range t.Pairings {
		switch {
		case p.First == a && p.Second == b:
			return p
		case p.First == b && p.Second == a:
			swapped := *p
			swapped.First, swapped.Second = a, b
			swapped.WDL = p.WDL.Swap()
			swapped.Pairs = elo.PairCounts{LL: p.Pairs.WW, LD: p.Pairs.WD, WL: p.Pairs.WL, DD: p.Pairs.DD, WD: p.Pairs.LD, WW: p.Pairs.LL}
			return &swapped
		}
	}
	return nil
}

// FaultTotal is the number of games the player lost by misbehaving.
func (p *PlayerTally) FaultTotal() int {
	n := 0
	for _, c := range p.Faults {
		n += c
	}
	return n
}

// NewTally adds up records. order names the players to list first (the tournament's engines
// in configuration order); head-to-head results are seen from the earlier player in that order.
// Two games form a pair when they share a run and a pair index, have the same two players,
// and the colours are swapped.
func NewTally(recs []Record, order []string) *Tally {
	t := &Tally{
		byName: make(map[string]*PlayerTally), rank: make(map[string]int),
		pairings: make(map[[2]string]*PairingTally), colours: make(map[[2]int]*elo.WDL),
		pairs: NewPairTracker(2),
	}
	for _, name := range order {
		t.player(name)
	}
	for i := range recs {
		t.Add(&recs[i])
	}
	return t
}

// Faults counts the games that ended by a player's misbehaviour.
func (t *Tally) Faults() int {
	n := 0
	for _, p := range t.Players {
		n += p.FaultTotal()
	}
	return n
}

// FaultReasons names the reasons of the games that ended by a player's misbehaviour, with
// their counts: "a 3 by crash, b 1 by time-forfeit".
func (t *Tally) FaultReasons() string {
	var parts []string
	for _, p := range t.Players {
		for _, reason := range slices.Sorted(maps.Keys(p.Faults)) {
			parts = append(parts, fmt.Sprintf("%s %d by %s", p.Name, p.Faults[reason], reason))
		}
	}
	return strings.Join(parts, ", ")
}

// Names are the players' names, in the tally's order.
func (t *Tally) Names() []string {
	names := make([]string, len(t.Players))
	for i, p := range t.Players {
		names[i] = p.Name
	}
	return names
}

// SetGamesPerPair says how many games make a pair, 2 (colour-swapped pairs, the default) or
// 1; call it before the first Add.
func (t *Tally) SetGamesPerPair(n int) { t.pairs = NewPairTracker(n) }

// CompletePairs counts the game pairs all of whose games have been added.
func (t *Tally) CompletePairs() int { return t.pairs.Complete() }

func (t *Tally) player(name string) *PlayerTally {
	if p := t.byName[name]; p != nil {
		return p
	}
	p := &PlayerTally{Name: name, Faults: make(map[Reason]int)}
	t.byName[name] = p
	t.rank[name] = len(t.Players)
	t.Players = append(t.Players, p)
	return p
}

// pairing returns the head-to-head tally of a and b, and whether b is its First.
func (t *Tally) pairing(a, b string) (*PairingTally, bool) {
	swapped := t.rank[a] > t.rank[b]
	if swapped {
		a, b = b, a
	}
	key := [2]string{a, b}
	p := t.pairings[key]
	if p == nil {
		p = &PairingTally{First: a, Second: b}
		t.pairings[key] = p
		t.Pairings = append(t.Pairings, p)
		sort.SliceStable(t.Pairings, func(i, j int) bool {
			pi, pj := t.Pairings[i], t.Pairings[j]
			if t.rank[pi.First] != t.rank[pj.First] {
				return t.rank[pi.First] < t.rank[pj.First]
			}
			return t.rank[pi.Second] < t.rank[pj.Second]
		})
	}
	return p, swapped
}

// Add counts one record. The tally keeps nothing of it but counts (and, until its partner
// arrives, what a game needs to complete its pair). When the record completes its game pair,
// Add returns the pair's games in schedule order.
func (t *Tally) Add(r *Record) ([]PairGame, bool) {
	t.Games++
	if i, found := slices.BinarySearch(t.Runs, r.Run); !found {
		t.Runs = slices.Insert(t.Runs, i, r.Run)
	}
	w, b := t.player(r.White.Name), t.player(r.Black.Name)
	ws := r.WhiteScore()
	w.WDL = w.WDL.Add(ScoreWDL(ws))
	b.WDL = b.WDL.Add(ScoreWDL(1 - ws))
	switch r.Culprit {
	case "White":
		w.Faults[r.Reason]++
	case "Black":
		b.Faults[r.Reason]++
	}
	p, swapped := t.pairing(r.White.Name, r.Black.Name)
	if swapped {
		p.WDL = p.WDL.Add(ScoreWDL(1 - ws))
	} else {
		p.WDL = p.WDL.Add(ScoreWDL(ws))
	}
	ck := [2]int{t.rank[w.Name], t.rank[b.Name]}
	if t.colours[ck] == nil {
		t.colours[ck] = &elo.WDL{}
		t.colourOrder = append(t.colourOrder, ck)
	}
	*t.colours[ck] = t.colours[ck].Add(ScoreWDL(ws))

	// A game completes a pair when its colour-swapped partner is in. Otherwise it waits,
	// counted as unpaired.
	pair, complete := t.pairs.Add(r)
	if !complete {
		p.Unpaired++
		return nil, false
	}
	p.Unpaired -= len(pair) - 1
	if len(pair) < 2 {
		return pair, true // a "pair" of one game: nothing to pair up
	}
	g0, g1 := pair[0], pair[1]
	p.Pairs.AddPair(g0.ScoreOf(p.First), g1.ScoreOf(p.First))
	w.Pairs.AddPair(g0.ScoreOf(w.Name), g1.ScoreOf(w.Name))
	b.Pairs.AddPair(g0.ScoreOf(b.Name), g1.ScoreOf(b.Name))
	return pair, true
}

// ScoreWDL is one game of a player who scored score in it (1, 0.5 or 0, as Record.ScoreOf
// says) as a win, a draw or a loss.
func ScoreWDL(score float64) elo.WDL {
	switch score {
	case 1:
		return elo.WDL{Wins: 1}
	case 0:
		return elo.WDL{Losses: 1}
	}
	return elo.WDL{Draws: 1}
}
