//go:build !unix && !windows

package uhpfake

import "time"

// cpuTime is not known here: the engine is never loaded.
func cpuTime() (time.Duration, bool) { return 0, false }
