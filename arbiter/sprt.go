package arbiter

import (
	"errors"
	"fmt"

	"hivearbiter/arbiter/driver"
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
	// Cap is the run's last game pair (0: none); AtCap is set when the test decided there,
	// by the final threshold Threshold on the LLR (see elo.SPRT Conclude).
	Cap       int
	AtCap     bool
	Threshold float64
}

// The error rates of an SPRT that gives none.
const (
	DefaultSPRTAlpha = 0.05
	DefaultSPRTBeta  = 0.05
)

// Normalize fills in the test's defaults (the normalized model, error rates of 5%) and checks
// it: an unknown model, or one that cannot count game pairs, is an error, a *ConfigError.
func (s *SPRTConfig) Normalize() error {
	if s.Model == "" {
		s.Model = elo.Normalized.String()
	}
	if s.Alpha == 0 {
		s.Alpha = DefaultSPRTAlpha
	}
	if s.Beta == 0 {
		s.Beta = DefaultSPRTBeta
	}
	model, err := elo.ParseModel(s.Model)
	if err != nil || !model.Pentanomial() {
		return &driver.ConfigError{Msg: fmt.Sprintf("SPRT model %q: want normalized or logistic", s.Model)}
	}
	var se *elo.SPRTError
	if err := s.test(model).Validate(); errors.As(err, &se) {
		return &driver.ConfigError{Msg: se.Msg}
	} else if err != nil {
		return err
	}
	return nil
}

// Test returns the elo.SPRT of a normalized configuration (see Normalize).
func (s *SPRTConfig) Test() elo.SPRT {
	model, err := elo.ParseModel(s.Model)
	if err != nil {
		panic("arbiter: Test of an SPRTConfig that was not normalized: " + err.Error())
	}
	return s.test(model)
}

func (s *SPRTConfig) test(model elo.Model) elo.SPRT {
	return elo.SPRT{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: model, InconclusiveAtCap: s.InconclusiveAtCap}
}

// sprtTracker feeds completed game pairs to an SPRT in schedule order, whatever order workers
// finish them in: the decision, and the pair at which it is reached, are then the same on every
// run of the same schedule with deterministic engines. Pairs are completed by the tally's pair
// tracker; this tracker only orders them.
type sprtTracker struct {
	test    elo.SPRT
	first   string          // the engine tested: H1 says it is stronger
	cap     int             // the game pairs of the schedule, where the test decides by its final threshold
	ahead   map[int]float64 // the first engine's score in completed pairs not yet counted
	next    int             // the next pair to count
	penta   elo.Pentanomial
	decided *SPRTStatus
}

func (t *Tournament) newSPRT() *sprtTracker {
	if t.cfg.SPRT == nil {
		return nil
	}
	return &sprtTracker{test: t.cfg.SPRT.Test(), first: t.cfg.Engines[0].Name, cap: t.schedule.Len() / t.schedule.PairGames(),
		ahead: make(map[int]float64)}
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
	c := s.test.Conclude(s.penta, s.cap)
	lower, upper := s.test.Bounds()
	return SPRTStatus{Test: s.test, LLR: c.LLR, Lower: lower, Upper: upper, Decision: c.Decision,
		Pairs: s.penta.Pairs(), Pentanomial: s.penta, Cap: s.cap, AtCap: c.AtCap, Threshold: c.Threshold}
}

// status is the decision if one was reached, else the state after the pairs counted so far.
func (s *sprtTracker) status() SPRTStatus {
	if s.decided != nil {
		return *s.decided
	}
	return s.current()
}
