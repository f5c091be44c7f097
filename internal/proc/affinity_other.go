//go:build !linux

package proc

import (
	"fmt"
	"runtime"
)

// AffinitySupported reports whether this system can pin processes to CPUs (Linux can).
const AffinitySupported = false

// errAffinity is pinning asked for where it is not supported.
var errAffinity = fmt.Errorf("proc: pinning engines to CPUs is not supported on %s", runtime.GOOS)

// AllowedCPUs lists the CPUs this process may run on; here, not supported.
func AllowedCPUs() ([]int, error) { return nil, errAffinity }

// WithAffinity calls start; pinning to cpus is not supported on this system, and asking for
// it is an error.
func WithAffinity(cpus []int, start func() error) error {
	if len(cpus) > 0 {
		return errAffinity
	}
	return start()
}

// ProcessCPUs lists the CPUs the process pid may run on; here, not supported.
func ProcessCPUs(pid int) ([]int, error) { return nil, errAffinity }
