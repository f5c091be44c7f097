package tune

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// A Session applies results in the order they arrive, each with the perturbation it was handed
// out with, and writes them as Run does: a pair played on the synthetic engine and handed in
// through Finish is on record; the same iteration handed in again is ErrPlayed and changes
// nothing; the session opened again on its file resumes with the iteration done and theta the
// last record's after.
func TestSession(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	cfg := syntheticConfig(t, 4, out, nil)
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	first, second := s.Perturb(1), s.Perturb(2) // both handed out before either returns
	seats := s.Pairs().Seats(0)
	defer seats.Close(t.Context())
	var recs []*Record
	for _, pt := range []Perturbation{second, first} {
		opening, index := s.Pairs().Opening(pt.Iteration)
		played, err := s.Pairs().Play(t.Context(), seats, pt, opening, index)
		if err != nil {
			t.Fatal(err)
		}
		games, err := s.Pairs().Games(opening, played)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Finish(pt, opening, games)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
		if _, err := s.Finish(pt, opening, games); !errors.Is(err, ErrPlayed) {
			t.Errorf("iteration %d handed in twice: %v, want ErrPlayed", pt.Iteration, err)
		}
	}
	if !slices.Equal(recs[1].Before, recs[0].After) || !slices.Equal(recs[1].Flips, first.Flips) {
		t.Errorf("the second result to arrive: before %v (want %v), flips %v (want the ones handed out, %v)",
			recs[1].Before, recs[0].After, recs[1].Flips, first.Flips)
	}
	if got := s.Outcome(); got.Pairs != 2 || !slices.Equal(got.Theta, recs[1].After) {
		t.Errorf("outcome: %d pairs at %v, want 2 at %v", got.Pairs, got.Theta, recs[1].After)
	}
	s.Close()
	again, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if !again.Done(1) || !again.Done(2) || again.Done(3) || !slices.Equal(again.Outcome().Theta, recs[1].After) {
		t.Errorf("reopened: done 1 %v, 2 %v, 3 %v, theta %v; want 1 and 2 done at %v",
			again.Done(1), again.Done(2), again.Done(3), again.Outcome().Theta, recs[1].After)
	}
}
