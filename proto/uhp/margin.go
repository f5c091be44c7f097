package uhp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/rules"
	"hivearbiter/uhpclient"
)

// The margin a check advises is drawn from searches made as a match makes them: a search in a
// fresh position a few plies into a game says nothing of an engine that slows as its game goes
// on (issue 47: 29 ms over early, 156 ms by move 20), nor of one whose searches run later when
// the run's other games share its cores. So the check plays games for it, from the start to
// the late middle game, as many at once as the run will.

// overshootGames plays Options.Concurrency games at once, each by an engine process of its own
// started for it, so that the cores are as busy as a run of that -concurrency makes them. In
// each the engine plays White from the start of the richest game type it plays, asked for
// every move of its side at limit l, and the referee answers each with a random move that does
// not end the game where one can; a game that ends anyway is followed by another. It stops at
// Options.Searches moves of the engine's side in each. It returns how far the searches ran
// over, by move, or the first thing that went wrong: an engine that did not start, or a
// search, a play or a newgame that was not answered in time.
func (c *checker) overshootGames(l uhpclient.BestMoveArgs) (compliance.Overshoot, error) {
	n := c.Options().Concurrency
	games := make([]gameOvershoot, n)
	for i := range games {
		games[i].rng = rand.New(rand.NewPCG(c.Rand().Uint64(), c.Rand().Uint64()))
	}
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() { games[i].play(c, l) })
	}
	wg.Wait()
	o := compliance.Overshoot{Budget: l.Sent(), AtOnce: n}
	var errs []error
	for i, g := range games {
		o.Samples = append(o.Samples, g.samples...)
		o.Moves = append(o.Moves, g.moves...)
		if g.err != nil {
			errs = append(errs, fmt.Errorf("game %d of %d: %w", i+1, n, g.err))
		}
	}
	return o, errors.Join(errs...)
}

// gameOvershoot is one of the games overshootGames plays: its moves so far and their
// overshoots, and what ended it early.
type gameOvershoot struct {
	rng     *rand.Rand
	samples []time.Duration
	moves   []int
	err     error
}

// play plays the game on an engine of its own, which it closes.
func (g *gameOvershoot) play(c *checker, l uhpclient.BestMoveArgs) {
	eng, err := startChecked(c.Context(), c.engine, c.Options(), c.bannerOnInfo, overshootRow)
	if err != nil {
		g.err = fmt.Errorf("starting the engine: %w", err)
		return
	}
	defer eng.Close(context.WithoutCancel(c.Context()))
	t := c.richestType()
	var ref *rules.Game
	move := 0 // the engine's moves in this game so far
	for len(g.samples) < c.Options().Searches {
		if ref == nil || ref.State().IsOver() {
			ref, move = rules.NewGame(t), 0
			if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
				g.err = fmt.Errorf("newgame %s: %w", t, err)
				return
			}
		}
		move++
		start := time.Now()
		answer, err := call(c, l.Sent()+checkTimeout, func(ctx context.Context) (string, error) { return eng.BestMove(ctx, l) })
		took := time.Since(start)
		if err != nil {
			g.err = fmt.Errorf("move %d, a search of %v did not answer within %v: %w", move, l.Sent(), l.Sent()+checkTimeout, err)
			return
		}
		g.samples, g.moves = append(g.samples, max(took-l.Sent(), 0)), append(g.moves, move)
		m, err := ref.ParseMove(answer)
		if err != nil { // the search rows judge its answers; here only its time counts
			valid := ref.ValidMoves()
			m = valid[g.rng.IntN(len(valid))]
		}
		if err := g.playBoth(c, eng, ref, m); err != nil {
			return
		}
		if !ref.State().IsOver() {
			if err := g.playBoth(c, eng, ref, g.reply(ref)); err != nil {
				return
			}
		}
	}
}

// playBoth plays a move on the referee and on the engine, noting why the game ends if the
// engine does not take it.
func (g *gameOvershoot) playBoth(c *checker, eng *uhpclient.Engine, ref *rules.Game, m rules.Move) error {
	text := ref.MoveString(m)
	if err := ref.PlayMove(m); err != nil {
		g.err = err
		return err
	}
	_, err := call(c, checkTimeout, func(ctx context.Context) (string, error) {
		if m.IsPass() { // the pass command, as a match sends it
			return eng.Pass(ctx)
		}
		return eng.Play(ctx, text)
	})
	if err != nil {
		g.err = fmt.Errorf("play %s: %w", text, err)
	}
	return err
}

// reply is the other side's move: a random one that does not end the game, where one can.
func (g *gameOvershoot) reply(ref *rules.Game) rules.Move {
	valid := ref.ValidMoves()
	g.rng.Shuffle(len(valid), func(i, j int) { valid[i], valid[j] = valid[j], valid[i] })
	for _, m := range valid {
		after := ref.Clone()
		if after.PlayMove(m) == nil && !after.State().IsOver() {
			return m
		}
	}
	return valid[0]
}
