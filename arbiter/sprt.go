package arbiter

import (
	"hivearbiter/elo"
	"hivearbiter/results"
)

// Decision is the state of an SPRT.
type Decision = elo.Decision

// The SPRT decisions.
const (
	Continue = elo.Continue
	AcceptH0 = elo.AcceptH0
	AcceptH1 = elo.AcceptH1
)

// SPRTStatus is where an SPRT stands.
type SPRTStatus struct {
	Test         elo.SPRT
	LLR          float64
	Lower, Upper float64
	Decision     Decision
	// Pairs counts the game pairs the LLR is computed from, Pentanomial them by the first
	// engine's score.
	Pairs       int
	Pentanomial elo.Pentanomial
}

// Test returns the elo.SPRT the configuration describes.
func (s *SPRTConfig) Test() elo.SPRT {
	model := elo.Normalized
	if s.Model == "logistic" {
		model = elo.Logistic
	}
	return elo.SPRT{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: model}
}

// sprtTracker feeds completed game pairs to an SPRT in schedule order, whatever order workers
// finish them in: the decision, and the pair at which it is reached, are then the same on every
// run of the same schedule with deterministic engines. Pairs are completed by the tally's pair
// tracker; this tracker only orders them.
type sprtTracker struct {
	test    elo.SPRT
	first   string          // the engine tested: H1 says it is stronger
	ahead   map[int]float64 // the first engine's score in completed pairs not yet counted
	next    int             // the next pair to count
	penta   elo.Pentanomial
	decided *SPRTStatus
}

func (t *Tournament) newSPRT() *sprtTracker {
	if t.cfg.SPRT == nil {
		return nil
	}
	return &sprtTracker{test: t.cfg.SPRT.Test(), first: t.cfg.Engines[0].Name, ahead: make(map[int]float64)}
}

// addPair counts a completed pair, and every pair after it that was waiting for it.
func (s *sprtTracker) addPair(pair int, games []results.PairGame) {
	score := 0.0
	for _, g := range games {
		score += g.ScoreOf(s.first)
	}
	s.ahead[pair] = score
	for s.decided == nil {
		score, ok := s.ahead[s.next]
		if !ok {
			return
		}
		delete(s.ahead, s.next)
		s.next++
		s.penta[int(2*score+0.5)]++
		if st := s.current(); st.Decision != Continue {
			s.decided = &st
		}
	}
}

func (s *sprtTracker) current() SPRTStatus {
	llr := s.test.LLR(s.penta)
	lower, upper := s.test.Bounds()
	return SPRTStatus{Test: s.test, LLR: llr, Lower: lower, Upper: upper, Decision: s.test.Status(llr),
		Pairs: s.penta.Pairs(), Pentanomial: s.penta}
}

// status is the decision if one was reached, else the state after the pairs counted so far.
func (s *sprtTracker) status() SPRTStatus {
	if s.decided != nil {
		return *s.decided
	}
	return s.current()
}
