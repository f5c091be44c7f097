package arbiter

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/lines"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// Side is one player's part in a game.
type Side struct {
	Name   string // the name the tournament gives the player
	Player driver.Player
	Time   driver.TimeControl
	// Margin is the lateness forgiven on each move before the player loses on time.
	Margin time.Duration
}

// Adjudication holds the arbiter's own rules for ending games the Hive rules would let run on.
type Adjudication struct {
	// Repetitions draws a game when the same position (same side to move) occurs this many
	// times; 0 never does. The Hive rules have no repetition draw.
	Repetitions int
	// MaxPlies draws a game after this many plies, opening included; 0 means no limit.
	MaxPlies int
}

// GameConfig is everything about one scheduled game except its players.
type GameConfig struct {
	Run          string // fingerprint of the tournament
	Seed         int64
	Index        int // index in the schedule
	Round        int
	Pair         int
	Opening      string // a GameString; a GameTypeString alone starts from the empty board
	OpeningIndex int
	Adjudication Adjudication
	// CommandTimeout bounds every command but bestmove (newgame, play): past it the player stalls.
	CommandTimeout time.Duration
	// DepthTimeout bounds a depth-limited search.
	DepthTimeout time.Duration
}

// ErrInterrupted is returned for a game stopped by the arbiter's own cancellation (Ctrl-C):
// such a game has no result and is played again when the run resumes.
var ErrInterrupted = errors.New("arbiter: game interrupted")

// PlayGame plays one game between white and black in the three-engine model and returns its
// record. Player failures end the game with a result; the error is non-nil only when the game
// could not be played at all (an invalid opening) or was interrupted through ctx.
func PlayGame(ctx context.Context, cfg GameConfig, white, black Side) (*results.Record, error) {
	g, err := NewGame(cfg, white, black)
	if err != nil {
		return nil, err
	}
	for ok := g.Start(ctx); ok && g.Step(ctx); {
	}
	return g.Finish(ctx)
}

// Game is one refereed game in progress, played a step at a time: PlayGame plays it to its
// end; a session that serves the game to a viewer drives it move by move. The referee's game
// is the truth; each step is checked against it, and the first failure ends the game with a
// result against the side that failed.
type Game struct {
	cfg     GameConfig
	ref     *rules.Game // the referee's game: the truth
	sides   [2]Side
	clock   *driver.Clock
	mirrors [2]mirror // what each player's GameString has been verified to mean
	rec     *results.Record
	late    [2]bool // a side was warned that a move used most of its margin
	// caseWarned is set once a side was warned of a move not in UHP's case.
	caseWarned [2]bool
}

// NewGame sets up a game from its configuration; nothing is sent to the players yet.
func NewGame(cfg GameConfig, white, black Side) (*Game, error) {
	ref, err := rules.ParseGameString(cfg.Opening)
	if err != nil {
		return nil, fmt.Errorf("arbiter: opening %d: %w", cfg.OpeningIndex, err)
	}
	started := time.Now().UTC()
	named := func(s Side) results.Player {
		info := s.Player.Info()
		p := results.Player{Name: s.Name, ID: info.ID, NotCrossChecked: !info.ReportsState}
		if !s.Time.IsZero() {
			p.Time = s.Time.String()
		}
		if a, ok := s.Player.(driver.TimingAdvisor); ok && s.Time.Depth == 0 && s.Time.Nodes == 0 {
			p.TimePolicy = a.Timing()
		}
		if t, ok := s.Player.(driver.Transcribed); ok {
			p.Transcript = t.MarkGame(driver.GameMark{Run: cfg.Run, Index: cfg.Index, White: white.Name, Black: black.Name,
				Opening: cfg.Opening, Started: started})
		}
		return p
	}
	return &Game{
		cfg: cfg, ref: ref,
		sides: [2]Side{white, black},
		clock: driver.NewClock(white.Time, black.Time, white.Margin, black.Margin),
		rec: &results.Record{
			Schema: results.SchemaVersion, Run: cfg.Run, Game: cfg.Index, Round: cfg.Round, Pair: cfg.Pair,
			White: named(white), Black: named(black),
			Opening: cfg.Opening, OpeningIndex: cfg.OpeningIndex, GameType: ref.GameType().String(),
			Moves: []results.Move{}, Started: started, Arbiter: Version, Seed: cfg.Seed,
		},
	}, nil
}

