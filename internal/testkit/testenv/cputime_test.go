package testenv

import (
	"testing"
	"time"
)

// CPUTime grows by about the CPU time a busy loop spends, and never goes back.
func TestCPUTime(t *testing.T) {
	before := CPUTime(t)
	wall := time.Now()
	x := 0
	for time.Since(wall) < 100*time.Millisecond {
		x++
	}
	spent := CPUTime(t) - before
	if spent < 10*time.Millisecond || spent > 10*time.Second {
		t.Errorf("CPUTime grew by %v over a busy loop of 100 ms of wall time (%d turns)", spent, x)
	}
}
