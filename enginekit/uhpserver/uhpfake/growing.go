package uhpfake

import (
	"context"
	"time"
)

// loadProbe is the longest the engine spins, at the start of running over, to find out
// whether it is loaded: long enough for the scheduler to give a loaded machine's share.
const loadProbe = 50 * time.Millisecond

// Loaded reports whether a process that ran for wall time got less than three quarters of a
// CPU of it, cpu: other work shared its core.
func Loaded(cpu, wall time.Duration) bool { return cpu < wall*3/4 }

// runOverByMove runs over by Config.OvershootPerMove for each move of the engine's side, or
// until ctx ends. It spins for the first loadProbe of it (its own CPU time measured, as a
// searching engine uses the CPU) and sleeps the rest; when the spin got less than three
// quarters of a CPU (Loaded), it runs over as long again. Where a process cannot read its CPU
// time (cpuTime false, off Unix and Windows), it is never loaded.
func (h *Handler) runOverByMove(ctx context.Context) {
	if h.cfg.OvershootPerMove <= 0 {
		return
	}
	over := time.Duration(h.game.Ply()/2+1) * h.cfg.OvershootPerMove
	start := time.Now()
	cpuBefore, measured := cpuTime()
	for time.Since(start) < min(over, loadProbe) {
	}
	wall := time.Since(start)
	cpuAfter, _ := cpuTime()
	rest := over - wall
	if measured && Loaded(cpuAfter-cpuBefore, wall) {
		rest += over
	}
	timer := time.NewTimer(rest)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}
