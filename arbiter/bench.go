package arbiter

import (
	"context"
	"time"
)

// Bench is an engine's own benchmark: the nodes of a fixed set of searches, which sign a build
// (the same count on every run of it with one thread), and the time they took on this machine.
type Bench struct {
	Nodes int64
	Time  time.Duration
	// NPS is nodes per second, as the engine says it or from Nodes and Time.
	NPS int64
	// Line is the engine's answer, as it gave it.
	Line string
}

// Bencher is a Player that runs its engine's own benchmark (UHP's "bench" command, as hivebot
// answers it). An engine that has none answers an error.
type Bencher interface {
	Bench(ctx context.Context) (Bench, error)
}