// Start sends the opening to both players and checks what they report. It returns false when
// the game ended: a player failed, or the opening is already decided.
func (g *Game) Start(ctx context.Context) bool {
	return g.Load(ctx, g.cfg.Opening) && !g.adjudicated()
}

// Load starts both players on a GameString of the game in progress (the referee's position,
// after an undo say) and checks what they report. It returns false when a player failed.
func (g *Game) Load(ctx context.Context, gameString string) bool {
	for side := range g.sides {
		cctx, cancel := context.WithTimeout(ctx, g.cfg.CommandTimeout)
		gs, err := g.sides[side].Player.NewGame(cctx, gameString)
		cancel()
		if ctx.Err() != nil {
			return false
		}
		if err != nil {
			g.fault(side, reasonOf(err), fmt.Sprintf("%s failed to start the game: %v", g.who(side), err))
			return false
		}
		if driver.GameTypeIgnored(gameString, gs) {
			g.fault(side, results.ReasonDesync, driver.Diagnosed(driver.DiagnosisGameTypeIgnore,
				fmt.Sprintf("%s answered newgame %s with %s, a game of another type", g.who(side), lines.QuoteText(gameString), lines.QuoteText(gs))))
			return false
		}
		if driver.GameStringIgnored(gameString, gs) {
			g.fault(side, results.ReasonDesync, driver.Diagnosed(driver.DiagnosisGameStringIgnore,
				fmt.Sprintf("%s answered newgame %s with %s, a game without its moves", g.who(side), lines.QuoteText(gameString), lines.QuoteText(gs))))
			return false
		}
		if g.checkGameString(side, gs) {
			return false
		}
	}
	return true
}

// Step plays one ply: the side to move is asked for its move under its time control, and the
// move is refereed and sent to both players. It returns false when the game ended or ctx was
// cancelled.
func (g *Game) Step(ctx context.Context) bool {
	if g.Over() || ctx.Err() != nil {
		return false
	}
	m, used, ok := g.search(ctx)
	if !ok {
		return false
	}
	return g.commit(ctx, m, used) && !g.adjudicated()
}

// search asks the side to move for its move under its time control and judges the answer,
// its time on the clock included, without playing it: the judgement of a move before the
// referee plays it, shared by Step and the check before the first game (Preflight). It
// returns false when the game ended or ctx was cancelled.
func (g *Game) search(ctx context.Context) (rules.Move, time.Duration, bool) {
	side := g.ToMove()
	limit := g.limit(side)
	m, used, ok := g.think(ctx, g.sides[side].Player, limit, g.clock.Deadline(side, g.cfg.DepthTimeout))
	if !ok {
		return m, used, false
	}
	allowed, lost := g.clock.Charge(side, used)
	if limit.Depth == 0 && limit.Nodes == 0 {
		if lost {
			g.fault(side, results.ReasonTimeForfeit, driver.Diagnosed(driver.DiagnosisOverrun, g.timeDetail(side, used, limit)))
			return m, used, false
		}
		g.warnLate(side, used, allowed)
	}
	return m, used, true
}

// limit is what side searches under now: its budget and both clocks, or its depth or nodes.
func (g *Game) limit(side int) driver.SearchLimit {
	limit := driver.SearchLimit{Time: g.clock.Budget(side), Depth: g.sides[side].Time.Depth, Nodes: g.sides[side].Time.Nodes,
		Clock: g.clock.State(g.ref.Ply())}
	if limit.Depth > 0 || limit.Nodes > 0 {
		limit.Time = 0
	}
	return limit
}

