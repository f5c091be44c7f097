package arbiter

import (
	"context"

	"hivearbiter/results"
)

// PlayGameWatched plays a game as PlayGame does and calls moved with each move as it is
// played (the moves after the opening), for a runner whose observers show games in progress.
// A nil moved is PlayGame.
func PlayGameWatched(ctx context.Context, cfg GameConfig, white, black Side, moved func(results.Move)) (*results.Record, error) {
	if moved == nil {
		return PlayGame(ctx, cfg, white, black)
	}
	g, err := NewGame(cfg, white, black)
	if err != nil {
		return nil, err
	}
	seen := 0
	for ok := g.Start(ctx); ok; {
		ok = g.Step(ctx)
		if n := g.MoveCount(); n > seen {
			seen = n
			m, _ := g.LastMove()
			moved(m)
		}
	}
	return g.Finish(ctx)
}
