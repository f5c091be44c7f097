package configs

import (
	"maps"
	"slices"
	"strings"

	"hivearbiter/arbiter/driver"
)

// WorkerEngine reads a worker's -engine words (the words of arbiter match's -engine: see
// ParseEngine) as distributed.Worker.Engines wants them: what the words do not give stays at its
// zero value, to be the run's, rather than taking the defaults a run's engine gets (a time
// control, fractional=true for builtin=hivebot).
func WorkerEngine(words []string, resolve Resolver) (driver.EngineConfig, error) {
	given := map[string]bool{}
	for _, w := range words {
		for _, f := range strings.Fields(w) { // a word may be a whole specification
			if k, _, ok := strings.Cut(f, "="); ok {
				given[k] = true
			}
		}
	}
	// A run's engine needs a time control: one is put first, where a given one overrides it.
	e, err := ParseEngine(append([]string{"st=1"}, words...), resolve)
	if err != nil {
		return e, err
	}
	if !given["tc"] && !given["st"] && !given["depth"] && !given["nodes"] {
		e.Time = driver.TimeControl{}
	}
	maps.DeleteFunc(e.Settings, func(k, _ string) bool { return !given[k] })
	return e, nil
}

// WorkerEngines reads the engines of a worker's -engine flags, one list of words each,
// each one's words merged over those of every -each flag (see WorkerEngine).
func WorkerEngines(each, engines [][]string, resolve Resolver) ([]driver.EngineConfig, error) {
	var out []driver.EngineConfig
	for _, words := range engines {
		e, err := WorkerEngine(MergeEngine(slices.Concat(each...), words), resolve)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
