package distributed

import (
	"fmt"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// TuneEngines are a tune run's engines as a worker starts them: as workerEngines makes a
// run's, the run's engine with only where its program is from the worker's own of that name.
func TuneEngines(run, local []arbiter.EngineConfig) ([]arbiter.EngineConfig, error) {
	return workerEngines(&RunSpec{Engines: run}, local)
}

// Replay re-referees a game a worker played for a tune, as a coordinator does a match's: its
// moves through the rules, its ending the rules' or the adjudication's, a fault a loss for its
// culprit. A *RejectedError says why the record cannot count.
func Replay(worker string, r *results.Record, adj arbiter.Adjudication) error {
	return replay(r, adj, func(format string, args ...any) error {
		return &RejectedError{Worker: worker, Game: r.Game, Reason: fmt.Sprintf(format, args...)}
	})
}
