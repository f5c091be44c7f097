package ratinglist

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/elo"
	"hivearbiter/results"
)

// Batch is one gauntlet of a list: game pairs of one entrant against a few others.
type Batch struct {
	Number    int   // from 1, in the order the list plays them
	Entrant   int   // whose gauntlet it is, an index into List.Entrants
	Opponents []int // indices into List.Entrants
	Pairs     int   // game pairs against each opponent
	// Why says for a person why this entrant plays now.
	Why string
	// Resumed says that the records hold some of the batch's games: a run stopped in it.
	Resumed bool
}

// Games is the number of games the batch schedules.
func (b Batch) Games() int { return 2 * b.Pairs * len(b.Opponents) }

// Describe says who plays whom, for a person.
func (b Batch) Describe(l *List) string {
	names := make([]string, len(b.Opponents))
	for i, o := range b.Opponents {
		names[i] = l.Entrants[o].Player()
	}
	return fmt.Sprintf("batch %d: %s plays %d game pairs against each of %s (%s)", b.Number, l.Entrants[b.Entrant].Player(), b.Pairs, strings.Join(names, ", "), b.Why)
}

// Config is the batch as a tournament: a gauntlet of the entrant against its opponents under
// the list's conditions, appending to the list's records. Its seed is the list's and the
// batch's number, so that no two batches share a run id or a draw of openings.
func (l *List) Config(b Batch) arbiter.Config {
	engines := []driver.EngineConfig{l.Entrants[b.Entrant].Engine}
	for _, o := range b.Opponents {
		engines = append(engines, l.Entrants[o].Engine)
	}
	return arbiter.Config{
		Format: arbiter.Gauntlet, Seeds: 1, Rounds: b.Pairs, GamesPerPairing: 2,
		Engines: engines, GameType: l.GameType, Openings: l.Openings, Adjudication: l.Adjudication,
		Concurrency: l.Concurrency, Seed: l.Seed*1_000_003 + int64(b.Number), Out: l.Records,
		SharedRecords: true, FailureStreak: l.FailureStreak, Event: l.Name,
		Labels: map[string]string{LabelList: l.ID(), LabelBatch: strconv.Itoa(b.Number), LabelEntrant: l.Entrants[b.Entrant].Player()},
	}
}

// Next is the batch to play now: the last batch of the records if it is unfinished (a killed
// run's), else the one after it; false when every entrant is done. A batch is a function of
// the list, its refusals and the records of the batches before it alone, so the list plays the
// same batches whether or not it was stopped on the way. An entrant refused (List.Refusals)
// plays no batch and is no one's opponent; the last batch is not resumed if the list would now
// play another entrant's (one refused was let in since).
func Next(l *List, recs []results.Record) (Batch, bool, error) {
	refusals, err := l.Refusals()
	if err != nil {
		return Batch{}, false, err
	}
	last, inLast, owner := 0, 0, ""
	for i := range recs {
		n, err := batchOf(&recs[i])
		if err != nil {
			return Batch{}, false, err
		}
		switch {
		case n > last:
			last, inLast, owner = n, 1, recs[i].Settings[LabelEntrant]
		case n == last:
			inLast++
		}
	}
	if last > 0 {
		var before []results.Record
		for i := range recs {
			if n, _ := batchOf(&recs[i]); n < last {
				before = append(before, recs[i])
			}
		}
		s, err := newState(l, before, refusals)
		if err != nil {
			return Batch{}, false, err
		}
		b, ok := s.plan(last)
		if !ok {
			return Batch{}, false, &RecordsError{fmt.Sprintf("batch %d", last), "the list, as it is now, would not have played this batch: its entrants' order, its anchor or its schedule settings changed since"}
		}
		all, err := newState(l, recs, refusals)
		if err != nil {
			return Batch{}, false, err
		}
		stopped := all.out(b.Entrant)
		for _, o := range b.Opponents {
			stopped = stopped || all.out(o)
		}
		// The batch the list would play now is another entrant's than the one the records
		// began (an entrant before it in the list's order was let in since: a refused
		// entrant's program changed): the list goes on from here, and the gauntlet begun
		// goes on in a batch of its own.
		other := owner != l.Entrants[b.Entrant].Player()
		if inLast < b.Games() && !stopped && !other {
			b.Why, b.Resumed = "resumed: "+b.Why, true
			return b, true, nil
		}
		b, ok = all.plan(last + 1)
		return b, ok, nil
	}
	s, err := newState(l, recs, refusals)
	if err != nil {
		return Batch{}, false, err
	}
	b, ok := s.plan(1)
	return b, ok, nil
}

// batchOf is the batch number a record's labels give.
func batchOf(r *results.Record) (int, error) {
	n, err := strconv.Atoi(r.Settings[LabelBatch])
	if err != nil || n < 1 {
		return 0, &RecordsError{gameName(r), fmt.Sprintf("no batch number (%q): not a game a list played", r.Settings[LabelBatch])}
	}
	return n, nil
}

// order is the order in which entrants play their gauntlets: the anchor first (it has none:
// the others meet it), then the list's order. An entrant's opponents come before it.
func (s *state) order() []int {
	anchor := s.l.anchor()
	out := []int{anchor}
	for i := range s.n {
		if i != anchor {
			out = append(out, i)
		}
	}
	return out
}

