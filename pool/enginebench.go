package pool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/rules"
)

// searchDepth is the depth of the fixed search timed on an engine that has no bench of its own.
const searchDepth = 3

// benchTimeout bounds the measures of one engine.
const benchTimeout = time.Minute

// EngineBench is what a worker measured of one of a run's engines on its machine: how fast the
// machine runs it, which the pool's tables show beside the worker.
type EngineBench struct {
	Engine string `json:"engine"`
	ID     string `json:"id,omitempty"`
	// Nodes is the engine's own bench (driver.Bencher: UHP's "bench", as hivebot's): the
	// node count of a fixed set of searches, which is the same on every machine for one build;
	// 0 when the engine has no bench.
	Nodes int64 `json:"nodes,omitempty"`
	// NPS is nodes per second on this worker: its bench's, or for an engine without one, that
	// of a depth-3 search from the start position, when the engine reports its nodes (UGI
	// engines do); 0 when unknown.
	NPS int64 `json:"nps,omitempty"`
	// Search is how long the engine took for that depth-3 search, for an engine without a
	// bench: a speed that needs no node count.
	Search time.Duration `json:"search,omitempty"`
	// Error says why nothing was measured.
	Error string `json:"error,omitempty"`
}

// String is the measure as the tables show it: "hivebot: bench 1234567 nodes, 456789 nps".
func (b EngineBench) String() string {
	switch {
	case b.Error != "":
		return b.Engine + ": not measured (" + b.Error + ")"
	case b.Nodes > 0:
		return fmt.Sprintf("%s: bench %d nodes, %d nps", b.Engine, b.Nodes, b.NPS)
	case b.NPS > 0:
		return fmt.Sprintf("%s: %d nps (depth-%d search in %s)", b.Engine, b.NPS, searchDepth, b.Search)
	}
	return fmt.Sprintf("%s: depth-%d search in %s", b.Engine, searchDepth, b.Search)
}

// measureEngine measures engine e of seats, seated as its games seat it (started if it is not
// yet): its own bench when it has one, else a fixed search. The player stays seated, for the
// games that follow, unless the measure failed: a search cut at the bench's time limit leaves
// an engine killed, and its first game would be lost to that. Its next seat starts it anew.
func measureEngine(ctx context.Context, seats *arbiter.Seats, e int) EngineBench {
	out := EngineBench{Engine: seats.Engines[e].Name}
	bctx, cancel := context.WithTimeout(ctx, benchTimeout)
	defer cancel()
	p, err := seats.Seat(bctx, e)
	if err != nil {
		out.Error = err.Error()
		seats.Drop(ctx, e)
		return out
	}
	out.ID = p.Info().ID
	if b, ok := p.(driver.Bencher); ok {
		if res, err := b.Bench(bctx); err == nil {
			out.Nodes, out.NPS = res.Nodes, res.NPS
			return out
		}
	}
	if err := timeSearch(bctx, p, seats.GameType, &out); err != nil {
		out.Error = err.Error()
		seats.Drop(ctx, e)
	}
	return out
}

// timeSearch times a depth-limited search from the start position.
func timeSearch(ctx context.Context, p driver.Player, gt rules.GameType, out *EngineBench) error {
	if _, err := p.NewGame(ctx, rules.NewGame(gt).GameString()); err != nil {
		return err
	}
	start := time.Now()
	if _, err := p.BestMove(ctx, driver.SearchLimit{Depth: searchDepth}); err != nil {
		return err
	}
	out.Search = time.Since(start)
	if r, ok := p.(driver.SearchReporter); ok {
		if info := r.TakeSearchInfo(); info != nil && info.Nodes > 0 && out.Search > 0 {
			out.NPS = int64(float64(info.Nodes) / out.Search.Seconds())
		}
	}
	return nil
}

// benches are the measures a worker took of the engines it has played, by engine program: each
// engine is measured once, before the worker first plays with it. The asking for work reads
// them while a run's first seats measure them.
type benches struct {
	mu    sync.Mutex
	byKey map[string]EngineBench
	order []string
}

// measure measures the engines of seats not measured yet, on the players seats seats for its
// games, and reports whether there were any. An engine is its program: its directory,
// command and environment, and in a match its options, so that a tune's two sides, one program
// under two names, are measured once. The measures are named name, or "" for each engine's
// own name (a match).
func (b *benches) measure(ctx context.Context, seats *arbiter.Seats, name string) bool {
	measured := false
	for e, c := range seats.Engines {
		key := benchKey(c, name)
		b.mu.Lock()
		_, ok := b.byKey[key]
		b.mu.Unlock()
		if ok {
			continue
		}
		m := measureEngine(ctx, seats, e)
		if errors.Is(ctx.Err(), context.Canceled) {
			return measured
		}
		if name != "" {
			m.Engine = name
		}
		b.mu.Lock()
		if b.byKey == nil {
			b.byKey = map[string]EngineBench{}
		}
		b.byKey[key] = m
		b.order = append(b.order, key)
		b.mu.Unlock()
		measured = true
	}
	return measured
}

// benchKey is the program an engine is, for its measures: its directory, command and
// environment, and in a match (name "") its options.
func benchKey(c driver.EngineConfig, name string) string {
	key := strings.Join(slices.Concat([]string{c.Dir}, c.Command, []string{"\x01"}, c.Env), "\x00")
	if name == "" {
		// A match's engines may be one program under other options (two hivebot profiles):
		// each is measured. A tune's sides differ only by the values tuned.
		key += "\x02" + fmt.Sprint(c.Options)
	}
	return key
}

// of is the measure of an engine (named name, or "" for a match's, as measure takes it), if
// it was measured.
func (b *benches) of(c driver.EngineConfig, name string) (EngineBench, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m, ok := b.byKey[benchKey(c, name)]
	return m, ok
}

// list is the measures, the latest first, at most maxBenches of them.
func (b *benches) list() []EngineBench {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []EngineBench
	for i := len(b.order) - 1; i >= 0 && len(out) < maxBenches; i-- {
		out = append(out, b.byKey[b.order[i]])
	}
	return out
}

// maxBenches bounds the measures a worker reports: those of its latest engines.
const maxBenches = 8
