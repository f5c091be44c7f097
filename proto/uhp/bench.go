package uhp

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
)

// Bench implements driver.Bencher: the engine's "bench" command, whose last line names the
// nodes searched ("nodes=N time=MS nps=N ...", as hivebot answers). An engine without one
// answers err, which is returned.
func (p *Player) Bench(ctx context.Context) (driver.Bench, error) {
	lines, err := p.engine.Send(ctx, "bench")
	if err != nil {
		return driver.Bench{}, err
	}
	if len(lines) == 0 {
		return driver.Bench{}, fmt.Errorf("uhp: bench: no answer")
	}
	return ParseBench(lines[len(lines)-1])
}

// ParseBench reads a bench line of key=value words: nodes= is required, time= (milliseconds)
// and nps= are optional (nps is computed from the others when missing).
func ParseBench(line string) (driver.Bench, error) {
	b := driver.Bench{Line: line}
	seen := false
	for _, word := range strings.Fields(line) {
		key, value, ok := strings.Cut(word, "=")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 {
			continue
		}
		switch key {
		case "nodes":
			b.Nodes, seen = n, true
		case "time":
			b.Time = time.Duration(n) * time.Millisecond
		case "nps":
			b.NPS = n
		}
	}
	if !seen {
		return driver.Bench{}, fmt.Errorf("uhp: bench: %q names no nodes=N", line)
	}
	if b.NPS == 0 && b.Time > 0 {
		b.NPS = int64(min(float64(b.Nodes)/b.Time.Seconds(), math.MaxInt64/2))
	}
	return b, nil
}
