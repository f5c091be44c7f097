package uhp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/rules"
	"hivearbiter/uhpclient"
)

// RunChecks implements compliance.Suite: a UHP compliance check of one engine: banner and
// capabilities, newgame for every advertised game type, valid moves against the referee over
// random games, play/undo round trips, newgame with a GameString, timed and fixed-depth
// searches, whether the engine reads fractions of a second and survives SIGINT during a search
// (and so which time setting suits it), the replies to an illegal move, an unknown command and
// the options, and the engine's bench, if it has one (the "bench" command: a node count that
// signs the build). It returns one result per check. After a check fails the engine is started
// afresh, so that each result judges one thing. err is set only when the engine cannot be
// started at all.
func (Protocol) RunChecks(ctx context.Context, e driver.EngineConfig, opts compliance.Options) ([]compliance.Result, error) {
	c := &checker{engine: e}
	c.Session = compliance.NewSession(ctx, opts, func(ctx context.Context) (*uhpclient.Engine, error) {
		return startChecked(ctx, e, c.Options())
	})
	defer c.Close()
	eng, err := c.Begin("start and banner")
	if err != nil {
		return c.Results(), err
	}
	c.banner(eng)
	return c.Run(c.gameType, c.newGames, c.validMoves, c.playUndo, c.loadGameString, c.repetitionClaim, c.searches,
		c.fractions, c.interrupt, c.overshoot, c.timeSetting, c.illegalMove, c.unknownCommand, c.options, c.determinism, c.bench), nil
}

// checker is a UHP compliance check in progress.
type checker struct {
	*compliance.Session[*uhpclient.Engine]
	engine driver.EngineConfig
	types  []rules.GameType // the game types the engine advertises
	// What the time checks found, for the advice on the time setting.
	readsFractions, survivesInterrupt, interruptKnown bool
	// overshoots are how far its timed searches ran over, by budget: at 1 s, and at the
	// first budget of the limit it is checked for.
	overshoots []compliance.Overshoot
	listed     []compliance.ListedOption // the options it lists, for the advice on determinism
}

// measured notes how far a search of limit l ran over what it was sent.
func (c *checker) measured(l uhpclient.BestMoveArgs, took time.Duration) {
	i := slices.IndexFunc(c.overshoots, func(o compliance.Overshoot) bool { return o.Budget == l.Sent() })
	if i < 0 {
		c.overshoots = append(c.overshoots, compliance.Overshoot{Budget: l.Sent()})
		i = len(c.overshoots) - 1
	}
	c.overshoots[i].Samples = append(c.overshoots[i].Samples, max(took-l.Sent(), 0))
}

// startChecked starts the engine and sets its options.
func startChecked(ctx context.Context, e driver.EngineConfig, opts compliance.Options) (*uhpclient.Engine, error) {
	eng, err := uhpclient.Start(ctx, uhpclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Name: cmp.Or(e.Name, e.DefaultName()),
		StartTimeout: opts.StartTimeout, GraceTimeout: opts.Grace})
	if err != nil {
		return nil, err
	}
	for _, o := range e.Options {
		if _, err := eng.SetOption(ctx, o.Name, o.Value); err != nil {
			eng.Kill()
			return nil, fmt.Errorf("options set %s %s: %w", o.Name, o.Value, err)
		}
	}
	return eng, nil
}

// call runs one command under a per-command timeout.
func call[T any](c *checker, timeout time.Duration, f func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(c.Context(), timeout)
	defer cancel()
	return f(ctx)
}

const checkTimeout = 5 * time.Second

func (c *checker) banner(eng *uhpclient.Engine) {
	info := eng.Info()
	detail := fmt.Sprintf("id %q, capabilities %q", info.ID, strings.Join(info.Capabilities, ";"))
	if info.ID == "" {
		c.Fail("start and banner", detail+`: the "id" line names no engine`)
	} else {
		c.Pass("start and banner", detail)
	}
	for _, t := range rules.GameTypes {
		if info.Supports(t.String()) {
			c.types = append(c.types, t)
		}
	}
}

