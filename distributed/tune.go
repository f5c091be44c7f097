package distributed

import (
	"fmt"

	"hivearbiter/arbiter"
	"hivearbiter/results"
	"hivearbiter/tune"
)

// TuneEngines are a tune run's engines as a worker starts them: as workerEngines makes a
// run's, the run's engine with only where its program is from the worker's own of that name.
func TuneEngines(run, local []arbiter.EngineConfig) ([]arbiter.EngineConfig, error) {
	return workerEngines(&RunSpec{Engines: run}, local)
}

// CheckTunePair checks a pair's records, as a coordinator checks each of a match's (see
// CheckGame): iteration k's two games from opening (index in the book), the plus side White
// first, played by the tune's sides (each at its time control) of the engine that says it is
// expect, with the tune's seed, game type and adjudication. The tuned options' values are the
// server's to know: a record does not say them.
func CheckTunePair(worker string, pairs *tune.Pairs, expect EngineIdentity, k int, opening string, index int, recs []*results.Record) error {
	cfg, sides := pairs.Config(), pairs.Sides()
	spec := &RunSpec{Run: tune.RecordRun, Seed: cfg.Seed, GameType: cfg.GameType, Adjudication: cfg.Adjudication,
		Engines: sides[:], Expect: []EngineIdentity{expect, expect}}
	sgs := pairs.Scheduled(k, opening, index)
	if len(recs) != len(sgs) {
		return &RejectedError{Worker: worker, Game: sgs[0].Index, Reason: fmt.Sprintf("a pair of %d games, want %d", len(recs), len(sgs))}
	}
	for g, sg := range sgs {
		if err := CheckGame(spec, worker, sg, recs[g]); err != nil {
			return err
		}
	}
	return nil
}
