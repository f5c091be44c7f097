package arbiter

import (
	"context"
	"errors"

	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// reasonOf classifies an error returned by a player. An error a player did not classify is
// treated as a broken conversation.
func reasonOf(err error) results.Reason {
	var pe *driver.PlayerError
	if errors.As(err, &pe) {
		return pe.Reason
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return results.ReasonStall
	}
	return results.ReasonProtocol
}
