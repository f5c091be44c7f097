package results

import (
	"testing"

	"hivearbiter/elo"
)

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

func TestSummaryFaultGamesAndDecision(t *testing.T) {
	s := &Summary{Faults: map[string]Faults{"a": {ReasonIllegalMove: 2, ReasonTimeForfeit: 1}, "b": {ReasonCrash: 4}}}
	if got := s.FaultGames(); got != 7 {
		t.Errorf("FaultGames = %d, want 7", got)
	}
	if got := (&Summary{}).FaultGames(); got != 0 {
		t.Errorf("FaultGames of no faults = %d, want 0", got)
	}
	for text, want := range map[string]elo.Decision{"H1": elo.AcceptH1, "H0": elo.AcceptH0, "continue": elo.Continue, "": elo.Continue, "bogus": elo.Continue} {
		if got := (&SPRTSummary{Decision: text}).Decided(); got != want {
			t.Errorf("Decided of %q = %v, want %v", text, got, want)
		}
	}
}