// Think asks a player for the side to move's move under limit, waiting at most wait, and
// returns its answer, checked by the referee but not played, in Mzinga's notation, with the
// time it took. It is the one place that judges a search that failed: a timed search that
// outlived its wait is a time forfeit, a depth or node search that outlived its watchdog a
// stall; an answer that is no legal move loses too. It returns false when the game ended, or
// ctx was cancelled. The player is usually the side's own; a session asks the engine behind a
// seat.
func (g *Game) Think(ctx context.Context, p driver.Player, limit driver.SearchLimit, wait time.Duration) (string, time.Duration, bool) {
	m, used, ok := g.think(ctx, p, limit, wait)
	if !ok {
		return "", used, false
	}
	return g.ref.MoveString(m), used, true
}

// think is Think with the move as the referee parsed it, for Step to play without parsing
// the answer again.
func (g *Game) think(ctx context.Context, p driver.Player, limit driver.SearchLimit, wait time.Duration) (rules.Move, time.Duration, bool) {
	var none rules.Move
	side := g.ToMove()
	wctx, cancel := context.WithTimeout(ctx, wait)
	start := time.Now()
	answer, err := p.BestMove(wctx, limit)
	used := time.Since(start)
	cancel()
	if w, ok := p.(driver.Warner); ok {
		for _, warning := range w.Warnings() {
			g.warn(side, fmt.Sprintf("%s: %s", g.who(side), warning.Text))
		}
	}
	if ctx.Err() != nil {
		return none, used, false
	}
	if err != nil {
		switch reason := reasonOf(err); reason {
		case results.ReasonStall, results.ReasonTimeForfeit:
			if limit.Depth > 0 || limit.Nodes > 0 {
				g.fault(side, results.ReasonStall, fmt.Sprintf("%s did not finish its %s within %s: %v", g.who(side), limitText(limit), wait, err))
			} else {
				g.fault(side, results.ReasonTimeForfeit, fmt.Sprintf("%s loses on time: it did not answer its %s within %.3f s: %v", g.who(side), limitText(limit), wait.Seconds(), err))
			}
		default:
			g.fault(side, reason, fmt.Sprintf("%s failed on bestmove: %v", g.who(side), err))
		}
		return none, used, false
	}
	m, err := g.ref.ParseMove(strings.TrimSpace(answer))
	if err != nil {
		g.illegal(side, answer, err)
		return none, used, false
	}
	if driver.MoveCaseWrong(answer) && !g.caseWarned[side] {
		g.caseWarned[side] = true
		g.warn(side, driver.Diagnosed(driver.DiagnosisMoveCase, fmt.Sprintf("%s answered %s, read as %s", g.who(side), lines.QuoteText(answer), g.ref.MoveString(m))))
	}
	return m, used, true
}

// Commit referees a move of the side to move (its answer to bestmove, or a viewer's move),
// records it with the time it took, and sends it to both players. It returns false when the
// game ended: the move was illegal, or a player failed to play it.
func (g *Game) Commit(ctx context.Context, answer string, used time.Duration) bool {
	m, err := g.ref.ParseMove(strings.TrimSpace(answer))
	if err != nil {
		g.illegal(g.ToMove(), answer, err)
		return false
	}
	return g.commit(ctx, m, used)
}

// commit plays a move the referee parsed (legal in this position), records it with the time
// it took, and sends it to both players. It returns false when a player failed to play it.
func (g *Game) commit(ctx context.Context, m rules.Move, used time.Duration) bool {
	side := g.ToMove()
	if err := g.ref.PlayMove(m); err != nil {
		// ParseMove accepted the move, so the referee contradicts itself: not the engine's fault.
		panic(fmt.Sprintf("arbiter: referee rejects the move it accepted: %s in %s: %v", g.ref.MoveString(m), g.ref.GameString(), err))
	}
	// The history holds the move in Mzinga's notation: written once, not again here.
	move := g.ref.PlayedMove(g.ref.Ply() - 1)
	rm := results.Move{Move: move, Millis: used.Milliseconds()}
	if r, ok := g.sides[side].Player.(driver.SearchReporter); ok {
		rm.Info = r.TakeSearchInfo()
	}
	if g.sides[side].Time.IsClock() {
		left := g.clock.Remaining(side).Milliseconds()
		rm.ClockMillis = &left
	}
	g.rec.Moves = append(g.rec.Moves, rm)
	return g.tell(ctx, move)
}

