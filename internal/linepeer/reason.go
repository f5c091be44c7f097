package linepeer

import (
	"errors"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// PlayerError classifies a failed conversation for adjudication: a peer that exited crashed,
// one that did not answer in time stalled (or, during a search, lost on time), and anything
// else broke its protocol.
func PlayerError(err error, search bool) *arbiter.PlayerError {
	var (
		exit    *ExitError
		timeout *TimeoutError
	)
	reason := results.ReasonProtocol
	switch {
	case errors.As(err, &exit):
		reason = results.ReasonCrash
	case errors.As(err, &timeout):
		reason = results.ReasonStall
		if search {
			reason = results.ReasonTimeForfeit
		}
	}
	return &arbiter.PlayerError{Reason: reason, Err: err}
}
