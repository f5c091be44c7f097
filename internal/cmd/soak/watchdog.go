//go:build linux

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

// watchdog notices a soak that stopped moving: no sample of the arbiter and no new record for
// a while although the arbiter runs. It then writes what it can see (the arbiter's state in
// the kernel, and the soak's own goroutines) to the processes' log, once, for a person to
// read: a hung arbiter is a finding, and so is a hung soak.
type watchdog struct {
	s        *soak
	after    time.Duration
	samples  int
	games    int
	moved    time.Time
	reported bool
}

func newWatchdog(s *soak, after time.Duration) *watchdog {
	return &watchdog{s: s, after: after, moved: time.Now()}
}

func (w *watchdog) check(arb *process) {
	samples := w.s.sampler.all()
	games := 0
	if len(samples) > 0 {
		games = samples[len(samples)-1].Games
	}
	if len(samples) != w.samples || games != w.games {
		w.samples, w.games, w.moved = len(samples), games, time.Now()
		return
	}
	if w.reported || time.Since(w.moved) < w.after || isDone(arb) {
		return
	}
	w.reported = true
	note := fmt.Sprintf("nothing moved for %s at %s (no sample, no record); the arbiter's state and the soak's goroutines are in the processes' log",
		w.after, time.Since(w.s.begin).Round(time.Second))
	w.s.notes = append(w.s.notes, note)
	fmt.Fprintf(w.s.log, "\n== soak: %s\n", note)
	for _, f := range []string{"stat", "wchan", "stack"} {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", arb.pid(), f))
		fmt.Fprintf(w.s.log, "== /proc/%d/%s (%v):\n%s\n", arb.pid(), f, err, data)
	}
	pprof.Lookup("goroutine").WriteTo(w.s.log, 2)
}
