package arbiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// PreflightError reports every engine that failed its preflight: the run stops before its
// first game, naming them all at once rather than the first of them hours into the run.
type PreflightError struct {
	Failures []*EngineStartError // in configuration order
}

func (e *PreflightError) Error() string { return "arbiter: " + e.Message() }

// Message is the error without the package's name: one engine's failure as it is, several
// under a line that counts them.
func (e *PreflightError) Message() string {
	if len(e.Failures) == 1 {
		return e.Failures[0].Message()
	}
	lines := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		lines[i] = "  " + f.Message()
	}
	return fmt.Sprintf("%d engines failed the check before the first game, so no game was played:\n%s",
		len(e.Failures), strings.Join(lines, "\n"))
}

// Unwrap returns the failures, so that errors.As finds an *EngineStartError in them.
func (e *PreflightError) Unwrap() []error {
	errs := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		errs[i] = f
	}
	return errs
}

// Preflight starts the engines that play in the games that remain, all at once, each as its
// first game would (its start and handshake within the start timeout, then its protocol's
// new game of the run's game type within the command timeout), and closes them again. It
// returns a *PreflightError naming every engine that failed, or ctx's error.
//
// The players are closed rather than handed to the first games: each worker owns its seats
// (a Seats is not shared), and a player started here belongs to none of them. One more start
// per engine and run is cheap next to a run that finds a broken engine hours in.
func (t *Tournament) Preflight(ctx context.Context, engines []int) error {
	failures := make([]*EngineStartError, len(t.cfg.Engines))
	var wg sync.WaitGroup
	for _, e := range engines {
		wg.Go(func() { failures[e] = t.preflightEngine(ctx, e) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	var failed []*EngineStartError
	for _, f := range failures {
		if f != nil {
			failed = append(failed, f)
		}
	}
	if len(failed) > 0 {
		return &PreflightError{Failures: failed}
	}
	return nil
}

// preflightEngine starts engine e, asks it for a new game of the run's type and closes it.
func (t *Tournament) preflightEngine(ctx context.Context, e int) *EngineStartError {
	seats := t.Seats(0)
	defer seats.Close(ctx)
	p, err := seats.Seat(ctx, e)
	var se *EngineStartError
	if errors.As(err, &se) {
		return se
	}
	if err != nil {
		return nil // ctx ended: Preflight returns its error
	}
	cctx, cancel := context.WithTimeout(ctx, t.cfg.CommandTimeout)
	defer cancel()
	if _, err := p.NewGame(cctx, t.gameType.String()); err != nil && ctx.Err() == nil {
		return &EngineStartError{Engine: t.cfg.Engines[e].Name, Err: fmt.Errorf("a new game of %s failed: %w", t.gameType, err)}
	}
	return nil
}

// enginesToPlay lists, in configuration order, the engines that play in a game for which
// plays is true.
func (t *Tournament) enginesToPlay(plays func(game int) bool) []int {
	in := make([]bool, len(t.cfg.Engines))
	for i := 0; i < t.schedule.Len(); i++ {
		if plays(i) {
			g := t.schedule.Game(i)
			in[g.White], in[g.Black] = true, true
		}
	}
	var engines []int
	for e, ok := range in {
		if ok {
			engines = append(engines, e)
		}
	}
	return engines
}
