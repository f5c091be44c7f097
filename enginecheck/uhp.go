package enginecheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/rules"
	"hivearbiter/uhpclient"
)

// Result is the outcome of one compliance check of an engine.
type Result struct {
	Name   string
	Passed bool
	Detail string
}

// Options tunes a compliance check.
type Options struct {
	Games  int           // random games whose valid moves are compared with the referee's
	Plies  int           // plies per random game
	Margin time.Duration // lateness forgiven on timed searches
	Seed   uint64
}

// Check runs a UHP compliance check of one engine: banner and capabilities, newgame for every
// advertised game type, valid moves against the referee over random games, play/undo round
// trips, newgame with a GameString, timed and fixed-depth searches, and the replies to an
// illegal move, an unknown command and the options. It returns one result per check; err is
// set only when the engine cannot be started at all.
func Check(ctx context.Context, e arbiter.EngineConfig, opts Options) ([]Result, error) {
	if opts.Games <= 0 {
		opts.Games = 3
	}
	if opts.Plies <= 0 {
		opts.Plies = 30
	}
	if opts.Margin <= 0 {
		opts.Margin = 500 * time.Millisecond
	}
	startCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	eng, err := uhpclient.Start(startCtx, uhpclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Name: e.Name})
	cancel()
	if err != nil {
		return []Result{{Name: "start and banner", Detail: err.Error()}}, err
	}
	c := &checker{ctx: ctx, eng: eng, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 7))}
	defer func() { eng.Close(context.WithoutCancel(ctx)) }()
	for _, o := range e.Options {
		if _, err := eng.SetOption(ctx, o.Name, o.Value); err != nil {
			c.add("options set "+o.Name, false, err.Error())
		}
	}
	c.banner()
	c.newGames()
	c.validMoves()
	c.playUndo()
	c.loadGameString()
	c.searches()
	c.illegalMove()
	c.unknownCommand()
	c.options()
	return c.results, nil
}

type checker struct {
	ctx     context.Context
	eng     *uhpclient.Engine
	opts    Options
	rng     *rand.Rand
	results []Result
	types   []rules.GameType // the game types the engine advertises
}

func (c *checker) add(name string, passed bool, detail string) {
	c.results = append(c.results, Result{Name: name, Passed: passed, Detail: detail})
}

// call runs one command under a per-command timeout.
func call[T any](c *checker, timeout time.Duration, f func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(c.ctx, timeout)
	defer cancel()
	return f(ctx)
}

const checkTimeout = 5 * time.Second

func (c *checker) banner() {
	info := c.eng.Info()
	ok := info.ID != ""
	detail := fmt.Sprintf("id %q, capabilities %s", info.ID, strings.Join(info.Capabilities, ";"))
	c.add("banner: id and capabilities", ok, detail)
	for _, t := range rules.GameTypes {
		if info.Supports(t.String()) {
			c.types = append(c.types, t)
		}
	}
}

func (c *checker) newGames() {
	for _, t := range c.types {
		gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.NewGame(ctx, t.String()) })
		want := rules.NewGame(t).GameString()
		switch {
		case err != nil:
			c.add("newgame "+t.String(), false, err.Error())
		case gs != want:
			c.add("newgame "+t.String(), false, fmt.Sprintf("answered %q, want %q", gs, want))
		default:
			c.add("newgame "+t.String(), true, gs)
		}
	}
}

// richestType is the advertised game type with the most expansions.
func (c *checker) richestType() rules.GameType {
	if len(c.types) == 0 {
		return rules.Base
	}
	return c.types[len(c.types)-1]
}

// sameMoves compares the engine's valid moves with the referee's by meaning: each MoveString
// is parsed in the position, so any correct notation passes.
func sameMoves(ref *rules.Game, engine []string) error {
	want := ref.ValidMoves()
	var got []rules.Move
	for _, s := range engine {
		m, err := ref.ParseMove(s)
		if err != nil {
			return fmt.Errorf("%q is not a valid move here: %v", s, err)
		}
		if slices.Contains(got, m) {
			return fmt.Errorf("%q is listed twice", s)
		}
		got = append(got, m)
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d moves listed, the referee has %d", len(got), len(want))
	}
	return nil
}

func (c *checker) validMoves() {
	t := c.richestType()
	name := fmt.Sprintf("validmoves against the referee (%d random %s games)", c.opts.Games, t)
	positions := 0
	for range c.opts.Games {
		ref := rules.NewGame(t)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.NewGame(ctx, t.String()) }); err != nil {
			c.add(name, false, "newgame: "+err.Error())
			return
		}
		for ply := 0; ply < c.opts.Plies && !ref.State().IsOver(); ply++ {
			moves, err := call(c, checkTimeout, c.eng.ValidMoves)
			if err != nil {
				c.add(name, false, fmt.Sprintf("%s: %v", ref.GameString(), err))
				return
			}
			if err := sameMoves(ref, moves); err != nil {
				c.add(name, false, fmt.Sprintf("%s: %v", ref.GameString(), err))
				return
			}
			positions++
			valid := ref.ValidMoves()
			m := valid[c.rng.IntN(len(valid))]
			text := ref.MoveString(m)
			if err := ref.PlayMove(m); err != nil {
				c.add(name, false, err.Error())
				return
			}
			gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.Play(ctx, text) })
			if err != nil {
				c.add(name, false, fmt.Sprintf("play %s: %v", text, err))
				return
			}
			if err := sameGame(gs, ref); err != nil {
				c.add(name, false, fmt.Sprintf("play %s: %v", text, err))
				return
			}
		}
	}
	c.add(name, true, fmt.Sprintf("%d positions agree", positions))
}

