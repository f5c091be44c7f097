package uhp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/lines"
	"hivearbiter/rules"
	"hivearbiter/uhpclient"
)

var _ compliance.Suite = Protocol{}

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
		return startChecked(ctx, e, c.Options(), c.bannerOnInfo, c.Row())
	})
	defer c.Close()
	eng, err := c.Begin(bannerRow)
	if err != nil {
		return c.Results(), err
	}
	c.banner(eng)
	return c.Run(c.newGames, c.gameType, c.validMoves, c.playUndo, c.loadGameString, c.repetitionClaim, c.searches,
		c.fractions, c.interrupt, c.overshoot, c.timeSetting, c.illegalMove, c.unknownCommand, c.options, c.determinism, c.bench), nil
}

// The rows that others need, by name.
const (
	bannerRow     = "start and banner"
	gameStringRow = "newgame with a full GameString"
	depthRow      = "bestmove depth 1"
	timeRow       = "bestmove time 00:00:01"
	fractionsRow  = "bestmove time 00:00:00.500 (fractions of a second)"
	interruptRow  = "SIGINT during bestmove: answers a move, stays alive"
	overshootRow  = "overshoot of timed searches"
	linesRow      = "lines before a reply"
	caseRow       = "case of the moves"
)

// failErr records a failed row whose failure is err, with its diagnosis and in the words a
// match gives it (diagnose): what went before says what was asked.
func (c *checker) failErr(name, before string, err error, search bool) {
	err = diagnose(err, search && !errors.As(err, new(setupError)))
	c.FailDiagnosed(name, compliance.DiagnosisOf(err), before+err.Error())
}

// warnErr is failErr for a row that only warns.
func (c *checker) warnErr(name, before string, err error, search bool) {
	err = diagnose(err, search && !errors.As(err, new(setupError)))
	c.WarnDiagnosed(name, compliance.DiagnosisOf(err), before+err.Error())
}

// noteLinesBefore warns, once a check, of lines the engine printed before its answer to what
// (a move, a GameString), as a match's record does.
func (c *checker) noteLinesBefore(eng *uhpclient.Engine, what string) {
	before := eng.LinesBeforeReply()
	if len(before) == 0 || c.linesNoted {
		return
	}
	c.linesNoted = true
	c.Note(linesRow, driver.DiagnosisLinesBeforeReply, driver.Diagnosed(driver.DiagnosisLinesBeforeReply,
		fmt.Sprintf("it printed %s before %s", lines.Quote(before), what)))
}

// noteCase warns, once a check, of a move whose letters are not in UHP's case, as a match's
// record does.
func (c *checker) noteCase(move, read string) {
	if !driver.MoveCaseWrong(move) || c.caseNoted {
		return
	}
	c.caseNoted = true
	c.Note(caseRow, driver.DiagnosisMoveCase, driver.Diagnosed(driver.DiagnosisMoveCase,
		fmt.Sprintf("it answered %s, read as %s", lines.QuoteText(move), read)))
}

// checker is a UHP compliance check in progress.
type checker struct {
	*compliance.Session[*uhpclient.Engine]
	engine driver.EngineConfig
	types  []rules.GameType // the game types the engine advertises
	// playable are the advertised game types whose newgame passed, in the referee's order.
	playable []rules.GameType
	// bannerOnInfo: the engine prints its banner only when asked "info"; it is asked at once
	// on every later start. gameStringOK: it loads a GameString, so searches are asked in
	// random positions rather than from the start. linesNoted, caseNoted: those warnings were
	// given.
	bannerOnInfo, gameStringOK, linesNoted, caseNoted bool
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

// startChecked starts the engine and sets its options. An engine whose banner comes only on
// "info" is taken (a check goes on past the fault, which its first row names), and asked at
// once once it is known (askInfo). The start's failure is worded as a match's (startError).
func startChecked(ctx context.Context, e driver.EngineConfig, opts compliance.Options, askInfo bool, row string) (*uhpclient.Engine, error) {
	eng, err := uhpclient.Start(ctx, uhpclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Name: cmp.Or(e.Name, e.DefaultName()),
		StartTimeout: opts.StartTimeout, GraceTimeout: opts.Grace, Transcript: opts.Transcript, AcceptBannerOnInfo: true, AskInfo: askInfo})
	if err != nil {
		return nil, startError(e, err)
	}
	eng.Note("check: started for the row " + strconv.Quote(row))
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
	detail := fmt.Sprintf("id %s, capabilities %s", lines.QuoteText(info.ID), lines.QuoteText(strings.Join(info.Capabilities, ";")))
	var settings []string
	if name := idName(info.ID); name != "" && c.engine.Interpreted() && c.engine.Name == "" {
		// The program is an interpreter, whose name says nothing of the engine.
		settings = append(settings, "name="+name)
		detail += fmt.Sprintf("; a match names it %s after its id (name=%s), not after the program %s", name, name, filepath.Base(c.engine.Command[0]))
	}
	switch {
	case eng.BannerOnInfo():
		c.bannerOnInfo = true
		c.FailDiagnosed(bannerRow, driver.DiagnosisBannerOnInfo, driver.Diagnosed(driver.DiagnosisBannerOnInfo,
			fmt.Sprintf(`it printed no banner within %v of its start, but printed one when asked "info" (%s)`, c.Options().StartTimeout, detail)))
	case info.ID == "":
		c.Fail(bannerRow, detail+`: the "id" line names no engine`)
	default:
		c.Advise(bannerRow, detail, settings...)
	}
	for _, t := range rules.GameTypes {
		if info.Supports(t.String()) {
			c.types = append(c.types, t)
		}
	}
}

