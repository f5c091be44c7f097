package results

import "testing"

// TestSummaryKeepsItsFaults: a summary's faults are its own, not the tally's: a pool keeps a
// run's summary and sends it to whoever asks while the tally counts on (the race detector found
// a listing's encoding reading a map the collector was writing).
func TestSummaryKeepsItsFaults(t *testing.T) {
	lost := func(game int) Record {
		return Record{Run: "r", Game: game, Pair: game / 2, White: Player{Name: "a"}, Black: Player{Name: "b"},
			Result: BlackWins, Reason: ReasonIllegalMove, Culprit: "White"}
	}
	tally := NewTally([]Record{lost(0)}, nil)
	s := NewSummary("records", tally, nil)
	tally.Add(&[]Record{lost(1)}[0])
	if got := s.Faults["a"][ReasonIllegalMove]; got != 1 {
		t.Errorf("the summary counts %d illegal moves of a after the tally counted another, want its own 1", got)
	}
}