// tell sends a move the referee played to both players and checks their answers, White's
// first. It returns false when the game ended. Two players that can be sent a move without
// waiting for its answer (PlayStarter) are sent it at once and play it side by side; a
// failure is still judged as it would be one player after the other: the first side that
// failed is the one that loses, and the other's answer is read all the same, so that its
// next command is not answered by it.
func (g *Game) tell(ctx context.Context, move string) bool {
	white, wok := g.sides[0].Player.(driver.PlayStarter)
	black, bok := g.sides[1].Player.(driver.PlayStarter)
	if !wok || !bok {
		for s := range g.sides {
			cctx, cancel := context.WithTimeout(ctx, g.cfg.CommandTimeout)
			gs, err := g.sides[s].Player.Play(cctx, move)
			cancel()
			if !g.played(ctx, s, move, gs, err) {
				return false
			}
		}
		return true
	}
	cctx, cancel := context.WithTimeout(ctx, g.cfg.CommandTimeout)
	defer cancel()
	starters := [2]driver.PlayStarter{white, black}
	var (
		answers [2]string
		errs    [2]error
	)
	for s, p := range starters {
		if errs[0] != nil {
			// White could not be told the move: the game ends on White's failure, judged
			// first below, and Black is not told a move it would never answer.
			errs[s] = errNotTold
			break
		}
		errs[s] = p.StartPlay(cctx, move)
	}
	for s, p := range starters {
		if errs[s] != nil {
			continue
		}
		wctx := cctx
		if s == 1 && g.spent(cctx) {
			// White's answer took half the time or more, while Black's may have come long
			// before its deadline: it is given the whole time again, from now.
			var cancel context.CancelFunc
			wctx, cancel = context.WithTimeout(ctx, g.cfg.CommandTimeout)
			defer cancel()
		}
		answers[s], errs[s] = p.WaitPlay(wctx)
	}
	for s := range starters {
		if !g.played(ctx, s, move, answers[s], errs[s]) {
			return false
		}
	}
	return true
}

// errNotTold is Black's error when White could not be told the move (it is never judged: the
// game ends on White's failure first).
var errNotTold = errors.New("arbiter: not told the move: the game ended on White's failure to take it")

// spent reports whether half or more of a command's time, under cctx, has passed.
func (g *Game) spent(cctx context.Context) bool {
	deadline, _ := cctx.Deadline()
	return cctx.Err() != nil || time.Until(deadline) < g.cfg.CommandTimeout/2
}

// played judges a side's answer to a move it was sent: its GameString, or the error of its
// Play. It returns false when the game ended, or ctx was cancelled.
func (g *Game) played(ctx context.Context, s int, move, gs string, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	if err != nil && g.decidedByRules() {
		// The move ended the game by the rules: the result is the rules', whoever fails to
		// be told of it afterwards (blaming the engine reversed the result when it was the
		// winner's).
		g.rec.Detail += fmt.Sprintf("; afterwards %s failed to play %s: %v", g.who(s), lines.QuoteText(move), err)
		return false
	}
	if err != nil {
		reason := reasonOf(err)
		detail := fmt.Sprintf("%s failed to play %s: %v", g.who(s), lines.QuoteText(move), err)
		if reason == results.ReasonDesync {
			detail = fmt.Sprintf("%s rejected the legal move %s: %v", g.who(s), lines.QuoteText(move), err)
		}
		g.fault(s, reason, detail)
		return false
	}
	return !g.checkGameString(s, gs)
}

