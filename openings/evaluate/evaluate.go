package evaluate

import (
	"cmp"
	"context"
	"fmt"
	"strconv"

	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/search"
	"hivearbiter/openings"
	"hivearbiter/rules"
)

// Search scores a position with hivebot's search at a fixed depth, in-process: the
// score of the search, in the evaluation's units (search.Evaluate), from White's point of
// view. It is deterministic: the table is cleared before every search, which runs on one
// thread.
type Search struct {
	depth    int
	searcher *search.Searcher
}

// NewSearch returns an evaluator searching to depth plies.
func NewSearch(depth int) (*Search, error) {
	if depth < 1 || depth >= search.MaxPly {
		return nil, fmt.Errorf("%w: depth %d: want 1 to %d", openings.ErrGenerateConfig, depth, search.MaxPly-1)
	}
	return &Search{depth: depth, searcher: search.New(search.Options{Threads: 1})}, nil
}

// Evaluate implements openings.Evaluator.
func (e *Search) Evaluate(ctx context.Context, g *rules.Game) (int, error) {
	e.searcher.Clear()
	res := e.searcher.Search(ctx, g.Board(), search.Limits{Depth: e.depth})
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if g.ToMove() == rules.Black {
		return -res.Score, nil
	}
	return res.Score, nil
}

// Describe implements openings.Evaluator.
func (e *Search) Describe() string {
	return "hivebot's search at depth " + strconv.Itoa(e.depth) + " (evaluation units, White's point of view)"
}

// PlayoutScore is what a playout (Playout, Engine) scores a game won by
// White; Black's win scores its negative, and a draw 0.
const PlayoutScore = 100

// DefaultPlayoutPlies is how many plies a playout lasts at most before it is a draw: the
// arbiter's default move limit, 200 moves of each side.
const DefaultPlayoutPlies = 400

// Playout scores a position by the game hivebot plays from it against itself at a
// fixed depth, in-process, as "arbiter match -each depth=N" has it play: PlayoutScore when
// White wins, -PlayoutScore when Black wins, 0 for a draw (after maxPlies plies of the whole
// game; as in a match, repetitions do not end it). It is deterministic: the table is cleared before every
// search, which runs on one thread.
type Playout struct {
	depth    int
	maxPlies int
	searcher *search.Searcher
}

// NewPlayout returns an evaluator playing to depth plies, drawing a game at maxPlies
// plies (0: DefaultPlayoutPlies).
func NewPlayout(depth, maxPlies int) (*Playout, error) {
	if depth < 1 || depth >= search.MaxPly {
		return nil, fmt.Errorf("%w: depth %d: want 1 to %d", openings.ErrGenerateConfig, depth, search.MaxPly-1)
	}
	return &Playout{depth: depth, maxPlies: cmp.Or(maxPlies, DefaultPlayoutPlies), searcher: search.New(search.Options{Threads: 1})}, nil
}

// Evaluate implements openings.Evaluator.
func (e *Playout) Evaluate(ctx context.Context, g *rules.Game) (int, error) {
	return playout(ctx, g, e.maxPlies, func(game *rules.Game) (string, error) {
		e.searcher.Clear()
		res := e.searcher.Search(ctx, game.Board(), search.Limits{Depth: e.depth})
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return game.MoveString(res.Move), nil
	})
}

// Describe implements openings.Evaluator.
func (e *Playout) Describe() string {
	return fmt.Sprintf("hivebot playing itself out at depth %d, a draw at ply %d (+%d White wins, 0 draw, -%d Black wins)", e.depth, e.maxPlies, PlayoutScore, PlayoutScore)
}

// Engine scores a position with any engine, started as a match starts it (through
// its protocol: driver.Start), which has no way to tell its evaluation: the engine
// plays the position out against itself at a fixed depth, scored as Playout scores
// hivebot's games. It is deterministic if the engine is at a fixed depth.
type Engine struct {
	Player   driver.Player
	Depth    int
	MaxPlies int // 0 means DefaultPlayoutPlies
}

// Evaluate implements openings.Evaluator.
func (e *Engine) Evaluate(ctx context.Context, g *rules.Game) (int, error) {
	if e.Depth < 1 {
		return 0, fmt.Errorf("%w: the engine's depth %d: want 1 or more", openings.ErrGenerateConfig, e.Depth)
	}
	if _, err := e.Player.NewGame(ctx, g.GameString()); err != nil {
		return 0, err
	}
	return playout(ctx, g, cmp.Or(e.MaxPlies, DefaultPlayoutPlies), func(*rules.Game) (string, error) {
		move, err := e.Player.BestMove(ctx, driver.SearchLimit{Depth: e.Depth})
		if err != nil {
			return "", err
		}
		_, err = e.Player.Play(ctx, move)
		return move, err
	})
}

// Describe implements openings.Evaluator.
func (e *Engine) Describe() string {
	return fmt.Sprintf("%s playing itself out at depth %d, a draw at ply %d (+%d White wins, 0 draw, -%d Black wins)",
		e.Player.Info().ID, e.Depth, cmp.Or(e.MaxPlies, DefaultPlayoutPlies), PlayoutScore, PlayoutScore)
}

// playout plays a game on from g (which it leaves alone) with the moves next chooses, and
// scores its result: a draw at maxPlies plies of the game.
func playout(ctx context.Context, g *rules.Game, maxPlies int, next func(*rules.Game) (string, error)) (int, error) {
	game := g.Clone()
	for !game.State().IsOver() && game.Ply() < maxPlies {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		move, err := next(game)
		if err != nil {
			return 0, err
		}
		if err := game.Play(move); err != nil {
			return 0, fmt.Errorf("the engine played %q: %w", move, err)
		}
	}
	switch game.State() {
	case rules.WhiteWins:
		return PlayoutScore, nil
	case rules.BlackWins:
		return -PlayoutScore, nil
	}
	return 0, nil
}