// idName is a name for an engine from its id line: its first word, of letters, digits and
// "-_.", or "".
func idName(id string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(id), " ")
	first = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, first)
	return strings.Trim(first, ".-_")
}

// gameType says which game type to play the engine at when it does not play the arbiter's
// default, Base+MLP: the richest of the game types it played (its newgame passed), which is
// the -gametype of the match line.
func (c *checker) gameType() {
	const name = "game type for match"
	advertised := rules.Base
	if len(c.types) > 0 {
		advertised = c.types[len(c.types)-1]
	}
	switch richest := c.richestType(); {
	case len(c.types) == 0:
		c.Skip(name, "not checked: the engine advertises no game type the referee knows")
	case len(c.playable) == 0:
		c.Needs(name, "newgame Base")
	case richest == rules.BaseMLP:
		c.Pass(name, "it plays Base+MLP, the default")
	case richest != advertised:
		c.Advise(name, fmt.Sprintf("it plays %s at most (it advertises %s, but its newgame of the others failed): give -gametype %s", richest, advertised, richest), "-gametype="+richest.String())
	default:
		c.Advise(name, fmt.Sprintf("it advertises %s at most, not the default Base+MLP: give -gametype %s", richest, richest), "-gametype="+richest.String())
	}
}

// newGameRow is the row of the newgame of the richest game type the engine plays, which every
// row that plays a game needs.
func (c *checker) newGameRow() string { return "newgame " + c.richestType().String() }

