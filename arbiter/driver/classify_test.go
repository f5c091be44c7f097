package driver

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"hivearbiter/internal/lines"
	"hivearbiter/internal/proc"
	"hivearbiter/results"
)

// TestClassifyError: the transport errors every protocol shares are judged the same
// whichever protocol returns them, wrapped or not.
func TestClassifyError(t *testing.T) {
	exit := &proc.ExitError{Source: "linepeer", Engine: "x", ExitCode: 3}
	timeout := &proc.TimeoutError{Source: "uhpclient", Engine: "x", Command: "play wS1"}
	for _, tc := range []struct {
		name   string
		err    error
		search bool
		want   results.Reason
	}{
		{"exit", exit, false, results.ReasonCrash},
		{"exit in a search", fmt.Errorf("gamestring: %w", exit), true, results.ReasonCrash},
		{"connection closed", &proc.ExitError{Network: true}, true, results.ReasonCrash},
		{"timeout", timeout, false, results.ReasonStall},
		{"timeout in a search", fmt.Errorf("ugi: %w", timeout), true, results.ReasonTimeForfeit},
		{"line too long", fmt.Errorf("linepeer: x: %w", lines.ErrTooLong), true, results.ReasonProtocol},
		{"bare deadline", context.DeadlineExceeded, true, results.ReasonStall},
		{"anything else", errors.New("it answered garbage"), false, results.ReasonProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pe := ClassifyError(tc.err, tc.search)
			if pe.Reason != tc.want || !errors.Is(pe, tc.err) || pe.Error() != tc.err.Error() {
				t.Errorf("got %s, %v; want %s, the error as it is", pe.Reason, pe, tc.want)
			}
		})
	}
}