// Referee referees a move of the side to move without playing it: its MoveString in Mzinga's
// notation, or the error that says why it is not legal (a *rules.InvalidMoveError naming the
// rule, or a *rules.MoveStringError for text that is no move).
func (g *Game) Referee(answer string) (string, error) {
	m, err := g.ref.ParseMove(strings.TrimSpace(answer))
	if err != nil {
		return "", err
	}
	return g.ref.MoveString(m), nil
}

// State is where the referee's game stands.
func (g *Game) State() rules.GameState { return g.ref.State() }

// Adjudicate ends the game if the rules or the arbiter's adjudication say it is over, and
// reports whether it is.
func (g *Game) Adjudicate() bool { return g.Over() || g.adjudicated() }

// Undo takes plies back on the referee's board and in the record; the players must then be
// sent the position with Load. A game undone past its opening starts from the position reached.
func (g *Game) Undo(plies int) error {
	back := g.ref.Clone()
	if err := back.Undo(plies); err != nil {
		return err
	}
	g.ref = back
	g.mirrors = [2]mirror{} // they follow the history that was undone
	rec := g.rec
	if n := len(rec.Moves) - plies; n >= 0 {
		rec.Moves = rec.Moves[:n]
	} else {
		rec.Opening, rec.Moves = back.GameString(), rec.Moves[:0]
	}
	rec.Result, rec.Reason, rec.Culprit, rec.Detail = "", "", "", ""
	return nil
}

// Forfeit ends the game as a loss for side, for a reason of the arbiter's or a viewer's (a
// resignation, say): culprit names no one.
func (g *Game) Forfeit(side int, reason results.Reason, detail string) {
	result := results.WhiteWins
	if side == 0 {
		result = results.BlackWins
	}
	g.end(result, reason, -1, detail)
}

// Over reports whether the game has a result.
func (g *Game) Over() bool { return g.rec.Result != "" }

// ToMove is the side to move: 0 for White, 1 for Black.
func (g *Game) ToMove() int { return int(g.ref.ToMove()) }

// Position returns a copy of the referee's game as it stands.
func (g *Game) Position() *rules.Game { return g.ref.Clone() }

// GameString is the referee's GameString of the game as it stands.
func (g *Game) GameString() string { return g.ref.GameString() }

// Record returns the game's record as it stands (the moves so far, and the result once the
// game is over), with the referee's final GameString. It is a copy.
func (g *Game) Record() *results.Record {
	r := *g.rec
	r.Moves = slices.Clone(g.rec.Moves)
	r.Warnings = slices.Clone(g.rec.Warnings)
	r.GameString = g.ref.GameString()
	return &r
}

// MoveCount counts the moves recorded (after the opening).
func (g *Game) MoveCount() int { return len(g.rec.Moves) }

// LastMove is the last move recorded, and false before the first.
func (g *Game) LastMove() (results.Move, bool) {
	if len(g.rec.Moves) == 0 {
		return results.Move{}, false
	}
	return g.rec.Moves[len(g.rec.Moves)-1], true
}

// Finish returns the record of a game that has ended, or ErrInterrupted when ctx stopped it
// first.
func (g *Game) Finish(ctx context.Context) (*results.Record, error) {
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	g.askFinishers(ctx)
	g.rec.GameString = g.ref.GameString()
	g.rec.Finished = time.Now().UTC()
	return g.rec, nil
}

func limitText(l driver.SearchLimit) string {
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d search", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("%d-node search", l.Nodes)
	}
	return fmt.Sprintf("%.3f s search", l.Time.Seconds())
}

// illegal ends the game for a side whose answer is not a legal move, with the table's
// diagnosis when it knows why (driver.DiagnoseMove): the case of its letters, the side it
// moved, a notation that is not UHP's.
func (g *Game) illegal(side int, answer string, err error) {
	var ime *rules.InvalidMoveError
	var detail string
	reason := results.ReasonIllegalMove
	switch {
	case !errors.As(err, &ime):
		detail = fmt.Sprintf("%s answered %s, which is not a MoveString", g.who(side), lines.QuoteText(answer))
	case ime.Reason == rules.ReasonPassWithMoves:
		n := len(g.ref.ValidMoves())
		reason, detail = results.ReasonIllegalPass, fmt.Sprintf("%s passed although it had %d legal moves", g.who(side), n)
	default:
		detail = fmt.Sprintf("%s played the illegal move %s: %s", g.who(side), lines.QuoteText(answer), ime.Reason)
	}
	if d, ok := driver.DiagnoseMove(g.ref, answer); ok {
		detail = driver.Diagnosed(d.ID, detail)
	}
	g.fault(side, reason, detail)
}

