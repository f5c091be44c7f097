package arbiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/lines"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// PreflightError reports every engine that failed its preflight: the run stops before its
// first game, naming them all at once rather than the first of them hours into the run.
type PreflightError struct {
	Failures []*EngineStartError // in configuration order
}

// Error returns what went wrong, as a user reads it.
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
	return fmt.Sprintf("%d engines were refused before game 1, so no game was played:\n%s",
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
// new game of the run's game type within the command timeout, and one of a two-ply opening,
// whose answers must be games of that type with their moves (loadsGames), then one search
// under the run's limit for its first move, judged as a game judges it), and closes them
// again. It tells the
// observers how each engine is sent its time, and of a time control the engine cannot play
// (EngineTiming, from a driver.TimingAdvisor: UHP's engines of whole seconds). It returns a
// *PreflightError naming every engine that failed, or ctx's error.
//
// The players are closed rather than handed to the first games: each worker owns its seats
// (a Seats is not shared), and a player started here belongs to none of them. One more start
// per engine and run is cheap next to a run that finds a broken engine hours in.
func (t *Tournament) Preflight(ctx context.Context, engines []int) error {
	failures := make([]*EngineStartError, len(t.cfg.Engines))
	notes := make([][]Event, len(t.cfg.Engines))
	var wg sync.WaitGroup
	for _, e := range engines {
		wg.Go(func() { notes[e], failures[e] = t.preflightEngine(ctx, e) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	var failed []*EngineStartError
	for e, f := range failures {
		for _, n := range notes[e] {
			t.emit(n)
		}
		if f != nil {
			failed = append(failed, f)
		}
	}
	if len(failed) > 0 {
		return &PreflightError{Failures: failed}
	}
	return nil
}

// preflightEngine starts engine e, asks it for a new game of the run's type and for the first
// move of it under its time control, and closes it. notes are the lines to show before the
// first game: how the engine is sent its time, what its clock does to it, and a first move that
// failed under the forfeit policy.
func (t *Tournament) preflightEngine(ctx context.Context, e int) (notes []Event, failure *EngineStartError) {
	engine := t.cfg.Engines[e]
	seats := t.Seats(0)
	defer seats.Close(ctx)
	p, err := seats.Seat(ctx, e)
	var se *EngineStartError
	if errors.As(err, &se) {
		return nil, se
	}
	if err != nil {
		return nil, nil // ctx ended: Preflight returns its error
	}
	if a, ok := p.(driver.TimingAdvisor); ok && engine.Time.Depth == 0 && engine.Time.Nodes == 0 {
		notes = append(notes, EngineTiming{Engine: engine.Name, Timing: a.Timing(), Problem: a.TimeControlProblem(engine.Time)})
	}
	cctx, cancel := context.WithTimeout(ctx, t.cfg.CommandTimeout)
	defer cancel()
	gs, err := p.NewGame(cctx, t.gameType.String())
	if err != nil {
		if ctx.Err() != nil {
			return notes, nil
		}
		return notes, &EngineStartError{Engine: engine.Name, Err: fmt.Errorf("a new game of %s failed: %w", t.gameType, err), Refused: true}
	}
	if err := t.loadsGames(cctx, p, gs); err != nil && ctx.Err() == nil {
		return notes, &EngineStartError{Engine: engine.Name, Err: err, Refused: true}
	}
	if err := t.firstSearch(ctx, p, engine); err != nil && ctx.Err() == nil {
		if t.cfg.OnEngineFailure == ForfeitOnFailure {
			// The engine starts: its games judge it, and it forfeits them once broken.
			return append(notes, EngineFailedPreflight{Engine: engine.Name, Err: err}), nil
		}
		return notes, &EngineStartError{Engine: engine.Name, Err: err, Refused: true}
	}
	return notes, nil
}

// loadsGames refuses, with its diagnosis, a player that would lose every game of the run at
// its start: one that answered the new game of the run's type (gs) by a game of another type,
// or that drops the moves of a GameString, as every opening is (asked with a two-ply opening of
// the run's type). A player that reports no GameString is not judged.
func (t *Tournament) loadsGames(ctx context.Context, p driver.Player, gs string) error {
	if driver.GameTypeIgnored(t.gameType.String(), gs) {
		return errors.New(driver.Diagnosed(driver.DiagnosisGameTypeIgnore,
			fmt.Sprintf("it answered newgame %s with %s, a game of another type", t.gameType, lines.QuoteText(gs))))
	}
	opening := rules.NewGame(t.gameType)
	for range 2 {
		opening.PlayMove(opening.ValidMoves()[0])
	}
	gs, err := p.NewGame(ctx, opening.GameString())
	if err == nil && driver.GameStringIgnored(opening.GameString(), gs) {
		return errors.New(driver.Diagnosed(driver.DiagnosisGameStringIgnore,
			fmt.Sprintf("it answered newgame %s with %s, a game without its moves", lines.QuoteText(opening.GameString()), lines.QuoteText(gs))))
	}
	// The first move is asked at the start of a game, as the run's first game may ask it.
	if _, err := p.NewGame(ctx, t.gameType.String()); err != nil {
		return fmt.Errorf("a new game of %s failed: %w", t.gameType, err)
	}
	return nil
}

// firstSearch asks the player for the first move of a game of the run's type under engine's
// time control and judges the answer as a game judges it, by the same code (Game.search): a
// *FirstMoveError says how the game would end, with the reason and the words of its record.
func (t *Tournament) firstSearch(ctx context.Context, p driver.Player, engine driver.EngineConfig) error {
	side := Side{Name: engine.Name, Player: unmarked{p}, Time: engine.Time, Margin: engine.Margin}
	g, err := NewGame(GameConfig{Opening: t.gameType.String(), CommandTimeout: t.cfg.CommandTimeout,
		DepthTimeout: t.cfg.DepthTimeout}, side, side)
	if err != nil {
		return err
	}
	limit := g.limit(g.ToMove())
	if _, _, ok := g.search(ctx); ok || ctx.Err() != nil {
		return nil
	}
	rec := g.Record()
	return &FirstMoveError{Search: fmt.Sprintf("a %s under %s", limitText(limit), engine.Time), Reason: rec.Reason, Detail: rec.Detail}
}

// unmarked is a player seen through the Player interface alone: the check before the first
// game plays no game of the run, so it marks none in the player's transcript (Transcribed),
// and records none of its warnings.
type unmarked struct{ driver.Player }

// FirstMoveError is an engine whose first move, asked for by the check before the first game,
// would lose its game: judged as a game judges it, with the reason and the detail its game's
// record would carry.
type FirstMoveError struct {
	Search string // what was asked: "a 0.200 s search under st=0.2"
	Reason results.Reason
	Detail string // as a game's record words it: "White (b) played the illegal move ..."
}

// Error returns what went wrong, as a user reads it.
func (e *FirstMoveError) Error() string {
	// The detail carries the fault's diagnosis, as the game's record would: its cause and fix.
	return fmt.Sprintf("its first move (%s) would lose its game by %s: %s", e.Search, e.Reason, e.Detail)
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
