package pool

import (
	"fmt"
	"slices"
	"strings"

	"hivearbiter/arbiter/driver"
)

// TimeScale is OpenBench's time scaling, as a run's option: each worker plays the run's
// limits (a clock's base and increment, a time per move; not a depth or a node count) scaled
// by the run's reference speed over its own, its bench of the run's engines (EngineBench), so
// that a game on a slow worker and one on a fast worker are one test. The records say the
// limit each game was played under and the factor.
type TimeScale struct {
	// NPS is the reference speed: the nodes per second at which the run's limits are meant
	// (OpenBench's scale_nps).
	NPS int64 `json:"nps"`
	// By says whose speed is the worker's: ScaleByBase (the second engine's, OpenBench's
	// default for tests), ScaleByDev (the first's) or ScaleByBoth (the mean of the two
	// factors). Empty is ScaleByBase.
	By string `json:"by,omitempty"`
}

// Whose speed scales a run's limits.
const (
	ScaleByBase = "base"
	ScaleByDev  = "dev"
	ScaleByBoth = "both"
)

// ScaleError says why a worker cannot play a run whose limits scale by its speed: it has no
// speed of the engines to scale by.
type ScaleError struct{ Reason string }

// Error says why this worker's limits cannot be scaled.
func (e *ScaleError) Error() string {
	return "pool: the run scales its limits by each worker's speed, and this worker has none: " + e.Reason
}

// check says what is wrong with a run's time scaling, for its engines.
func (t *TimeScale) check(engines []driver.EngineConfig) error {
	switch {
	case t.NPS <= 0:
		return fmt.Errorf("pool: time scaling needs a reference speed above 0 nodes per second, not %d", t.NPS)
	case t.By != "" && t.By != ScaleByBase && t.By != ScaleByDev && t.By != ScaleByBoth:
		return fmt.Errorf("pool: time scaling by %q: want %s, %s or %s", t.By, ScaleByBase, ScaleByDev, ScaleByBoth)
	case len(engines) < 2 && t.By != ScaleByDev:
		return fmt.Errorf("pool: time scaling by the base engine's speed needs a second engine: scale by %s", ScaleByDev)
	}
	if !slices.ContainsFunc(engines, func(e driver.EngineConfig) bool { return e.Time.Base > 0 || e.Time.MoveTime > 0 }) {
		return fmt.Errorf("pool: time scaling scales clocks and times per move, and no engine of this run has one (a depth or a node count is not scaled)")
	}
	return nil
}

// by is whose speed scales, with its default.
func (t TimeScale) by() string {
	if t.By == "" {
		return ScaleByBase
	}
	return t.By
}

// Factor is the factor by which a worker scales the run's limits: the reference speed over
// the worker's speed of the engine t.By names (engines are the run's, in order), or the mean
// of the two factors; nps is the worker's speed of an engine by name, with why it has none.
func (t TimeScale) Factor(engines []string, nps func(engine string) (int64, string)) (float64, error) {
	var which []string
	switch t.by() {
	case ScaleByDev:
		which = engines[:min(1, len(engines))]
	case ScaleByBase:
		which = engines[min(1, len(engines)):min(2, len(engines))]
	default:
		which = engines[:min(2, len(engines))]
	}
	if len(which) == 0 {
		return 0, &ScaleError{Reason: "the run has no engine to measure"}
	}
	sum := 0.0
	for _, e := range which {
		speed, why := nps(e)
		if speed <= 0 {
			if why == "" {
				why = "it reports no node counts"
			}
			return 0, &ScaleError{Reason: fmt.Sprintf("no speed of engine %s (%s)", e, why)}
		}
		sum += float64(t.NPS) / float64(speed)
	}
	return sum / float64(len(which)), nil
}

// String is the scaling as the tables say it: "by base's speed against 200000 nps".
func (t TimeScale) String() string {
	return fmt.Sprintf("limits scaled by each worker's speed of %s against %d nps", t.by(), t.NPS)
}

// WorkerScale is the factor a current worker plays a run's limits at (see TimeScale), as the
// server reckons it from the measures the worker reported.
type WorkerScale struct {
	Worker string  `json:"worker"`
	Factor float64 `json:"factor,omitempty"`
	// Reason says why the worker has no factor: it has not measured the engines yet, or
	// cannot.
	Reason string `json:"reason,omitempty"`
}

// scalesText is the factors in a line: "w1 ×0.5, w2 ×2, w3 (not measured yet)".
func scalesText(scales []WorkerScale) string {
	var each []string
	for _, s := range scales {
		if s.Reason != "" {
			each = append(each, fmt.Sprintf("%s (%s)", s.Worker, s.Reason))
			continue
		}
		each = append(each, fmt.Sprintf("%s ×%.3g", s.Worker, s.Factor))
	}
	return strings.Join(each, ", ")
}

// benchNPS is a worker's speed of an engine by name, from the measures it reported (the
// latest first), with why there is none.
func benchNPS(benches []EngineBench) func(string) (int64, string) {
	return func(engine string) (int64, string) {
		for _, b := range benches {
			if b.Engine == engine {
				return b.NPS, b.Error
			}
		}
		return 0, "not measured yet"
	}
}
