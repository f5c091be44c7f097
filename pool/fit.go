package pool

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
)

// WorkerFit is whether one of the pool's current workers can play a run, and if not, why.
type WorkerFit struct {
	Worker string `json:"worker"`
	// Reason says why it cannot: "" when it can.
	Reason string `json:"reason,omitempty"`
}

// current reports whether a worker counts among the pool's current ones: let in, and seen
// within its batch and a minute (not gone, and heard from since the server started).
func (w *WorkerState) current(now time.Time, batch time.Duration) bool {
	return !w.Revoked && !w.LastSeen.IsZero() && now.Sub(w.LastSeen) <= batch+time.Minute
}

// whyUnfit says why a worker cannot play a run, "" when it can: the run's platforms, its
// artifacts' platform and runtime, or what the worker found when it tried (its engines differ
// or do not start, an artifact missing).
func whyUnfit(r *run, w *WorkerState) string {
	switch {
	case w.Outdated != "":
		return w.Outdated
	case len(r.state.Platforms) > 0 && !slices.Contains(r.state.Platforms, w.Platform):
		return fmt.Sprintf("the run is for %s, and this worker is %s", strings.Join(r.state.Platforms, ", "), w.Platform)
	}
	if err := runnable(r.sub, AssignRequest{Platform: w.Platform, Runtimes: w.Runtimes}); err != nil {
		return driver.Message(err)
	}
	for _, u := range w.Unfit {
		if why, ok := strings.CutPrefix(u, r.state.ID+": "); ok {
			return "it tried: " + why
		}
	}
	return ""
}

// fit judges which of the pool's current workers can play a run, and why the others cannot:
// the run's Fit, and its Unplayable when none can; s.mu is held.
func (s *Server) fit(r *run, now time.Time) ([]WorkerFit, string) {
	var fits []WorkerFit
	playable := false
	for _, w := range s.workers {
		if !w.current(now, s.cfg.Batch) {
			continue
		}
		why := whyUnfit(r, w)
		playable = playable || why == ""
		fits = append(fits, WorkerFit{Worker: w.Name, Reason: why})
	}
	sort.Slice(fits, func(i, j int) bool { return fits[i].Worker < fits[j].Worker })
	switch {
	case playable:
		return fits, ""
	case len(fits) == 0:
		return nil, "no worker has asked for work lately: none can play it until one does"
	}
	var each []string
	for _, f := range fits {
		each = append(each, f.Worker+": "+f.Reason)
	}
	return fits, "no current worker can play it (" + strings.Join(each, "; ") + ")"
}

// judge sets an active run's Fit, Unplayable and Scales as the pool's workers stand at now,
// and returns the line for the server's log when the run becomes one that no worker can play,
// or one that a worker can play again ("" otherwise): s.mu is held, and the caller prints it
// once it lets go (Server.mu is held over no I/O).
func (s *Server) judge(r *run, now time.Time) string {
	if r.state.State != StateActive {
		r.state.Fit, r.state.Unplayable, r.state.Scales = nil, "", nil
		return ""
	}
	before := r.state.Unplayable
	r.state.Fit, r.state.Unplayable = s.fit(r, now)
	r.state.Scales = s.scales(r)
	switch {
	case r.state.Unplayable != "" && r.state.Unplayable != before:
		return fmt.Sprintf("Run %s waits: %s\n", r.state.ID, r.state.Unplayable)
	case r.state.Unplayable == "" && before != "":
		return fmt.Sprintf("Run %s can be played again: %s\n", r.state.ID, strings.Join(r.state.PlayableBy(), ", "))
	}
	return ""
}

// scales are the factors at which the run's fit workers play its limits, when it scales them
// (see TimeScale); s.mu is held.
func (s *Server) scales(r *run) []WorkerScale {
	if r.state.Scale == nil {
		return nil
	}
	var out []WorkerScale
	for _, f := range r.state.Fit {
		w := s.workers[f.Worker]
		if f.Reason != "" || w == nil {
			continue
		}
		ws := WorkerScale{Worker: f.Worker}
		factor, err := r.state.Scale.Factor(r.state.Engines, benchNPS(w.Benches))
		if err != nil {
			var se *ScaleError
			if errors.As(err, &se) {
				ws.Reason = se.Reason
			} else {
				ws.Reason = err.Error()
			}
		}
		ws.Factor = factor
		out = append(out, ws)
	}
	return out
}

// PlayableBy are the current workers that can play the run, as the server last judged.
func (r *RunState) PlayableBy() []string {
	var names []string
	for _, f := range r.Fit {
		if f.Reason == "" {
			names = append(names, f.Worker)
		}
	}
	return names
}
