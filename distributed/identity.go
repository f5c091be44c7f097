package distributed

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/proc"
	"hivearbiter/rules"
)

// Identify starts each engine once, all at once, as a game would seat it (so an engine that
// does not play the run's game type is refused here, before any game, as a local run refuses
// it), reads what it says of itself and hashes its program: the identities a run expects of
// its workers' engines, or a worker reports of its own. Every engine that fails is named at
// once, in an *arbiter.PreflightError, as a local run's preflight names them: not the first
// of them, and the next one on the next try.
func Identify(ctx context.Context, engines []driver.EngineConfig, gameType string, timeout time.Duration) ([]EngineIdentity, error) {
	gt, err := rules.ParseGameType(gameType)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	ids := make([]EngineIdentity, len(engines))
	failures := make([]*arbiter.EngineStartError, len(engines))
	var wg sync.WaitGroup
	for i, e := range engines {
		wg.Go(func() { ids[i], failures[i] = identify(ctx, e, gt, timeout) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var failed []*arbiter.EngineStartError
	for _, f := range failures {
		if f != nil {
			failed = append(failed, f)
		}
	}
	if len(failed) > 0 {
		return nil, &arbiter.PreflightError{Failures: failed}
	}
	return ids, nil
}

// identify starts one engine, reads its id and hashes its program.
func identify(ctx context.Context, e driver.EngineConfig, gt rules.GameType, timeout time.Duration) (EngineIdentity, *arbiter.EngineStartError) {
	sum, err := programSHA256(e)
	if err != nil {
		return EngineIdentity{}, &arbiter.EngineStartError{Engine: e.Name, Err: fmt.Errorf("its program cannot be read: %w", err)}
	}
	seats := &arbiter.Seats{Engines: []driver.EngineConfig{e}, GameType: gt, StartTimeout: timeout, Start: arbiter.StartThroughProtocol("")}
	defer seats.Close(context.WithoutCancel(ctx))
	p, err := seats.Seat(ctx, 0)
	var se *arbiter.EngineStartError
	switch {
	case errors.As(err, &se):
		return EngineIdentity{}, se
	case err != nil && ctx.Err() == nil:
		return EngineIdentity{}, &arbiter.EngineStartError{Engine: e.Name, Err: err}
	case err != nil:
		return EngineIdentity{}, nil // ctx ended: Identify returns its error
	}
	return EngineIdentity{Name: e.Name, ID: p.Info().ID, SHA256: sum}, nil
}

// programSHA256 hashes the program an engine runs; a player reached over the network has none.
func programSHA256(e driver.EngineConfig) (string, error) {
	if len(e.Command) == 0 {
		return "", nil
	}
	prog := e.Command[0]
	if filepath.Base(prog) == prog {
		found, err := exec.LookPath(prog)
		if err != nil {
			if e.ProtocolName() != driver.DefaultProtocol {
				return "", nil // a protocol whose command names no program (an in-process player)
			}
			return "", err
		}
		prog = found
	} else if !filepath.IsAbs(prog) && e.Dir != "" {
		prog = filepath.Join(e.Dir, prog)
	}
	return proc.FileSHA256(prog)
}
