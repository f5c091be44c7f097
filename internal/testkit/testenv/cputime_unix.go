//go:build unix

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
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