// gameType says which game type to play the engine at when it does not play the arbiter's
// default, Base+MLP.
func (c *checker) gameType() {
	const name = "game type for match"
	richest := c.richestType()
	switch {
	case len(c.types) == 0:
		c.Skip(name, "the engine advertises no game type the referee knows")
	case richest == rules.BaseMLP:
		c.Pass(name, "it plays Base+MLP, the default")
	default:
		c.Advise(name, fmt.Sprintf("it advertises %s at most, not the default Base+MLP: give -gametype %s", richest, richest), "-gametype="+richest.String())
	}
}

// repetitionPosition is a game whose last move repeats a position for the third time: nokamute
// answers it as a Draw, Mzinga and MzingaCpp as InProgress (reference UHP-NOTES.md 7.1).
const repetitionPosition = `Base;InProgress;White[7];wS1;bB1 wS1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\`

// repetitionClaim finds out whether the engine claims a draw on threefold repetition, which
// the rules do not give: a match must then adjudicate it (-repetitions 3, the default), or
// every claim is a false one and a lost game.
func (c *checker) repetitionClaim() {
	const name = "draw claim on threefold repetition"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, repetitionPosition) })
	switch {
	case err != nil:
		c.Warn(name, fmt.Sprintf("newgame with a position that occurred 3 times: %v", err))
	case strings.HasPrefix(gs, "Base;Draw;"):
		c.Advise(name, "it claims a Draw (as nokamute does; the Hive rules have none): a match must adjudicate threefold repetition as a draw, -repetitions 3 (the default), or its claims are lost as false",
			"-repetitions=3")
	default:
		c.Pass(name, "it claims none (as Mzinga): "+gs)
	}
}

func (c *checker) newGames() {
	for _, t := range c.types {
		name := "newgame " + t.String()
		eng, ok := c.Engine(name)
		if !ok {
			continue
		}
		gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) })
		want := rules.NewGame(t).GameString()
		switch {
		case err != nil:
			c.Fail(name, err.Error())
		case gs != want:
			c.Fail(name, fmt.Sprintf("answered %q, want %q", gs, want))
		default:
			c.Pass(name, gs)
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
	if c.Options().Games == 1 {
		games = "game"
	}
	name := fmt.Sprintf("validmoves against the referee (%d random %s %s)", c.Options().Games, t, games)
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	positions := 0
	for range c.Options().Games {
		ref := rules.NewGame(t)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
			c.Fail(name, "newgame: "+err.Error())
			return
		}
		for ply := 0; ply < c.Options().Plies && !ref.State().IsOver(); ply++ {
			moves, err := call(c, checkTimeout, eng.ValidMoves)
			if err != nil {
				c.Fail(name, fmt.Sprintf("in %s: %v", ref.GameString(), err))
				return
			}
			if err := sameMoves(ref, moves); err != nil {
				c.Fail(name, err.Error())
				return
			}
			positions++
			valid := ref.ValidMoves()
			m := valid[c.Rand().IntN(len(valid))]
			text := ref.MoveString(m)
			if err := ref.PlayMove(m); err != nil {
				c.Fail(name, err.Error())
				return
			}
			gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, text) })
			if err == nil {
				err = sameGame(gs, ref)
			}
			if err != nil {
				c.Fail(name, fmt.Sprintf("play %s: %v", text, err))
				return
			}
		}
	}
	c.Pass(name, fmt.Sprintf("%d positions agree", positions))
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
		return fmt.Errorf("returned a GameString that does not load, %q: %w", gs, err)
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
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	t := c.richestType()
	ref := rules.NewGame(t)
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
		c.Fail(name, "newgame: "+err.Error())
		return
	}
	for range 6 {
		valid := ref.ValidMoves()
		m := valid[c.Rand().IntN(len(valid))]
		text := ref.MoveString(m)
		ref.PlayMove(m)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, text) }); err != nil {
			c.Fail(name, fmt.Sprintf("play %s: %v", text, err))
			return
		}
	}
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Undo(ctx, 2) })
	if err == nil {
		ref.Undo(2)
		err = sameGame(gs, ref)
	}
	if err != nil {
		c.Warn(name, "undo 2: "+err.Error())
		return
	}
	c.Pass(name, "6 plies played, 2 undone: "+gs)
}

// position is a random position of the richest game type, plies into a game.
func (c *checker) position(plies int) *rules.Game { return c.Position(c.richestType(), plies) }

func (c *checker) loadGameString() {
	const name = "newgame with a full GameString"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	ref := c.position(10)
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, ref.GameString()) })
	if err == nil {
		err = sameGame(gs, ref)
	}
	if err != nil {
		c.Fail(name, err.Error())
		return
	}
	c.Pass(name, gs)
}

// search asks for a move in a fresh position within l, waiting budget, and judges the answer:
// the move, or why it is none. interruptAt, if not zero, is when the search is interrupted.
func (c *checker) search(eng *uhpclient.Engine, l uhpclient.BestMoveArgs, budget, interruptAt time.Duration) (string, time.Duration, error) {
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
	for _, l := range []uhpclient.BestMoveArgs{{Depth: 1}, {Time: time.Second}} {
		name, budget := "bestmove depth 1", checkTimeout
		if l.Time > 0 {
			name, budget = "bestmove time 00:00:01", l.Time+c.Options().Margin
		}
		eng, ok := c.Engine(name)
		if !ok {
			continue
		}
		move, took, err := c.search(eng, l, budget, 0)
		if err != nil {
			c.Fail(name, fmt.Sprintf("after %v: %v", took.Round(time.Millisecond), err))
			continue
		}
		if l.Time > 0 {
			c.measured(l, took)
		}
		c.Pass(name, fmt.Sprintf("%s in %v", move, took.Round(time.Millisecond)))
	}
}

// fractions finds out whether the engine reads "bestmove time" with fractions of a second. Not
// reading them is no failure: the arbiter then sends budgets rounded down to whole seconds.
func (c *checker) fractions() {
	const name = "bestmove time 00:00:00.500 (fractions of a second)"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	l := uhpclient.BestMoveArgs{Time: 500 * time.Millisecond, FractionalSeconds: true}
	move, took, err := c.search(eng, l, l.Time+c.Options().Margin, 0)
	if errors.As(err, new(badAnswer)) {
		move, err = "an answer that is no legal move (see above)", nil
	}
	if err != nil {
		c.Restart() // whatever it did, the next check starts from a known engine
		c.Pass(name, fmt.Sprintf("no, it does not read fractions: %v", err))
		return
	}
	c.readsFractions = true
	c.Pass(name, fmt.Sprintf("yes: %s in %v", move, took.Round(time.Millisecond)))
}

// interrupt checks that a search stopped with SIGINT answers a move and leaves the engine
// usable, as viewers stop searches. A match needs it only of an engine of whole seconds on
// budgets under a second; an engine that dies of it is never interrupted, so its failure is a
// warning.
func (c *checker) interrupt() {
	const name = "SIGINT during bestmove: answers a move, stays alive"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	const search, interruptAt = 4 * time.Second, time.Second // whole seconds, which every engine reads
	move, took, err := c.search(eng, uhpclient.BestMoveArgs{Time: search}, search+c.Options().Margin, interruptAt)
	if errors.As(err, new(badAnswer)) {
		move, err = "an answer that is no legal move (see above)", nil
	}
	c.interruptKnown = true
	switch {
	case err != nil:
		why := "a viewer's stop kills it, and a match never interrupts it (interrupt=false); to be stopped, an engine answers its best move so far on SIGINT (a Python engine: catch KeyboardInterrupt)"
		c.Warn(name, fmt.Sprintf("%v: %s", err, why))
	case took < interruptAt:
		c.survivesInterrupt = true
		c.Pass(name, fmt.Sprintf("%s in %v, before it could be interrupted: an engine this fast never is", move, took.Round(time.Millisecond)))
	default:
		if _, err := call(c, checkTimeout, eng.ValidMoves); err != nil {
			c.Warn(name, fmt.Sprintf("it answered %s after SIGINT, then failed validmoves: %v", move, err))
			return
		}
		c.survivesInterrupt = took < interruptAt+c.Options().Grace
		if !c.survivesInterrupt {
			c.Warn(name, fmt.Sprintf("it answered %s only after %v, %v after SIGINT: it must stop its search at once", move,
				took.Round(time.Millisecond), (took-interruptAt).Round(time.Millisecond)))
			return
		}
		c.Pass(name, fmt.Sprintf("interrupted at %v, answered %s at %v, and answers validmoves after it", interruptAt,
			move, took.Round(time.Millisecond)))
	}
}

// timeSetting says which settings suit the engine, from what the time checks found: how it is
// sent its budgets, the margin its overshoot needs, and the time controls it can play.
func (c *checker) timeSetting() {
	const name = "time setting for match"
	margin, marginWhy := compliance.MarginFor(c.overshoots)
	marginWord := "margin=" + strconv.FormatFloat(margin.Seconds(), 'f', -1, 64)
	switch {
	case c.readsFractions:
		c.Advise(name, fmt.Sprintf("fractional=true: it reads fractions of a second, so every budget is sent as it is, and it plays any time control; %s", marginWhy),
			"fractional=true", "interrupt=false", marginWord)
	case !c.interruptKnown:
		c.Skip(name, "the SIGINT check did not run")
	case c.survivesInterrupt:
		c.Advise(name, fmt.Sprintf("fractional=false interrupt=true: it reads whole seconds and survives SIGINT, so budgets are sent rounded down and one under a second is stopped at its end; it plays any time control; %s", marginWhy),
			"fractional=false", "interrupt=true", marginWord)
	default:
		c.Advise(name, fmt.Sprintf("fractional=false interrupt=false: it reads whole seconds and does not survive SIGINT, so budgets are sent rounded down, never under 1 s, and it is never interrupted. It plays st=N (N of 1 or more), depth=N, and clocks that last it %s; %s",
			WholeSecondClocks(), marginWhy), "fractional=false", "interrupt=false", marginWord)
	}
}

// overshoot measures how far the engine's timed searches run over, as a match meets them:
// through games from the start to the late middle game, as many at once as the run plays
// (overshootGames), at the first budget of the limit it is checked for when that is at most
// maxSampledBudget (longer searches cost a check more than they tell), else at 1 s. The
// margin is drawn from them and from the first search of 1 s.
func (c *checker) overshoot() {
	const name = "overshoot of timed searches"
	if len(c.overshoots) == 0 {
		c.Skip(name, "its 1 s search failed (see above)")
		return
	}
	l := uhpclient.BestMoveArgs{Time: time.Second}
	if run := c.runBudget(); run.Sent() > 0 && run.Sent() <= maxSampledBudget {
		l = run
	}
	o, err := c.overshootGames(l)
	if len(o.Samples) > 0 {
		c.overshoots = append(c.overshoots, o)
	}
	if err != nil {
		c.Fail(name, fmt.Sprintf("%v; so far %s", err, c.overshootText()))
		return
	}
	c.Pass(name, c.overshootText())
}

// maxSampledBudget is the longest budget whose overshoot a check measures.
const maxSampledBudget = 2 * time.Second

// overshootText names the overshoots measured.
func (c *checker) overshootText() string {
	parts := make([]string, len(c.overshoots))
	for i, o := range c.overshoots {
		parts[i] = o.String()
	}
	return strings.Join(parts, "; ")
}

// runBudget is the first budget of the limit the engine is checked for, as it is sent: whole
// seconds, at least one, to an engine that does not read fractions; none for a fixed depth.
func (c *checker) runBudget() uhpclient.BestMoveArgs {
	clock := driver.NewClock(c.engine.Time, c.engine.Time, 0, 0)
	return uhpclient.BestMoveArgs{Time: clock.Budget(0), FractionalSeconds: c.readsFractions}
}

func (c *checker) illegalMove() {
	const name = "illegal move answered with invalidmove"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	t := c.richestType()
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
		c.Fail(name, "newgame: "+err.Error())
		return
	}
	// The queen may not be placed on the first turn.
	const move = "wQ"
	_, rule := rules.NewGame(t).ParseMove(move)
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, move) })
	var invalid *uhpclient.InvalidMoveError
	switch {
	case errors.As(err, &invalid):
		c.Pass(name, "invalidmove "+invalid.Message)
	case err == nil:
		c.Warn(name, fmt.Sprintf("it accepted the illegal move play %s on the first turn (the rule it breaks: %s) and answered %q", move, reasonOf(rule), gs))
	default:
		c.Warn(name, fmt.Sprintf("play %s on the first turn (illegal: %s): %v", move, reasonOf(rule), err))
	}
}

func (c *checker) unknownCommand() {
	const name = "unknown command answered with err"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	lines, err := call(c, checkTimeout, func(ctx context.Context) ([]string, error) { return eng.Send(ctx, "frobnicate") })
	var engErr *uhpclient.EngineError
	switch {
	case errors.As(err, &engErr):
		c.Pass(name, "err "+engErr.Message)
	case err == nil:
		c.Warn(name, fmt.Sprintf(`frobnicate: it answered %q, not "err"`, lines))
	default:
		c.Warn(name, fmt.Sprintf("frobnicate: %v", err))
	}
}

func (c *checker) options() {
	const name = "options parse"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	opts, err := call(c, checkTimeout, eng.Options)
	if err != nil {
		c.Warn(name, err.Error())
		return
	}
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	c.Pass(name, fmt.Sprintf("%d options: %s", len(opts), strings.Join(names, ", ")))
	c.fairOptions(opts)
}

// fairOptions says which of the engine's options fair timing sets.
func (c *checker) fairOptions(opts []uhpclient.Option) {
	c.listed = make([]compliance.ListedOption, len(opts))
	for i, o := range opts {
		c.listed[i] = compliance.ListedOption{Name: o.Name, Type: o.Type, Value: o.Value, Choices: o.Extra}
	}
	c.AdviseFairTiming(c.listed, c.engine.Options)
}

// benchTimeout bounds a bench: a few seconds of search on most engines.
const benchTimeout = 2 * time.Minute

// bench reports the engine's bench, the node count of a fixed search that signs a build (as
// hivebot's "bench" answers "nodes=N time=MS nps=N ..."), when it has one: it is optional, and
// an engine that answers err has none.
func (c *checker) bench() {
	const name = "bench (optional)"
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	lines, err := call(c, benchTimeout, func(ctx context.Context) ([]string, error) { return eng.Send(ctx, "bench") })
	var engErr *uhpclient.EngineError
	switch {
	case errors.As(err, &engErr):
		c.Pass(name, "none: the engine has no bench command (it answered err "+engErr.Message+")")
	case err != nil:
		c.Warn(name, fmt.Sprintf("bench: %v", err))
	case len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "nodes="):
		c.Warn(name, fmt.Sprintf("bench: it answered %q, not a line with nodes=N", lines))
	default:
		c.Pass(name, lines[len(lines)-1])
	}
}

// determinism is the check framework's probe (compliance.Session.CheckDeterminism), each
// search a newgame at the position and a bestmove to the depth.
func (c *checker) determinism() {
	c.CheckDeterminism(c.richestType(), c.listed, func(ctx context.Context, eng *uhpclient.Engine, position *rules.Game, depth int) (string, error) {
		if _, err := eng.NewGame(ctx, position.GameString()); err != nil {
			return "", fmt.Errorf("newgame: %w", err)
		}
		move, err := eng.BestMove(ctx, uhpclient.BestMoveArgs{Depth: depth})
		if err != nil {
			return "", err
		}
		m, err := position.ParseMove(move)
		if err != nil {
			return "", fmt.Errorf("it answered %q: %s", move, reasonOf(err))
		}
		return position.MoveString(m), nil
	})
}
