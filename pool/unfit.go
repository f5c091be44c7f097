package pool

import (
	"errors"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// DefaultUnfitRetry is how long a worker keeps away from a run it found it cannot play before
// it tries the run again: an engine that did not start in time on a loaded machine may start
// later, and an artifact missing now may be uploaded again.
const DefaultUnfitRetry = 10 * time.Minute

// unfitRuns are the runs a worker found it cannot play, with why and since when.
type unfitRuns map[string]unfitRun

type unfitRun struct {
	why   string
	since time.Time
}

// note records why the worker cannot play a run, when err says it cannot (see cannotPlay), and
// reports whether it did.
func (u unfitRuns) note(run string, err error, now time.Time) bool {
	if !cannotPlay(err) {
		return false
	}
	u[run] = unfitRun{why: err.Error(), since: now}
	return true
}

// reasons are the runs still unfit at now, with why, for the server; those noted more than
// retry ago are forgotten, to be tried again.
func (u unfitRuns) reasons(now time.Time, retry time.Duration) map[string]string {
	var out map[string]string
	for run, e := range u {
		if now.Sub(e.since) >= retry {
			delete(u, run)
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[run] = e.why
	}
	return out
}

// cannotPlay reports whether err says this worker cannot play a run (the coordinator refused
// its engines, they differ from the run's or do not start, or the run's artifacts cannot run
// here, are missing or are not what they claim), rather than that something failed on the way
// (a connection lost while the server restarts, a fetch that timed out), which is tried again
// at once.
func cannotPlay(err error) bool {
	var (
		refused     *distributed.RefusedError
		mismatch    *distributed.EngineMismatchError
		start       *arbiter.EngineStartError
		notRunnable *artifact.NotRunnableError
		hash        *artifact.HashMismatchError
		override    *artifact.OverrideMismatchError
		unsafe      *artifact.UnsafeArchiveError
		large       *artifact.TooLargeError
		unusable    *ArtifactUnusableError
		scale       *ScaleError
	)
	return errors.As(err, &refused) || errors.As(err, &mismatch) || errors.As(err, &start) ||
		errors.As(err, &notRunnable) || errors.As(err, &hash) || errors.As(err, &override) ||
		errors.As(err, &unsafe) || errors.As(err, &large) || errors.As(err, &unusable) || errors.As(err, &scale) ||
		errors.Is(err, artifact.ErrNotFound)
}
