package pool

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/results"
)

// Taking a worker's games out of a run (Control "exclude"), as fishtest's approvers purge a
// worker whose results are improbable: the run is paused while its records file is rewritten
// without the worker's games (kept aside in RUN.excluded.jsonl), the worker is kept from the run
// from then on, and the run resumes from its records, its coordinator counting again what is
// left; the games taken out are missing from the records, so other workers play them again.

// excludedPath is where the games taken out of a run are kept.
func (s *Server) excludedPath(id string) string {
	return filepath.Join(s.cfg.Dir, "runs", id+".excluded.jsonl")
}

// exclude takes worker's games out of the run, on behalf of by; s.ctl is held. On an error
// the records file is as it was, and a run that was active is active again.
func (s *Server) exclude(r *run, worker, by string) error {
	st := s.runState(r.state.ID)
	switch {
	case worker == "":
		return fmt.Errorf("pool: which worker's games to take out of run %s?", st.ID)
	case r.sub != nil && r.sub.Tune != nil:
		return fmt.Errorf("pool: run %s is a tune, whose pairs are not recorded by worker: nothing to take out", st.ID)
	case st.State != StateActive && st.State != StatePaused:
		return fmt.Errorf("pool: run %s is %s: a worker's games are taken out of an active or paused run only", st.ID, st.State)
	case slices.Contains(st.ExcludedWorkers(), worker):
		return fmt.Errorf("pool: worker %s was taken out of run %s already", worker, st.ID)
	}
	active := st.State == StateActive
	if active {
		s.stopRun(r) // its coordinator is done collecting: the file is no longer written
		if now := s.runState(st.ID); now.Over() {
			return fmt.Errorf("pool: run %s is %s (it ended as it was paused): its games stay", st.ID, now.State)
		}
	}
	// The exclusion is kept before the file is rewritten: a server killed between the two
	// takes the games out when it starts the run again (takeOutExcluded).
	s.mu.Lock()
	r.state.Excluded = append(r.state.Excluded, Exclusion{Worker: worker, By: by, At: time.Now().UTC()})
	s.mu.Unlock()
	s.saveState(r)
	if err := s.takeOutExcluded(r); err != nil {
		s.mu.Lock()
		r.state.Excluded = r.state.Excluded[:len(r.state.Excluded)-1]
		s.mu.Unlock()
		s.saveState(r)
		err = fmt.Errorf("pool: taking worker %s's games out of run %s: %w", worker, st.ID, err)
		if active {
			if rerr := s.startRun(r); rerr != nil {
				s.ended(r, StateFailed, rerr.Error(), nil)
			}
		}
		return err
	}
	sum, sumErr := s.recount(r)
	s.mu.Lock()
	ex := r.state.Excluded[len(r.state.Excluded)-1]
	if sumErr == nil {
		r.state.Summary = sum
	}
	s.mu.Unlock()
	s.printf("Run %s: worker %s taken out by %s: %s (kept in %s)\n", st.ID, worker, personOr(by), exclusionText(ex), s.excludedPath(st.ID))
	if active {
		if err := s.startRun(r); err != nil {
			s.ended(r, StateFailed, err.Error(), nil)
			return err
		}
	}
	s.saveState(r)
	return nil
}

// takeOutExcluded takes the games of the run's excluded workers out of its records file, counts
// them in their exclusions, and drops the workers' statistics; the run's coordinator is not
// running. With none left in the file (the usual case, but for a server killed as it took
// some out) the file is only read.
func (s *Server) takeOutExcluded(r *run) error {
	s.mu.Lock()
	id, path, excluded := r.state.ID, r.state.Records, r.state.ExcludedWorkers()
	s.mu.Unlock()
	if len(excluded) == 0 {
		return nil
	}
	taken, err := results.TakeOut(path, s.excludedPath(id), func(rec *results.Record) bool {
		return rec.Run == id && slices.Contains(excluded, rec.Worker)
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil // no game recorded yet
	}
	if err != nil {
		return err
	}
	if len(taken) > 0 {
		s.pages.forget(id) // its view read the file as it was
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Their statistics go with their games: the others' chi-square is judged without them.
	drop := func(w distributed.WorkerStats) bool { return slices.Contains(excluded, w.Name) }
	r.state.Workers = slices.DeleteFunc(slices.Clone(r.state.Workers), drop)
	if r.final != nil {
		final := *r.final
		final.Workers = slices.DeleteFunc(slices.Clone(final.Workers), drop)
		r.final = &final
	}
	for _, rec := range taken {
		i := slices.IndexFunc(r.state.Excluded, func(e Exclusion) bool { return e.Worker == rec.Worker })
		e := &r.state.Excluded[i]
		e.Games++
		if !slices.Contains(e.Pairs, rec.Pair) {
			e.Pairs = append(e.Pairs, rec.Pair)
			slices.Sort(e.Pairs)
		}
	}
	return nil
}

// recount is the run's summary as its records file now has it, in the status its summary had.
func (s *Server) recount(r *run) (*results.Summary, error) {
	s.mu.Lock()
	id, path, engines, status := r.state.ID, r.state.Records, slices.Clone(r.state.Engines), StatePaused
	if r.state.Summary != nil {
		status = r.state.Summary.Status
	}
	s.mu.Unlock()
	var recs []results.Record
	_, err := results.ReadFileFunc(path, results.ReadOptions{Counts: true, SkipBad: true}, func(rec *results.Record) error {
		if rec.Run == id {
			recs = append(recs, *rec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	tally := results.NewTally(recs, engines)
	var sprt *results.SPRTSummary
	if test := sprtOf(r.sub); test != nil && len(tally.Players) == 2 {
		if p := tally.Pairing(tally.Players[0].Name, tally.Players[1].Name); p != nil {
			ptnml := p.Pairs.Pentanomial()
			sprt = results.NewSPRTSummary(*test, test.LLR(ptnml), ptnml.Pairs())
		}
	}
	return results.NewSummary(status, tally, sprt), nil
}

// exclusionText says what an exclusion took out: "worker w2: 12 games of pairs 0-3, 7".
func exclusionText(e Exclusion) string { return "worker " + e.Worker + ": " + exclusionGames(e) }

// exclusionGames says which games an exclusion took out: "12 games of pairs 0-3, 7".
func exclusionGames(e Exclusion) string {
	if e.Games == 0 {
		return "no game recorded"
	}
	return fmt.Sprintf("%d games of pairs %s", e.Games, pairSpans(e.Pairs))
}

// pairSpans writes sorted pair numbers as runs: "0-3, 7".
func pairSpans(pairs []int) string {
	var spans []string
	for i := 0; i < len(pairs); {
		j := i
		for j+1 < len(pairs) && pairs[j+1] == pairs[j]+1 {
			j++
		}
		if j == i {
			spans = append(spans, fmt.Sprint(pairs[i]))
		} else {
			spans = append(spans, fmt.Sprintf("%d-%d", pairs[i], pairs[j]))
		}
		i = j + 1
	}
	return strings.Join(spans, ", ")
}

// personOr names a person, or the submitter's credential for none.
func personOr(name string) string {
	if name == "" {
		return "the submitter's credential"
	}
	return name
}