// sameGame checks that a GameString the engine returned is the referee's game.
func sameGame(gs string, ref *rules.Game) error {
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return fmt.Errorf("returned GameString does not load: %v", err)
	}
	if g.Hash() != ref.Hash() || g.Ply() != ref.Ply() || g.State() != ref.State() {
		return fmt.Errorf("returned %q, the referee has %q", gs, ref.GameString())
	}
	if fields := strings.Split(gs, ";"); len(fields) < 3 || fields[1] != ref.State().String() || fields[2] != ref.TurnString() {
		return fmt.Errorf("returned state/turn %q, the referee has %s;%s", gs, ref.State(), ref.TurnString())
	}
	return nil
}

func (c *checker) playUndo() {
	t := c.richestType()
	ref := rules.NewGame(t)
	name := "play and undo round trip"
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.NewGame(ctx, t.String()) }); err != nil {
		c.add(name, false, err.Error())
		return
	}
	for range 6 {
		valid := ref.ValidMoves()
		m := valid[c.rng.IntN(len(valid))]
		text := ref.MoveString(m)
		ref.PlayMove(m)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.Play(ctx, text) }); err != nil {
			c.add(name, false, fmt.Sprintf("play %s: %v", text, err))
			return
		}
	}
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.Undo(ctx, 2) })
	if err == nil {
		ref.Undo(2)
		err = sameGame(gs, ref)
	}
	if err != nil {
		c.add(name, false, "undo 2: "+err.Error())
		return
	}
	c.add(name, true, "6 plies played, 2 undone: "+gs)
}

func (c *checker) loadGameString() {
	t := c.richestType()
	ref := rules.NewGame(t)
	for range 10 {
		valid := ref.ValidMoves()
		ref.PlayMove(valid[c.rng.IntN(len(valid))])
	}
	name := "newgame with a full GameString"
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.NewGame(ctx, ref.GameString()) })
	if err == nil {
		err = sameGame(gs, ref)
	}
	if err != nil {
		c.add(name, false, err.Error())
		return
	}
	c.add(name, true, gs)
}

func (c *checker) searches() {
	t := c.richestType()
	ref := rules.NewGame(t)
	for range 8 {
		valid := ref.ValidMoves()
		ref.PlayMove(valid[c.rng.IntN(len(valid))])
	}
	for _, l := range []uhpclient.Limit{{Depth: 1}, {Time: time.Second}} {
		name := "bestmove depth 1"
		budget := checkTimeout
		if l.Time > 0 {
			name = "bestmove time 00:00:01"
			budget = l.Time + c.opts.Margin
		}
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.NewGame(ctx, ref.GameString()) }); err != nil {
			c.add(name, false, "newgame: "+err.Error())
			continue
		}
		start := time.Now()
		move, err := call(c, budget, func(ctx context.Context) (string, error) { return c.eng.BestMove(ctx, l) })
		took := time.Since(start)
		if err != nil {
			c.add(name, false, fmt.Sprintf("after %v: %v", took.Round(time.Millisecond), err))
			if errors.Is(err, context.DeadlineExceeded) {
				return // the engine was killed; later checks would only repeat this
			}
			continue
		}
		if _, err := ref.ParseMove(move); err != nil {
			c.add(name, false, fmt.Sprintf("answered %q: %v", move, err))
			continue
		}
		c.add(name, true, fmt.Sprintf("%s in %v", move, took.Round(time.Millisecond)))
	}
}

func (c *checker) illegalMove() {
	name := "illegal move answered with invalidmove"
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.NewGame(ctx, c.richestType().String()) }); err != nil {
		c.add(name, false, "newgame: "+err.Error())
		return
	}
	// The queen may not be placed on the first turn.
	_, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return c.eng.Play(ctx, "wQ") })
	var invalid *uhpclient.InvalidMoveError
	if errors.As(err, &invalid) {
		c.add(name, true, "invalidmove "+invalid.Message)
		return
	}
	c.add(name, false, fmt.Sprintf("play wQ on the first turn: got %v", err))
}

func (c *checker) unknownCommand() {
	name := "unknown command answered with err"
	_, err := call(c, checkTimeout, func(ctx context.Context) ([]string, error) { return c.eng.Send(ctx, "frobnicate") })
	var engErr *uhpclient.EngineError
	if errors.As(err, &engErr) {
		c.add(name, true, "err "+engErr.Message)
		return
	}
	c.add(name, false, fmt.Sprintf("frobnicate: got %v", err))
}

func (c *checker) options() {
	opts, err := call(c, checkTimeout, c.eng.Options)
	if err != nil {
		c.add("options parse", false, err.Error())
		return
	}
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	c.add("options parse", true, fmt.Sprintf("%d options: %s", len(opts), strings.Join(names, ", ")))
}
