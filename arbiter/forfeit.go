package arbiter

import (
	"context"
	"errors"
	"fmt"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// Forfeits applies the forfeit policy (-on-engine-failure forfeit) to the games a runner
// seats: an engine that cannot be started twice in a row, or fails brokenGames games in a row
// before its first move, is broken; from then on it is seated as a player that fails at once
// (each of its games is recorded as its loss) and it is not started again. A LocalRunner's
// workers share one; a distributed worker keeps its own, since an engine that does not start
// on one machine may start on another. Its zero value is ready to use.
type Forfeits struct {
	// Broke, if set, is told once of each engine that breaks, by its index among the seats'
	// engines.
	Broke func(engine int, why error)
	// FailureStreak, if above 0, breaks an engine that failed this many games in a row the
	// same way (Config.FailureStreak).
	FailureStreak int
	health        health
}

// Sides seats the players of a game under the policy.
func (f *Forfeits) Sides(ctx context.Context, seats *Seats, sg ScheduledGame) (white, black Side, err error) {
	var s [2]Side
	for side, e := range [2]int{sg.White, sg.Black} {
		if s[side], err = f.seat(ctx, seats, e); err != nil {
			return Side{}, Side{}, err
		}
	}
	return s[0], s[1], nil
}

// seat seats engine e under the policy.
func (f *Forfeits) seat(ctx context.Context, seats *Seats, e int) (Side, error) {
	if why := f.health.brokenErr(e); why != nil {
		return seats.side(e, brokenPlayer{&BrokenError{Engine: seats.Engines[e].Name, Err: why}}), nil
	}
	p, err := seats.Seat(ctx, e)
	var se *EngineStartError
	if errors.As(err, &se) {
		p, err = seats.Seat(ctx, e) // once more: a start can fail once under load
	}
	switch {
	case errors.As(err, &se) && se.Refused:
		f.broke(e, fmt.Errorf("it was refused before its first game: %w", se.Err))
		return f.seat(ctx, seats, e)
	case errors.As(err, &se):
		f.broke(e, fmt.Errorf("it could not be started twice in a row: %w", se.Err))
		return f.seat(ctx, seats, e)
	case err != nil:
		return Side{}, err
	}
	return seats.side(e, p), nil
}

// Judge notes how a game went for its engines: one that failed brokenGames games in a row
// before its first move is broken.
func (f *Forfeits) Judge(sg ScheduledGame, rec *results.Record) {
	for side, e := range [2]int{sg.White, sg.Black} {
		if broken, why := f.health.played(e, rules.Color(side), rec, f.FailureStreak); broken {
			f.broke(e, why)
		}
	}
}

// broke marks engine e broken and tells Broke, once.
func (f *Forfeits) broke(e int, why error) {
	if f.health.markBroken(e, why) && f.Broke != nil {
		f.Broke(e, why)
	}
}
