package results

import (
	"sort"

	"hivearbiter/elo"
)

// Tally aggregates records into what the result tables show.
type Tally struct {
	// Players lists every player, in the order given to NewTally followed by any others in
	// the order they first appear.
	Players []*PlayerTally
	// Pairings lists every pair of players that met, in the order of Players.
	Pairings []*PairingTally
	byName   map[string]*PlayerTally
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
	t := &Tally{byName: make(map[string]*PlayerTally)}
	rank := make(map[string]int)
	player := func(name string) *PlayerTally {
		if p := t.byName[name]; p != nil {
			return p
		}
		p := &PlayerTally{Name: name, Faults: make(map[Reason]int)}
		t.byName[name] = p
		rank[name] = len(t.Players)
		t.Players = append(t.Players, p)
		return p
	}
	for _, name := range order {
		player(name)
	}
	for i := range recs {
		player(recs[i].White.Name)
		player(recs[i].Black.Name)
	}
	pairings := make(map[[2]string]*PairingTally)
	pairing := func(a, b string) (*PairingTally, bool) {
		swapped := rank[a] > rank[b]
		if swapped {
			a, b = b, a
		}
		key := [2]string{a, b}
		if pairings[key] == nil {
			pairings[key] = &PairingTally{First: a, Second: b}
		}
		return pairings[key], swapped
	}
	type pairKey struct {
		run  string
		pair int
	}
	partners := make(map[pairKey][]*Record)
	for i := range recs {
		r := &recs[i]
		w, b := t.byName[r.White.Name], t.byName[r.Black.Name]
		ws := r.WhiteScore()
		w.WDL = w.WDL.Add(wdlOf(ws))
		b.WDL = b.WDL.Add(wdlOf(1 - ws))
		if r.Culprit == "White" {
			w.Faults[r.Reason]++
		} else if r.Culprit == "Black" {
			b.Faults[r.Reason]++
		}
		p, swapped := pairing(r.White.Name, r.Black.Name)
		if swapped {
			p.WDL = p.WDL.Add(wdlOf(1 - ws))
		} else {
			p.WDL = p.WDL.Add(wdlOf(ws))
		}
		k := pairKey{r.Run, r.Pair}
		partners[k] = append(partners[k], r)
	}
	for _, games := range partners {
		if len(games) != 2 || games[0].White.Name != games[1].Black.Name || games[0].Black.Name != games[1].White.Name {
			for _, g := range games {
				p, _ := pairing(g.White.Name, g.Black.Name)
				p.Unpaired++
			}
			continue
		}
		g0, g1 := games[0], games[1]
		if g1.Game < g0.Game {
			g0, g1 = g1, g0
		}
		p, _ := pairing(g0.White.Name, g0.Black.Name)
		first := p.First
		p.Pairs.AddPair(g0.ScoreOf(first), g1.ScoreOf(first))
		a, b := t.byName[g0.White.Name], t.byName[g0.Black.Name]
		a.Pairs.AddPair(g0.ScoreOf(a.Name), g1.ScoreOf(a.Name))
		b.Pairs.AddPair(g0.ScoreOf(b.Name), g1.ScoreOf(b.Name))
	}
	for _, p := range pairings {
		t.Pairings = append(t.Pairings, p)
	}
	sort.Slice(t.Pairings, func(i, j int) bool {
		pi, pj := t.Pairings[i], t.Pairings[j]
		if rank[pi.First] != rank[pj.First] {
			return rank[pi.First] < rank[pj.First]
		}
		return rank[pi.Second] < rank[pj.Second]
	})
	return t
}

func wdlOf(score float64) elo.WDL {
	switch score {
	case 1:
		return elo.WDL{Wins: 1}
	case 0:
		return elo.WDL{Losses: 1}
	}
	return elo.WDL{Draws: 1}
}
