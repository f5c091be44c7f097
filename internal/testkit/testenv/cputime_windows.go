package testenv

import (
	"syscall"
	"testing"
	"time"
)

// CPUTime is the CPU time, user and system, the test process has used so far; child processes
// (the engines a benchmark drives) are left out. Benchmarks report it beside wall time, which
// other work on a shared machine disturbs far more.
func CPUTime(tb testing.TB) time.Duration {
	var creation, exit, kernel, user syscall.Filetime
	h, err := syscall.GetCurrentProcess()
	if err == nil {
		err = syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user)
	}
	if err != nil {
		tb.Fatal(err)
	}
	// A Filetime counts 100-nanosecond intervals.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