// adjudicated ends the game if the rules or the arbiter's adjudication say it is over.
func (g *Game) adjudicated() bool {
	switch st := g.ref.State(); st {
	case rules.WhiteWins, rules.BlackWins, rules.Draw:
		g.rec.Result = st.String()
		g.rec.Reason = results.ReasonQueenSurrounded
		switch st {
		case rules.WhiteWins:
			g.rec.Detail = "Black's queen is surrounded"
		case rules.BlackWins:
			g.rec.Detail = "White's queen is surrounded"
		default:
			g.rec.Detail = "both queens are surrounded"
		}
		return true
	}
	adj := g.cfg.Adjudication
	if n := g.ref.Repetitions(); adj.Repetitions > 0 && n >= adj.Repetitions {
		g.end(results.Draw, results.ReasonRepetition, -1, fmt.Sprintf("the position occurred %d times", n))
		return true
	}
	if adj.MaxPlies > 0 && g.ref.Ply() >= adj.MaxPlies {
		g.end(results.Draw, results.ReasonMoveLimit, -1, fmt.Sprintf("the game reached the limit of %d plies", adj.MaxPlies))
		return true
	}
	return false
}

// decidedByRules ends the game with the rules' result when the position is decided (a queen
// surrounded) and reports whether it was.
func (g *Game) decidedByRules() bool {
	switch g.ref.State() {
	case rules.WhiteWins, rules.BlackWins, rules.Draw:
		return g.adjudicated()
	}
	return false
}

// fault ends the game as a loss for the side that misbehaved.
func (g *Game) fault(side int, reason results.Reason, detail string) {
	result := results.WhiteWins
	if side == 0 {
		result = results.BlackWins
	}
	g.end(result, reason, side, detail)
}

func (g *Game) end(result string, reason results.Reason, culprit int, detail string) {
	g.rec.Result, g.rec.Reason, g.rec.Detail = result, reason, detail
	if culprit >= 0 {
		g.rec.Culprit = rules.Color(culprit).String()
	}
}

// askFinishers tells the players that keep their own idea of the game (Finisher) that it
// ended, and notes where they disagree with the rules. A culprit is not asked: it may be dead.
func (g *Game) askFinishers(ctx context.Context) {
	if !g.Over() {
		return
	}
	truth := g.ref.State()
	for side := range g.sides {
		f, ok := g.sides[side].Player.(driver.Finisher)
		if !ok || g.rec.Culprit == rules.Color(side).String() {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, g.cfg.CommandTimeout)
		claim, err := f.GameOver(cctx, g.rec.Result)
		cancel()
		if err != nil {
			g.warn(side, fmt.Sprintf("%s could not say how the game ended: %v", g.who(side), err))
			continue
		}
		said, perr := rules.ParseGameState(claim)
		switch {
		case claim == "" || (perr == nil && (said == truth || !said.IsOver() && !truth.IsOver())):
		case perr == nil && said.IsOver() && !truth.IsOver():
			g.warn(side, fmt.Sprintf("%s: false claim: says the game is %s, but by the rules it is %s", g.who(side), said, truth))
		default:
			g.warn(side, fmt.Sprintf("%s says the game is %s, but the rules give %s", g.who(side), claim, truth))
		}
	}
}

// warn notes in the record an anomaly of a side that decides nothing; text names the side.
func (g *Game) warn(side int, text string) {
	g.rec.Warnings = append(g.rec.Warnings, driver.Warning{Side: rules.Color(side).String(), Engine: g.sides[side].Name, Text: text})
}