// repetitionPosition is a game whose last move repeats a position for the third time: nokamute
// answers it as a Draw, Mzinga and MzingaCpp as InProgress (reference UHP-NOTES.md 7.1).
const repetitionPosition = `Base;InProgress;White[7];wS1;bB1 wS1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\`

// repetitionClaim finds out whether the engine claims a draw on threefold repetition, which
// the rules do not give: a match must then adjudicate it (-repetitions 3, the default), or
// every claim is a false one and a lost game.
func (c *checker) repetitionClaim() {
	const name = "draw claim on threefold repetition"
	if !c.Needs(name, gameStringRow) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, repetitionPosition) })
	switch {
	case err != nil:
		c.warnErr(name, "newgame with a position that occurred 3 times: ", err, false)
	case strings.HasPrefix(gs, "Base;Draw;"):
		c.Advise(name, "it claims a Draw (as nokamute does; the Hive rules have none): a match must adjudicate threefold repetition as a draw, -repetitions 3 (the default), or its claims are lost as false",
			"-repetitions=3")
	default:
		c.Pass(name, "it claims none (as Mzinga): "+gs)
	}
}

// newGames checks newgame of every advertised game type: Base first, which every other
// needs, and a type of several expansions only once each of its single expansions passed, so
// that one cause (the game type ignored, an expansion it lacks) fails one row, not seven.
func (c *checker) newGames() {
	for _, t := range c.types {
		name := "newgame " + t.String()
		if t != rules.Base && !c.Needs(name, c.newGameNeeds(t)...) {
			continue
		}
		eng, ok := c.Engine(name)
		if !ok {
			continue
		}
		gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) })
		want := rules.NewGame(t).GameString()
		switch {
		case err != nil:
			c.failErr(name, "", err, false)
		case driver.GameTypeIgnored(t.String(), gs):
			c.FailDiagnosed(name, driver.DiagnosisGameTypeIgnore, driver.Diagnosed(driver.DiagnosisGameTypeIgnore,
				fmt.Sprintf("it answered %s, a game of another type", lines.QuoteText(gs))))
		case gs != want:
			why := fmt.Errorf("answered %s, want %s", lines.QuoteText(gs), lines.QuoteText(want))
			if err := sameGame(gs, rules.NewGame(t)); err != nil {
				why = err
			}
			c.Fail(name, why.Error())
		default:
			c.playable = append(c.playable, t)
			c.Pass(name, gs)
		}
	}
}

// newGameNeeds are the newgame rows a game type's needs: Base, and each of its single
// expansions, for a type of several.
func (c *checker) newGameNeeds(t rules.GameType) []string {
	needs := []string{"newgame Base"}
	for _, single := range c.types {
		if single != t && len(single.Expansions()) == 1 && t&single == single {
			needs = append(needs, "newgame "+single.String())
		}
	}
	return needs
}

// richestType is the game type with the most expansions among those the engine played (its
// newgame passed), Base if none.
func (c *checker) richestType() rules.GameType {
	if len(c.playable) == 0 {
		return rules.Base
	}
	return c.playable[len(c.playable)-1]
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
			extra = append(extra, fmt.Sprintf("%s (%s)", lines.QuoteText(s), reasonOf(err)))
			continue
		}
		if slices.Contains(got, m) {
			twice = append(twice, lines.QuoteText(s))
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
	if !c.Needs(name, c.newGameRow()) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	positions := 0
	for range c.Options().Games {
		ref := rules.NewGame(t)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
			c.failErr(name, "newgame: ", err, false)
			return
		}
		for ply := 0; ply < c.Options().Plies && !ref.State().IsOver(); ply++ {
			moves, err := call(c, checkTimeout, eng.ValidMoves)
			if err != nil {
				c.failErr(name, fmt.Sprintf("in %s: ", ref.GameString()), err, false)
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
			c.noteLinesBefore(eng, "its GameString")
			if err != nil {
				c.failErr(name, fmt.Sprintf("play %s: ", text), err, false)
				return
			}
			if err := sameGame(gs, ref); err != nil {
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
				return fmt.Errorf("returned a malformed GameString (it ends with \";\"): %s", lines.QuoteText(gs))
			}
			return fmt.Errorf("returned a malformed GameString (entry %d is empty): %s", i+4, lines.QuoteText(gs))
		}
	}
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return fmt.Errorf("returned a GameString that does not load, %s: %w", lines.QuoteText(gs), err)
	}
	if g.Hash() != ref.Hash() || g.Ply() != ref.Ply() || g.State() != ref.State() {
		return fmt.Errorf("returned %s, the referee has %s", lines.QuoteText(gs), lines.QuoteText(ref.GameString()))
	}
	if fields := strings.Split(gs, ";"); len(fields) < 3 || fields[1] != ref.State().String() || fields[2] != ref.TurnString() {
		return fmt.Errorf("returned state/turn %s, the referee has %s;%s", lines.QuoteText(gs), ref.State(), ref.TurnString())
	}
	return nil
}

func (c *checker) playUndo() {
	const name = "play and undo round trip"
	if !c.Needs(name, c.newGameRow()) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	t := c.richestType()
	ref := rules.NewGame(t)
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
		c.failErr(name, "newgame: ", err, false)
		return
	}
	for range 6 {
		valid := ref.ValidMoves()
		m := valid[c.Rand().IntN(len(valid))]
		text := ref.MoveString(m)
		ref.PlayMove(m)
		if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Play(ctx, text) }); err != nil {
			c.failErr(name, fmt.Sprintf("play %s: ", text), err, false)
			return
		}
		c.noteLinesBefore(eng, "its GameString")
	}
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.Undo(ctx, 2) })
	if err != nil {
		c.warnErr(name, "undo 2: ", err, false)
		return
	}
	ref.Undo(2)
	if err := sameGame(gs, ref); err != nil {
		c.Warn(name, "undo 2: "+err.Error())
		return
	}
	c.Pass(name, "6 plies played, 2 undone: "+gs)
}

// position is a random position of the richest game type, plies into a game; the start of a
// game for an engine that does not load a GameString's moves, so that its searches are judged
// on their own.
func (c *checker) position(plies int) *rules.Game {
	if !c.gameStringOK {
		plies = 0
	}
	return c.Position(c.richestType(), plies)
}

func (c *checker) loadGameString() {
	const name = gameStringRow
	if !c.Needs(name, c.newGameRow()) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	ref := c.Position(c.richestType(), 10)
	gs, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, ref.GameString()) })
	switch {
	case err != nil:
		c.failErr(name, "", err, false)
	case driver.GameStringIgnored(ref.GameString(), gs):
		c.FailDiagnosed(name, driver.DiagnosisGameStringIgnore, driver.Diagnosed(driver.DiagnosisGameStringIgnore,
			fmt.Sprintf("it answered newgame %s with %s, a game without its moves", lines.QuoteText(ref.GameString()), lines.QuoteText(gs))))
	default:
		if err := sameGame(gs, ref); err != nil {
			c.Fail(name, err.Error())
			return
		}
		c.gameStringOK = true
		c.Pass(name, gs)
	}
}

// search asks for a move in a fresh position within l, waiting budget, and judges the answer:
// the move, or why it is none. interruptAt, if not zero, is when the search is interrupted.
func (c *checker) search(eng *uhpclient.Engine, l uhpclient.BestMoveArgs, budget, interruptAt time.Duration) (string, time.Duration, error) {
	ref := c.position(8)
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, ref.GameString()) }); err != nil {
		return "", 0, setupError{fmt.Errorf("newgame: %w", err)}
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
	m, err := ref.ParseMove(move)
	if err != nil {
		bad := badAnswer{fmt.Errorf("it answered the illegal move %s in %s: %s", lines.QuoteText(move), ref.GameString(), reasonOf(err))}
		if reasonOf(err) == "not a MoveString" {
			bad = badAnswer{errors.New(uhpclient.NotAMove(move))}
		}
		if d, ok := driver.DiagnoseMove(ref, move); ok {
			return move, took, driver.Diagnose(d.ID, bad)
		}
		return move, took, bad
	}
	c.noteLinesBefore(eng, "its move")
	c.noteCase(move, ref.MoveString(m))
	return move, took, nil
}

// badAnswer is a search that was answered in time, but not with a legal move: the search rows
// report it; the rows about time and SIGINT only care that an answer came.
type badAnswer struct{ error }

func (b badAnswer) Unwrap() error { return b.error }

// setupError is a search that was never asked: the newgame before it failed. The rows about
// time and SIGINT conclude nothing from it.
type setupError struct{ error }

func (s setupError) Unwrap() error { return s.error }

func (c *checker) searches() {
	for _, l := range []uhpclient.BestMoveArgs{{Depth: 1}, {Time: time.Second}} {
		name, budget := depthRow, checkTimeout
		if l.Time > 0 {
			name, budget = timeRow, l.Time+c.Options().Margin
		}
		if !c.Needs(name, c.newGameRow()) {
			continue
		}
		eng, ok := c.Engine(name)
		if !ok {
			continue
		}
		move, took, err := c.search(eng, l, budget, 0)
		if err != nil {
			c.failErr(name, fmt.Sprintf("after %v: ", took.Round(time.Millisecond)), err, true)
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
	const name = fractionsRow
	if !c.Needs(name, timeRow) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	l := uhpclient.BestMoveArgs{Time: 500 * time.Millisecond, FractionalSeconds: true}
	// Waited for as the match's probe waits: an answer later than that is no fraction kept.
	move, took, err := c.search(eng, l, l.Time+fractionSlack, 0)
	if errors.As(err, new(badAnswer)) {
		move, err = "an answer that is no legal move (see above)", nil
	}
	if errors.As(err, new(*uhpclient.ExitError)) || errors.As(err, new(setupError)) {
		// A crash, or a newgame that failed, says nothing of fractions: it is named, and
		// budgets are sent as whole seconds, which every engine reads.
		c.warnErr(name, "", err, true)
		return
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
	const name = interruptRow
	if !c.Needs(name, timeRow) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	const search, interruptAt = 4 * time.Second, time.Second // whole seconds, which every engine reads
	move, took, err := c.search(eng, uhpclient.BestMoveArgs{Time: search}, search+c.Options().Margin, interruptAt)
	if errors.As(err, new(badAnswer)) {
		move, err = "an answer that is no legal move (see above)", nil
	}
	exit, exited := errors.AsType[*uhpclient.ExitError](err)
	// A search that outlived the signal and then its time ignored it; a newgame that timed
	// out before it says nothing of SIGINT.
	te, timedOut := errors.AsType[*uhpclient.TimeoutError](err)
	ignored := timedOut && strings.HasPrefix(te.Command, "bestmove") && te.After > interruptAt
	c.interruptKnown = err == nil || exited && exit.Interrupted > 0 || ignored
	switch {
	case exited && exit.Interrupted > 0:
		why := "a viewer's stop kills it, and a match never interrupts it (interrupt=false); to be stopped, an engine answers its best move so far on SIGINT (a Python engine: catch KeyboardInterrupt)"
		c.Warn(name, fmt.Sprintf("%v: %s", err, why))
	case c.interruptKnown && err != nil:
		c.Warn(name, fmt.Sprintf("%v: it ignores SIGINT, and a match never interrupts it (interrupt=false); to be stopped, an engine answers its best move so far on SIGINT", err))
	case err != nil:
		// It failed before SIGINT could tell anything: the failure is named, not concluded from.
		c.warnErr(name, "before SIGINT could be judged: ", err, true)
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
	if !c.Needs(name, timeRow, overshootRow) || !c.readsFractions && !c.Needs(name, fractionsRow, interruptRow) {
		return
	}
	margin, marginWhy := compliance.MarginFor(c.overshoots)
	marginWord := "margin=" + strconv.FormatFloat(margin.Seconds(), 'f', -1, 64)
	switch {
	case c.readsFractions:
		c.Advise(name, fmt.Sprintf("fractional=true: it reads fractions of a second, so every budget is sent as it is, and it plays any time control; %s", marginWhy),
			"fractional=true", "interrupt=false", marginWord)
	case !c.interruptKnown:
		c.Skip(name, compliance.NotChecked+interruptRow+" (which could not tell whether it survives SIGINT)")
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
	const name = overshootRow
	if !c.Needs(name, timeRow) {
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
	if !c.Needs(name, c.newGameRow()) {
		return
	}
	eng, ok := c.Engine(name)
	if !ok {
		return
	}
	t := c.richestType()
	if _, err := call(c, checkTimeout, func(ctx context.Context) (string, error) { return eng.NewGame(ctx, t.String()) }); err != nil {
		c.warnErr(name, "newgame: ", err, false)
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
		c.Warn(name, fmt.Sprintf("it accepted the illegal move play %s on the first turn (the rule it breaks: %s) and answered %s", move, reasonOf(rule), lines.QuoteText(gs)))
	default:
		c.warnErr(name, fmt.Sprintf("play %s on the first turn (illegal: %s): ", move, reasonOf(rule)), err, false)
	}
}

func (c *checker) unknownCommand() {
	const name = "unknown command answered with err"
	c.Optional(name, func(left time.Duration) {
		eng, ok := c.Engine(name)
		if !ok {
			return
		}
		reply, err := call(c, min(checkTimeout, left), func(ctx context.Context) ([]string, error) { return eng.Send(ctx, "frobnicate") })
		var engErr *uhpclient.EngineError
		switch {
		case errors.As(err, &engErr):
			c.Pass(name, "err "+engErr.Message)
		case err == nil:
			c.Warn(name, fmt.Sprintf(`frobnicate: it answered %s, not "err"`, lines.Quote(reply)))
		default:
			c.warnErr(name, "frobnicate: ", err, false)
		}
	})
}

func (c *checker) options() {
	const name = "options parse"
	var opts []uhpclient.Option
	var err error
	ran := false
	c.Optional(name, func(left time.Duration) {
		eng, ok := c.Engine(name)
		if !ok {
			return
		}
		ran = true
		opts, err = call(c, min(checkTimeout, left), eng.Options)
	})
	if !ran {
		return
	}
	if err != nil {
		c.warnErr(name, "", err, false)
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
	if c.Options().Quick {
		c.Skip(name, "not checked: -quick (a first look) leaves it out")
		return
	}
	c.Optional(name, func(left time.Duration) {
		eng, ok := c.Engine(name)
		if !ok {
			return
		}
		reply, err := call(c, min(benchTimeout, left), func(ctx context.Context) ([]string, error) { return eng.Send(ctx, "bench") })
		var engErr *uhpclient.EngineError
		switch {
		case errors.As(err, &engErr):
			c.Pass(name, "none: the engine has no bench command (it answered err "+engErr.Message+")")
		case err != nil:
			c.warnErr(name, "bench: ", err, false)
		case len(reply) == 0 || !strings.Contains(reply[len(reply)-1], "nodes="):
			c.Warn(name, fmt.Sprintf("bench: it answered %s, not a line with nodes=N", lines.Quote(reply)))
		default:
			c.Pass(name, reply[len(reply)-1])
		}
	})
}

// determinism is the check framework's probe (compliance.Session.CheckDeterminism), each
// search a newgame at the position and a bestmove to the depth.
func (c *checker) determinism() {
	if !c.Needs(compliance.DeterminismCheck, depthRow) {
		return
	}
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
			return "", fmt.Errorf("it answered %s: %s", lines.QuoteText(move), reasonOf(err))
		}
		return position.MoveString(m), nil
	})
}
