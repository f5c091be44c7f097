package ratinglist

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
)

// An entrant on a timed limit is checked for the margin its overshoot needs: one whose words
// give less (here none, the arbiter's default of 0.2 s, below the least a check advises) is
// refused with the margin to give; one that gives enough enters.
func TestCheckEntrantTakesTheCheckedMargin(t *testing.T) {
	for _, tc := range []struct {
		margin  time.Duration
		refused bool
	}{
		{0, true},
		{3 * time.Second, false},
	} {
		t.Run(tc.margin.String(), func(t *testing.T) {
			t.Parallel()
			e := bot(t, "hivebot", "timed")
			e.Engine.Command = append(e.Engine.Command, "-bench-depth=1") // its bench, which the check asks for, at once
			e.Engine.Time, e.Engine.Margin = driver.TimeControl{MoveTime: 300 * time.Millisecond}, tc.margin
			report, err := CheckEntrant(t.Context(), e)
			switch {
			case tc.refused && (err == nil || !strings.Contains(err.Error(), "its margin, 0.2 s, is below the ") || !strings.Contains(err.Error(), "give margin=")):
				t.Errorf("CheckEntrant without a margin: %v, want it refused with the margin to give\n%s", err, report)
			case tc.refused && !strings.Contains(report, "Refused: its margin, 0.2 s"):
				t.Errorf("the report does not say why it was refused:\n%s", report)
			case !tc.refused && err != nil:
				t.Errorf("CheckEntrant with margin=%v: %v\n%s", tc.margin, err, report)
			}
		})
	}
}
