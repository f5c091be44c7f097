package proc

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// AffinitySupported reports whether this system can pin processes to CPUs (Linux can).
const AffinitySupported = true

// AllowedCPUs lists the CPUs this process may run on, in increasing order: those of its
// affinity mask (a container or taskset may allow fewer than the machine has).
func AllowedCPUs() ([]int, error) { return ProcessCPUs(0) }

// WithAffinity calls start, which starts processes, on an OS thread pinned to cpus, so that
// every process it starts inherits the pin from its first instruction, with every thread and
// child process of its own (a child is forked from the thread that starts it). Pinning a
// process after it started would leave the threads it had made by then unpinned: the
// affinity of a running process is its threads', one by one. The thread's own affinity is
// restored before it runs anything else. An empty cpus calls start unpinned.
func WithAffinity(cpus []int, start func() error) error {
	if len(cpus) == 0 {
		return start()
	}
	runtime.LockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("proc: reading the CPU affinity: %w", err)
	}
	var set unix.CPUSet
	for _, cpu := range cpus {
		set.Set(cpu)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("proc: pinning to CPUs %v: %w", cpus, err)
	}
	err := start()
	if rerr := unix.SchedSetaffinity(0, &old); rerr != nil {
		// The thread stays pinned: leave it locked, so that it ends with this goroutine
		// instead of running other goroutines on too few CPUs.
		return fmt.Errorf("proc: restoring the CPU affinity: %w", rerr)
	}
	runtime.UnlockOSThread()
	return err
}

// ProcessCPUs lists the CPUs the process pid may run on (its main thread's affinity).
func ProcessCPUs(pid int) ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &set); err != nil {
		return nil, fmt.Errorf("proc: reading the CPU affinity of %d: %w", pid, err)
	}
	var cpus []int
	for cpu := 0; cpu < len(set)*64 && len(cpus) < set.Count(); cpu++ {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus, nil
}
