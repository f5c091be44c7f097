package ratinglist

import (
	"fmt"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// VerifyError names the games of a list's records that the referee does not reproduce.
type VerifyError struct {
	Games []string // each "run R game N (WHITE vs BLACK): why"
}

// Error is the Message after the package's name.
func (e *VerifyError) Error() string { return "ratinglist: " + e.Message() }

// Message is the error without the package's name.
func (e *VerifyError) Message() string {
	if len(e.Games) == 1 {
		return "1 game does not replay: " + e.Games[0]
	}
	return fmt.Sprintf("%d games do not replay: %s", len(e.Games), strings.Join(e.Games, "; "))
}

// Verify re-referees every game of the records from its opening and moves under the list's
// adjudication, and recomputes the table. A game that does not replay is named in a
// *VerifyError (the table is still returned, from every record, for comparison).
func Verify(l *List, recs []results.Record) (*Table, error) {
	var bad []string
	for i := range recs {
		r := &recs[i]
		if err := arbiter.Replay(r, l.Adjudication); err != nil {
			bad = append(bad, fmt.Sprintf("%s (%s vs %s, record %d of the file): %s", gameName(r), r.White.Name, r.Black.Name, i+1, driver.Message(err)))
		}
	}
	t, err := Compute(l, recs)
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return t, &VerifyError{bad}
	}
	return t, nil
}