// plan chooses the batch numbered number from the state of the records before it.
func (s *state) plan(number int) (Batch, bool) {
	order := s.order()
	// A gauntlet, once the list has gone on to a later entrant's, stays closed: the games of
	// entrants added later do not reopen it (they may move its error either way). Only a
	// larger budget or a smaller target than it closed under reopens it.
	current := 0
	for pos, x := range order {
		if s.owners[x] {
			current = pos
		}
	}
	for pos, x := range order {
		if pos == 0 || s.out(x) || pos < current && s.closed(x) {
			continue
		}
		var earlier, others []int
		for k, c := range order {
			if k != pos && !s.out(c) {
				others = append(others, c)
				if k < pos {
					earlier = append(earlier, c)
				}
			}
		}
		if len(earlier) == 0 {
			continue
		}
		if s.l.Mode == RoundRobin {
			var missing []int
			for _, c := range earlier {
				if s.met(x, c) < 2*s.l.Rounds {
					missing = append(missing, c)
				}
			}
			if len(missing) > 0 {
				return Batch{Number: number, Entrant: x, Opponents: missing, Pairs: s.l.Rounds, Why: "round robin"}, true
			}
		}
		if s.own[x] >= s.l.MaxGames {
			continue // its budget is spent: it stays provisional if its error is above the target
		}
		e := s.errorOf(x)
		if e <= s.l.ErrorTarget {
			continue
		}
		why := "a new entrant"
		if !math.IsInf(e, 1) {
			why = fmt.Sprintf("its error is ±%.0f, the target ±%g", e, s.l.ErrorTarget)
		}
		// Its opponents are any rated entrants: those before it when its gauntlet begins (the
		// ones after it have no games yet), any of the field when a larger budget reopens it.
		opponents := s.opponents(x, others)
		if len(opponents) == 0 {
			continue // none of the entrants before it is rated: the anchor failed
		}
		return Batch{Number: number, Entrant: x, Opponents: opponents, Pairs: s.l.Pairs, Why: why}, true
	}
	return Batch{}, false
}

// closed reports whether an entrant's gauntlet, which the list has gone past, was done when it
// closed: its budget is spent, or its error was at the target after its last own game. An
// entrant the list went past without a gauntlet (one put before others in the file after they
// played) has not had its turn.
func (s *state) closed(x int) bool {
	switch {
	case s.own[x] >= s.l.MaxGames:
		return true
	case s.lastOwn[x] < 0:
		return false
	}
	then, err := newState(s.l, s.recs[:s.lastOwn[x]+1], nil)
	return err != nil || then.errorOf(x) <= s.l.ErrorTarget
}

// met counts the games two entrants played each other, faults included.
func (s *state) met(a, b int) int {
	if a > b {
		a, b = b, a
	}
	return s.metAll[[2]int{a, b}]
}

// opponents chooses the opponents of x's next batch among the candidates: the rated ones
// whose games tell most about x's rating (an expected score near one half, a rating of their
// own that is sure), spread over the field (the more x has met one, the less it is worth), and
// at least one from the anchor's neighbourhood until x has met it for a batch's pairs.
func (s *state) opponents(x int, candidates []int) []int {
	anchor := s.l.anchor()
	est := s.l.Anchor.Elo
	if s.rated2[x] {
		est = s.elo[x]
	}
	type scored struct {
		e     int
		worth float64
	}
	var rated []scored
	for _, c := range candidates {
		if !s.rated2[c] {
			continue
		}
		p := elo.ScoreFromElo(est - s.elo[c])
		worth := p * (1 - p) / (1 + math.Pow(s.se[c]/100, 2)) / (1 + float64(s.met(x, c))/float64(2*s.l.Pairs))
		rated = append(rated, scored{c, worth})
	}
	slices.SortStableFunc(rated, func(a, b scored) int {
		switch {
		case a.worth > b.worth:
			return -1
		case a.worth < b.worth:
			return 1
		}
		return 0
	})
	k := min(s.l.Opponents, len(rated))
	chosen := make([]int, 0, k)
	for _, c := range rated[:k] {
		chosen = append(chosen, c.e)
	}
	near := func(c int) bool { return math.Abs(s.elo[c]-s.elo[anchor]) <= AnchorWindow }
	metNear, hasNear := 0, false
	for _, c := range rated {
		if near(c.e) {
			metNear += s.met(x, c.e)
		}
	}
	for _, c := range chosen {
		hasNear = hasNear || near(c)
	}
	if !hasNear && metNear < 2*s.l.Pairs {
		for _, c := range rated[k:] {
			if near(c.e) {
				chosen[len(chosen)-1] = c.e
				break
			}
		}
	}
	slices.Sort(chosen)
	return chosen
}

// WritePlan says which batch the list plays next and why (Batch.Describe), or that every
// entrant is done, and which entrants are refused, which it passes over: what "arbiter list
// plan" prints.
func WritePlan(w io.Writer, l *List, recs []results.Record) error {
	b, ok, err := Next(l, recs)
	if err != nil {
		return err
	}
	refusals, err := l.Refusals()
	if err != nil {
		return err
	}
	var out strings.Builder
	if ok {
		fmt.Fprintf(&out, "Next: %s; %d games.\n", b.Describe(l), b.Games())
	} else {
		fmt.Fprintf(&out, "Every entrant of %s is done: nothing to play.\n", l.Name)
	}
	for _, e := range l.Entrants {
		if r, refused := refusals[e.Player()]; refused && !played(recs, e.Player()) {
			fmt.Fprintf(&out, "Refused, and passed over until it is entered again: %s (%s).\n", e.Player(), r.Reason)
		}
	}
	_, err = io.WriteString(w, out.String())
	return err
}
