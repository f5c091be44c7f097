package arbiter

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/proc"
)

// ThreadsPerEngine is the most threads an engine of the run is set to search with (its
// Threads option, as UCI engines name it), at least 1.
func (c *Config) ThreadsPerEngine() int {
	threads := 1
	for _, e := range c.Engines {
		for _, o := range e.Options {
			if n, err := strconv.Atoi(strings.TrimSpace(o.Value)); err == nil && strings.EqualFold(o.Name, "threads") && n > threads {
				threads = n
			}
		}
	}
	return threads
}

// WorkerCPUs are the CPUs of allowed that worker pins its engines to under Affinity: as
// fastchess does, each worker gets ThreadsPerEngine CPUs of its own, which the two engines of
// its game share (they think in turn), in order, wrapping around when the workers need more
// CPUs than there are (SetupWarnings says so).
func (c *Config) WorkerCPUs(worker int, allowed []int) []int {
	if len(allowed) == 0 {
		return nil
	}
	k := min(c.ThreadsPerEngine(), len(allowed))
	cpus := make([]int, k)
	for i := range cpus {
		cpus[i] = allowed[(worker*k+i)%len(allowed)]
	}
	return cpus
}

// affinityWarnings say what the run's core count does to fair timing.
func (c *Config) affinityWarnings(cores int) []string {
	var warnings []string
	// A concurrency above the cores is said already, threads or not.
	if threads := c.ThreadsPerEngine(); threads > 1 && c.Concurrency <= cores && c.Concurrency*threads > cores {
		warnings = append(warnings, fmt.Sprintf("-concurrency %d x %d threads per engine is more than the %d cores here: engines will wait for a core while their clocks run",
			c.Concurrency, threads, cores))
	}
	if c.Affinity && !proc.AffinitySupported {
		warnings = append(warnings, fmt.Sprintf("-affinity: pinning engines to cores is not supported on %s; the engines run unpinned", runtime.GOOS))
	}
	return warnings
}

// pinned is start with every player's processes pinned to cpus (none: start as it is).
func pinned(start StartFunc, cpus []int) StartFunc {
	if len(cpus) == 0 {
		return start
	}
	return func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
		var p driver.Player
		err := proc.WithAffinity(cpus, func() error {
			var err error
			p, err = start(ctx, e, worker)
			return err
		})
		return p, err
	}
}
