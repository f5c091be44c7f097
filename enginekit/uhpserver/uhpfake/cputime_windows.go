package uhpfake

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time, user and system, the process has used so far.
func cpuTime() (time.Duration, bool) {
	var creation, exit, kernel, user syscall.Filetime
	h, err := syscall.GetCurrentProcess()
	if err == nil {
		err = syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user)
	}
	if err != nil {
		return 0, false
	}
	// A Filetime counts 100-nanosecond intervals.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100), true
}
