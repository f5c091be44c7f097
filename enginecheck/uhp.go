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
	Name string
	// Passed is true for a check the engine passed; Skipped for one that could not be run (the
	// engine could not be started for it, or an earlier finding makes it moot). A result that
	// is neither failed.
	Passed  bool
	Skipped bool
	Detail  string
}

// Options tunes a compliance check.
type Options struct {
	Games  int           // random games whose valid moves are compared with the referee's
	Plies  int           // plies per random game
	Margin time.Duration // lateness forgiven on timed searches
	Seed   uint64
	// StartTimeout bounds each start of the engine (default 10 s); Grace is how long it has
	// to answer after SIGINT (default 1 s).
	StartTimeout time.Duration
	Grace        time.Duration
}

// Check runs a UHP compliance check of one engine: banner and capabilities, newgame for every
// advertised game type, valid moves against the referee over random games, play/undo round
// trips, newgame with a GameString, timed and fixed-depth searches, whether the engine reads
// fractions of a second and survives SIGINT during a search (and so which time setting suits
// it), the replies to an illegal move, an unknown command and the options, and the engine's
// bench, if it has one (the "bench" command: a node count that signs the build). It returns one
// result per check. After a check fails the engine is started afresh, so that each result
// judges one thing. err is set only when the engine cannot be started at all.
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
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 10 * time.Second
	}
	if opts.Grace <= 0 {
		opts.Grace = time.Second
	}
	c := &checker{ctx: ctx, cfg: e, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 7))}
	defer c.close()
	if err := c.start(); err != nil {
		c.fail("start and banner", err.Error())
		c.skip("every other check", "the engine did not start")
		return c.results, err
	}
	for _, check := range []func(){
		c.banner, c.newGames, c.validMoves, c.playUndo, c.loadGameString, c.searches,
		c.fractions, c.interrupt, c.timeSetting, c.illegalMove, c.unknownCommand, c.options, c.bench,
	} {
		if ctx.Err() != nil {
			break
		}
		check()
	}
	return c.results, nil
}

type checker struct {
	ctx     context.Context
	cfg     arbiter.EngineConfig
	opts    Options
	rng     *rand.Rand
	eng     *uhpclient.Engine
	results []Result
	types   []rules.GameType // the game types the engine advertises
	// fresh is set when the engine must be started again before the next check: a check failed,
	// or left it in a state of its own.
	fresh bool
	// What the time checks found, for the advice on the time setting.
	readsFractions, survivesInterrupt, interruptKnown bool
}

func (c *checker) add(r Result) {
	if !r.Passed && !r.Skipped {
		c.fresh = true
	}
	c.results = append(c.results, r)
}

func (c *checker) pass(name, detail string) { c.add(Result{Name: name, Passed: true, Detail: detail}) }
func (c *checker) fail(name, detail string) { c.add(Result{Name: name, Detail: detail}) }
func (c *checker) skip(name, why string) {
	c.add(Result{Name: name, Skipped: true, Detail: "skipped: " + why})
}

// start starts the engine and sets its options.
func (c *checker) start() error {
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.StartTimeout)
	defer cancel()
	eng, err := uhpclient.Start(ctx, uhpclient.Config{Command: c.cfg.Command, Dir: c.cfg.Dir, Env: c.cfg.Env, Name: c.cfg.Name,
		StartTimeout: c.opts.StartTimeout, GraceTimeout: c.opts.Grace})
	if err != nil {
		return err
	}
	for _, o := range c.cfg.Options {
		if _, err := eng.SetOption(ctx, o.Name, o.Value); err != nil {
			eng.Kill()
			return fmt.Errorf("options set %s %s: %w", o.Name, o.Value, err)
		}
	}
	c.eng, c.fresh = eng, false
	return nil
}

func (c *checker) close() {
	if c.eng != nil {
		c.eng.Close(context.WithoutCancel(c.ctx))
		c.eng = nil
	}
}

// engine returns a running engine for the next check, started afresh after a failure. When it
// cannot be started, the check named is skipped and engine returns nil.
func (c *checker) engine(name string) *uhpclient.Engine {
	if c.fresh || c.eng == nil {
		c.close()
		if err := c.start(); err != nil {
			c.skip(name, "the engine could not be started again: "+err.Error())
			return nil
		}
	}
	return c.eng
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
	detail := fmt.Sprintf("id %q, capabilities %q", info.ID, strings.Join(info.Capabilities, ";"))
	if info.ID == "" {
		c.fail("start and banner", detail+`: the "id" line names no engine`)
	} else {
		c.pass("start and banner", detail)
	}
	for _, t := range rules.GameTypes {
		if info.Supports(t.String()) {
			c.types = append(c.types, t)
		}
	}
}

