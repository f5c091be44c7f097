package distributed

import (
	"hivearbiter/arbiter"
	"hivearbiter/elo"
	"hivearbiter/results"
)

// sprtTracker feeds finished game pairs to an SPRT in schedule order, however the workers'
// results arrive, exactly as a local run's collector does: the decision and the pair it is
// reached at are those of a local run on the same games.
type sprtTracker struct {
	test    elo.SPRT
	first   string
	perPair int
	pending map[int][]float64
	next    int
	penta   elo.Pentanomial
	decided *arbiter.SPRTStatus
}

func newSPRTTracker(cfg *arbiter.SPRTConfig, first string, perPair int) *sprtTracker {
	if cfg == nil {
		return nil
	}
	return &sprtTracker{test: cfg.Test(), first: first, perPair: perPair, pending: make(map[int][]float64)}
}

func (s *sprtTracker) add(r *results.Record) {
	s.pending[r.Pair] = append(s.pending[r.Pair], r.ScoreOf(s.first))
	for s.decided == nil && len(s.pending[s.next]) == s.perPair {
		score := 0.0
		for _, g := range s.pending[s.next] {
			score += g
		}
		delete(s.pending, s.next)
		s.next++
		s.penta[int(2*score+0.5)]++
		if st := s.current(); st.Decision != arbiter.Continue {
			s.decided = &st
		}
	}
}

func (s *sprtTracker) current() arbiter.SPRTStatus {
	llr := s.test.LLR(s.penta)
	lower, upper := s.test.Bounds()
	return arbiter.SPRTStatus{Test: s.test, LLR: llr, Lower: lower, Upper: upper, Decision: s.test.Status(llr),
		Pairs: s.penta.Pairs(), Pentanomial: s.penta}
}

func (s *sprtTracker) status() arbiter.SPRTStatus {
	if s.decided != nil {
		return *s.decided
	}
	return s.current()
}
