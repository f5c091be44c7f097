package tune

import (
	"errors"
	"slices"
)

// ErrPlayed is a pair's result for an iteration already on record: a late result of a pair
// handed out twice, which is not applied again.
var ErrPlayed = errors.New("tune: the iteration is on record already")

// Session is a tune whose pairs are played elsewhere: a pool's server holds theta and the
// records file, hands each pair out with its perturbation drawn around theta as it is then
// (Perturb), and applies each result in the order they arrive (Finish), as fishtest does. The
// records are the local tuner's, so a session opened again on its file resumes where it
// stopped.
type Session struct {
	t *tuner
}

// Open opens a tune's records file (cfg.Out) as Run does, without playing anything: a new
// file gets the tune's header, an existing one of the same tune is resumed.
func Open(cfg Config) (*Session, error) {
	t, err := newTuner(cfg)
	if err != nil {
		return nil, err
	}
	return &Session{t: t}, nil
}

// Close closes the records file.
func (s *Session) Close() error { return s.t.log.Close() }

// Pairs is how the session's pairs are played: its openings, its engine's name.
func (s *Session) Pairs() *Pairs { return s.t.Pairs }

// Iterations is the number of pairs of the tune.
func (s *Session) Iterations() int { return s.t.cfg.Gains.Iterations }

// Done reports whether iteration k is on record.
func (s *Session) Done(k int) bool {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	return s.t.done[k]
}

// Perturb is iteration k's perturbation around theta as it is now.
func (s *Session) Perturb(k int) Perturbation {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	return Perturb(s.t.cfg.Params, s.t.cfg.Gains, s.t.cfg.Seed, k, s.t.theta)
}

// Finish applies a played pair's update to theta as it is now, and writes the pair down
// (synced) before it counts; a pair of an iteration on record already is ErrPlayed.
func (s *Session) Finish(pt Perturbation, opening string, games []Game) (*Record, error) {
	return s.t.finish(pt, opening, games)
}

// Outcome is where the tune stands: theta now and the pairs on record.
func (s *Session) Outcome() Outcome {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	out := *s.t.out
	out.Theta = slices.Clone(s.t.theta)
	return out
}