func (c *checker) newGames() {
	for _, t := range c.types {
		name := "newgame " + t.String()
		eng := c.engine(name)
		if eng == nil {
			continue
		}
		gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) })
		want := rules.NewGame(t).GameString()
		switch {
		case err != nil:
			c.fail(name, err.Error())
		case gs != want:
			c.fail(name, fmt.Sprintf("answered %q, want %q", gs, want))
		default:
			c.pass(name, gs)
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
// is parsed in the position, so any correct notation passes. A difference names the moves
// missing, the moves listed that are not valid, and the position.
func sameMoves(ref *rules.Game, engine []string) error {
	var got []rules.Move
	var extra, twice []string
	for _, s := range engine {
		m, err := ref.ParseMove(s)
		if err != nil {
			extra = append(extra, fmt.Sprintf("%q (%s)", s, reasonOf(err)))
			continue
		}
		if slices.Contains(got, m) {
			twice = append(twice, fmt.Sprintf("%q", s))
			continue
		}
		got = append(got, m)
	}
	var missing []string
	for _, m := range ref.ValidMoves() {
		if !slices.Contains(got, m) {
			missing = append(missing, ref.MoveString(m))
		}
	}
	if len(extra) == 0 && len(twice) == 0 && len(missing) == 0 {
		return nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("missing %d: %s", len(missing), strings.Join(missing, ", ")))
	}
	if len(extra) > 0 {
		parts = append(parts, fmt.Sprintf("not valid here %d: %s", len(extra), strings.Join(extra, ", ")))
	}
	if len(twice) > 0 {
		parts = append(parts, fmt.Sprintf("listed twice: %s", strings.Join(twice, ", ")))
	}
	return fmt.Errorf("%d moves listed, the referee has %d; %s; in %s", len(engine), len(ref.ValidMoves()), strings.Join(parts, "; "), ref.GameString())
}

// reasonOf is the rule an invalid move breaks, in Mzinga's words, or why it is no move at all.
func reasonOf(err error) string {
	var ime *rules.InvalidMoveError
	if errors.As(err, &ime) {
		return ime.Reason
	}
	return "not a MoveString"
}

func (c *checker) validMoves() {
	t := c.richestType()
	games := "games"
	if c.opts.Games == 1 {
		games = "game"
	}
	name := fmt.Sprintf("validmoves against the referee (%d random %s %s)", c.opts.Games, t, games)
	eng := c.engine(name)
	if eng == nil {
		return
	}
	positions := 0
	for range c.opts.Games {
		ref := rules.NewGame(t)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
			c.fail(name, "newgame: "+err.Error())
			return
		}
		for ply := 0; ply < c.opts.Plies && !ref.State().IsOver(); ply++ {
			moves, err := call(c, checkTimeout, eng.ValidMoves)
			if err != nil {
				c.fail(name, fmt.Sprintf("in %s: %v", ref.GameString(), err))
				return
			}
			if err := sameMoves(ref, moves); err != nil {
				c.fail(name, err.Error())
				return
			}
			positions++
			valid := ref.ValidMoves()
			m := valid[c.rng.IntN(len(valid))]
			text := ref.MoveString(m)
			if err := ref.PlayMove(m); err != nil {
				c.fail(name, err.Error())
				return
			}
			gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, text) })
			if err == nil {
				err = sameGame(gs, ref)
			}
			if err != nil {
				c.fail(name, fmt.Sprintf("play %s: %v", text, err))
				return
			}
		}
	}
	c.pass(name, fmt.Sprintf("%d positions agree", positions))
}

// sameGame checks that a GameString the engine returned is the referee's game.
func sameGame(gs string, ref *rules.Game) error {
	if fields := strings.Split(gs, ";"); len(fields) > 3 {
		for i, f := range fields[3:] {
			if strings.TrimSpace(f) != "" {
				continue
			}
			if i == len(fields)-4 {
				return fmt.Errorf("returned a malformed GameString (it ends with \";\"): %q", gs)
			}
			return fmt.Errorf("returned a malformed GameString (entry %d is empty): %q", i+4, gs)
		}
	}
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return fmt.Errorf("returned a GameString that does not load (%s): %q", strings.TrimPrefix(err.Error(), "rules: "), gs)
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
	const name = "play and undo round trip"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	t := c.richestType()
	ref := rules.NewGame(t)
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
		c.fail(name, "newgame: "+err.Error())
		return
	}
	for range 6 {
		valid := ref.ValidMoves()
		m := valid[c.rng.IntN(len(valid))]
		text := ref.MoveString(m)
		ref.PlayMove(m)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, text) }); err != nil {
			c.fail(name, fmt.Sprintf("play %s: %v", text, err))
			return
		}
	}
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Undo(ctx, 2) })
	if err == nil {
		ref.Undo(2)
		err = sameGame(gs, ref)
	}
	if err != nil {
		c.fail(name, "undo 2: "+err.Error())
		return
	}
	c.pass(name, "6 plies played, 2 undone: "+gs)
}

