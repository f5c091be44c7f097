package distributed

import "hivearbiter/arbiter"

// TuneEngines are a tune run's engines as a worker starts them: as workerEngines makes a
// run's, the run's engine with only where its program is from the worker's own of that name.
func TuneEngines(run, local []arbiter.EngineConfig) ([]arbiter.EngineConfig, error) {
	return workerEngines(&RunSpec{Engines: run}, local)
}