// nearMargin is the share of its margin that a move must use to be warned of. arbiter check
// advises a margin of twice the slowest overshoot it measured (compliance.MarginFor): a move
// past half of it ran later than anything the check saw, as a loaded machine or a longer game
// makes an engine run, and the next slowdown loses a game on time.
const nearMargin = 0.5

// warnLate warns, once a game per side, of a move that ran later than allowed by more than
// half the side's margin, before a later one loses on time, with the margin to give instead:
// the console shows it once a run per engine (results.WarningNearMargin), the records each
// time. docs/check.md tells of an engine that lost games so.
func (g *Game) warnLate(side int, used, allowed time.Duration) {
	margin := g.clock.Margin(side)
	late := used - allowed
	if g.late[side] || margin <= 0 || late <= time.Duration(float64(margin)*nearMargin) {
		return
	}
	g.late[side] = true
	g.rec.Warnings = append(g.rec.Warnings, driver.Warning{Side: rules.Color(side).String(), Engine: g.sides[side].Name, Kind: results.WarningNearMargin,
		Text: fmt.Sprintf("%s ran %.3f s over its %.3f s at move %d, %.0f%% of its %.3f s margin: a little slower and it loses on time; give it margin=%s (twice this overshoot, as a loaded machine or a longer game makes it, and a quarter of a second), or the margin arbiter check measures",
			g.who(side), late.Seconds(), allowed.Seconds(), g.ref.Ply()/2+1, 100*late.Seconds()/margin.Seconds(), margin.Seconds(),
			strconv.FormatFloat(marginToUse(late).Seconds(), 'f', -1, 64))})
}

// marginToUse is the margin that an engine needs which ran this late: twice it, as a loaded
// machine or a longer game makes it, and a quarter of a second that load adds to any search,
// rounded up to tenths of a second; the rule of arbiter check's margin (compliance.MarginFor)
// for an overshoot that did not grow.
func marginToUse(late time.Duration) time.Duration {
	m := 2*late + 250*time.Millisecond
	return (m + 99*time.Millisecond).Truncate(100 * time.Millisecond)
}

// who names a side for a person: "White (name)".
func (g *Game) who(side int) string {
	return fmt.Sprintf("%s (%s)", rules.Color(side).String(), g.sides[side].Name)
}

// timeDetail says how a side lost on time: what it used of what it was allowed (its budget,
// or on a clock what the clock had left).
func (g *Game) timeDetail(side int, used time.Duration, limit driver.SearchLimit) string {
	allowed := limit.Time
	if limit.Clock != nil && g.sides[side].Time.IsClock() {
		allowed = limit.Clock.Remaining[side]
	}
	return fmt.Sprintf("%s loses on time: used %.3f s of %.3f s allowed (%d ms over)",
		g.who(side), used.Seconds(), allowed.Seconds(), (used - allowed).Milliseconds())
}

// checkGameString compares the GameString a player reported with the referee's game and ends
// the game when they disagree; a player that does not report its state is not checked. It
// returns true when the game ended.
func (g *Game) checkGameString(side int, gs string) bool {
	// The record says it from the start; Info may build its answer anew on every call.
	notChecked := g.rec.White.NotCrossChecked
	if side == 1 {
		notChecked = g.rec.Black.NotCrossChecked
	}
	if notChecked {
		return false
	}
	adj := g.cfg.Adjudication
	drawn := adj.Repetitions > 0 && g.ref.Repetitions() >= adj.Repetitions || adj.MaxPlies > 0 && g.ref.Ply() >= adj.MaxPlies
	d := g.mirrors[side].verify(gs, g.ref, drawn)
	switch {
	case d == nil:
		return false
	case d.warning:
		g.warn(side, fmt.Sprintf("%s: %s", g.who(side), d.detail))
		return false
	}
	g.fault(side, d.reason, fmt.Sprintf("%s: %s", g.who(side), d.detail))
	return true
}