// position is a random position of the richest game type, plies into a game.
func (c *checker) position(plies int) *rules.Game {
	ref := rules.NewGame(c.richestType())
	for range plies {
		valid := ref.ValidMoves()
		ref.PlayMove(valid[c.rng.IntN(len(valid))])
	}
	return ref
}

func (c *checker) loadGameString() {
	const name = "newgame with a full GameString"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	ref := c.position(10)
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, ref.GameString()) })
	if err == nil {
		err = sameGame(gs, ref)
	}
	if err != nil {
		c.fail(name, err.Error())
		return
	}
	c.pass(name, gs)
}

// search asks for a move in a fresh position within l, waiting budget, and judges the answer:
// the move, or why it is none. interruptAt, if not zero, is when the search is interrupted.
func (c *checker) search(eng *uhpclient.Engine, l uhpclient.Limit, budget, interruptAt time.Duration) (string, time.Duration, error) {
	ref := c.position(8)
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, ref.GameString()) }); err != nil {
		return "", 0, fmt.Errorf("newgame: %w", err)
	}
	if interruptAt > 0 {
		stop := time.AfterFunc(interruptAt, func() { eng.Interrupt() })
		defer stop.Stop()
	}
	start := time.Now()
	move, err := call(c, budget, func(ctx context.Context) (string, error) { return eng.BestMove(ctx, l) })
	took := time.Since(start)
	if err != nil {
		return "", took, err
	}
	if _, err := ref.ParseMove(move); err != nil {
		if reasonOf(err) == "not a MoveString" {
			return move, took, badAnswer{errors.New(uhpclient.NotAMove(move))}
		}
		return move, took, badAnswer{fmt.Errorf("it answered the illegal move %q in %s: %s", move, ref.GameString(), reasonOf(err))}
	}
	return move, took, nil
}

// badAnswer is a search that was answered in time, but not with a legal move: the search rows
// report it; the rows about time and SIGINT only care that an answer came.
type badAnswer struct{ error }

func (c *checker) searches() {
	for _, l := range []uhpclient.Limit{{Depth: 1}, {Time: time.Second}} {
		name, budget := "bestmove depth 1", checkTimeout
		if l.Time > 0 {
			name, budget = "bestmove time 00:00:01", l.Time+c.opts.Margin
		}
		eng := c.engine(name)
		if eng == nil {
			continue
		}
		move, took, err := c.search(eng, l, budget, 0)
		if err != nil {
			c.fail(name, fmt.Sprintf("after %v: %v", took.Round(time.Millisecond), err))
			continue
		}
		c.pass(name, fmt.Sprintf("%s in %v", move, took.Round(time.Millisecond)))
	}
}

// fractions finds out whether the engine reads "bestmove time" with fractions of a second. Not
// reading them is no failure: the arbiter then rounds budgets up and stops searches with
// SIGINT.
func (c *checker) fractions() {
	const name = "bestmove time 00:00:00.500 (fractions of a second)"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	l := uhpclient.Limit{Time: 500 * time.Millisecond, FractionalSeconds: true}
	move, took, err := c.search(eng, l, l.Time+c.opts.Margin, 0)
	if errors.As(err, new(badAnswer)) {
		move, err = "an answer that is no legal move (see above)", nil
	}
	if err != nil {
		c.fresh = true // whatever it did, the next check starts from a known engine
		c.pass(name, fmt.Sprintf("no, it does not read fractions: %v", err))
		return
	}
	c.readsFractions = true
	c.pass(name, fmt.Sprintf("yes: %s in %v", move, took.Round(time.Millisecond)))
}

