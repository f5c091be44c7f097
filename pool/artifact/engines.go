package artifact

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"hivearbiter/arbiter/driver"
)

// UploadEngines uploads the engines of a run as submitted (see FromEngine) and returns, in the
// engines' order, their manifests and the engines as the run carries them (see RunEngine). An
// engine reached over the network (addr=) has no artifact: its manifest is the zero Manifest
// and it stays as it is. An engine whose artifact would not carry what it runs (CheckTravels)
// is refused, with a *LeftBehindError, before anything is uploaded.
func (s *Store) UploadEngines(ctx context.Context, engines []driver.EngineConfig) ([]Manifest, []driver.EngineConfig, error) {
	manifests := make([]Manifest, len(engines))
	run := slices.Clone(engines)
	sources := make([]Source, len(engines))
	for i, e := range engines {
		if e.Addr != "" && len(e.Command) == 0 {
			continue
		}
		src, err := FromEngine(e)
		if err != nil {
			return nil, nil, err
		}
		if err := CheckTravels(src); err != nil {
			var left *LeftBehindError
			if errors.As(err, &left) {
				left.Engine = e.Name
			}
			return nil, nil, err
		}
		sources[i] = src
	}
	for i, e := range engines {
		src := sources[i]
		if src.Path == "" {
			continue
		}
		m, _, err := s.Upload(ctx, src)
		if err != nil {
			return nil, nil, fmt.Errorf("artifact: engine %q: %w", e.Name, err)
		}
		manifests[i], run[i] = m, RunEngine(e, m)
	}
	return manifests, run, nil
}

// WorkerEngines are a worker's engines for a run whose engines (as the run carries them) have
// these manifests (the zero Manifest for an engine without an artifact): for each artifact,
// the worker's own engine of the same name when it packs to the artifact (see CheckOverride),
// or else the artifact fetched into cache and started from there (see Fetched.Engine), when
// the host can run it. They are the worker's own engines of distributed.Worker.Engines; an
// error says why the worker cannot play the run (a *NotRunnableError, an
// *OverrideMismatchError, a *HashMismatchError...).
func (s *Fetcher) WorkerEngines(ctx context.Context, host Host, cache string, run []driver.EngineConfig, manifests []Manifest,
	local []driver.EngineConfig) ([]driver.EngineConfig, error) {
	if len(manifests) != len(run) {
		return nil, fmt.Errorf("artifact: %d manifests for %d engines", len(manifests), len(run))
	}
	own := func(name string) int {
		return slices.IndexFunc(local, func(l driver.EngineConfig) bool { return l.Name == name })
	}
	for i, e := range run { // before fetching anything: a worker that cannot play the run downloads nothing
		if m := manifests[i]; m.SHA256 != "" && own(e.Name) < 0 {
			if err := host.Runnable(m); err != nil {
				return nil, err
			}
		}
	}
	var out []driver.EngineConfig
	for i, e := range run {
		own, m := own(e.Name), manifests[i]
		switch {
		case m.SHA256 == "" && own >= 0:
			out = append(out, local[own])
		case m.SHA256 == "":
		case own >= 0:
			if err := CheckOverride(m, local[own]); err != nil {
				return nil, err
			}
			out = append(out, local[own])
		default:
			f, err := s.Fetch(ctx, m, cache)
			if err != nil {
				return nil, err
			}
			we, err := f.Engine(e)
			if err != nil {
				return nil, err
			}
			out = append(out, we)
		}
	}
	return out, nil
}