// interrupt checks that a search stopped with SIGINT answers a move and leaves the engine
// usable, as the arbiter stops every budget an engine cannot be sent exactly, and as viewers do.
func (c *checker) interrupt() {
	const name = "SIGINT during bestmove: answers a move, stays alive"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	const search, interruptAt = 4 * time.Second, time.Second // whole seconds, which every engine reads
	move, took, err := c.search(eng, uhpclient.Limit{Time: search}, search+c.opts.Margin, interruptAt)
	if errors.As(err, new(badAnswer)) {
		move, err = "an answer that is no legal move (see above)", nil
	}
	c.interruptKnown = true
	switch {
	case err != nil:
		why := "an engine must stop its search on SIGINT and answer its best move so far (a Python engine: catch KeyboardInterrupt)"
		c.fail(name, fmt.Sprintf("%v: %s", err, why))
	case took < interruptAt:
		c.survivesInterrupt = true
		c.pass(name, fmt.Sprintf("%s in %v, before it could be interrupted: an engine this fast never is", move, took.Round(time.Millisecond)))
	default:
		if _, err := call(c, checkTimeout, eng.ValidMoves); err != nil {
			c.fail(name, fmt.Sprintf("it answered %s after SIGINT, then failed validmoves: %v", move, err))
			return
		}
		c.survivesInterrupt = took < interruptAt+c.opts.Grace
		if !c.survivesInterrupt {
			c.fail(name, fmt.Sprintf("it answered %s only after %v, %v after SIGINT: it must stop its search at once", move,
				took.Round(time.Millisecond), (took-interruptAt).Round(time.Millisecond)))
			return
		}
		c.pass(name, fmt.Sprintf("interrupted at %v, answered %s at %v, and answers validmoves after it", interruptAt,
			move, took.Round(time.Millisecond)))
	}
}

// timeSetting says which setting suits the engine, from what the time checks found.
func (c *checker) timeSetting() {
	const name = "time setting for match"
	switch {
	case c.readsFractions:
		c.pass(name, "give fractional=true: the engine reads fractions of a second, so every budget is sent as it is")
	case !c.interruptKnown:
		c.skip(name, "the SIGINT check did not run")
	case c.survivesInterrupt:
		c.pass(name, "leave fractional unset: budgets are sent rounded up to whole seconds and the search is stopped with SIGINT when the budget is up")
	default:
		c.fail(name, "the engine reads only whole seconds and does not survive SIGINT: only st=N whole seconds, or depth=N, can be played without forfeits; make it stop its search on SIGINT, or read fractions of a second")
	}
}

func (c *checker) illegalMove() {
	const name = "illegal move answered with invalidmove"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	t := c.richestType()
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
		c.fail(name, "newgame: "+err.Error())
		return
	}
	// The queen may not be placed on the first turn.
	const move = "wQ"
	_, rule := rules.NewGame(t).ParseMove(move)
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, move) })
	var invalid *uhpclient.InvalidMoveError
	switch {
	case errors.As(err, &invalid):
		c.pass(name, "invalidmove "+invalid.Message)
	case err == nil:
		c.fail(name, fmt.Sprintf("it accepted the illegal move play %s on the first turn (the rule it breaks: %s) and answered %q", move, reasonOf(rule), gs))
	default:
		c.fail(name, fmt.Sprintf("play %s on the first turn (illegal: %s): %v", move, reasonOf(rule), err))
	}
}

func (c *checker) unknownCommand() {
	const name = "unknown command answered with err"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	lines, err := call(c, checkTimeout, func(ctx context.Context) ([]string, error) { return eng.Send(ctx, "frobnicate") })
	var engErr *uhpclient.EngineError
	switch {
	case errors.As(err, &engErr):
		c.pass(name, "err "+engErr.Message)
	case err == nil:
		c.fail(name, fmt.Sprintf(`frobnicate: it answered %q, not "err"`, lines))
	default:
		c.fail(name, fmt.Sprintf("frobnicate: %v", err))
	}
}

func (c *checker) options() {
	const name = "options parse"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	opts, err := call(c, checkTimeout, eng.Options)
	if err != nil {
		c.fail(name, err.Error())
		return
	}
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	c.pass(name, fmt.Sprintf("%d options: %s", len(opts), strings.Join(names, ", ")))
}

// benchTimeout bounds a bench: a few seconds of search on most engines.
const benchTimeout = 2 * time.Minute

// bench reports the engine's bench, the node count of a fixed search that signs a build (as
// hivebot's "bench" answers "nodes=N time=MS nps=N ..."), when it has one: it is optional, and
// an engine that answers err has none.
func (c *checker) bench() {
	const name = "bench (optional)"
	eng := c.engine(name)
	if eng == nil {
		return
	}
	lines, err := call(c, benchTimeout, func(ctx context.Context) ([]string, error) { return eng.Send(ctx, "bench") })
	var engErr *uhpclient.EngineError
	switch {
	case errors.As(err, &engErr):
		c.pass(name, "none: the engine has no bench command (it answered err "+engErr.Message+")")
	case err != nil:
		c.fail(name, fmt.Sprintf("bench: %v", err))
	case len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "nodes="):
		c.fail(name, fmt.Sprintf("bench: it answered %q, not a line with nodes=N", lines))
	default:
		c.pass(name, lines[len(lines)-1])
	}
}
