package arbiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// Version is the arbiter's version, written into every record.
const Version = "0.1.0"

// Side is one player's part in a game.
type Side struct {
	Name   string // the name the tournament gives the player
	Player Player
	Time   TimeControl
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

// colorName is the name UHP gives a side.
var colorName = [2]string{"White", "Black"}

// PlayGame plays one game between white and black in the three-engine model and returns its
// record. Player failures end the game with a result; the error is non-nil only when the game
// could not be played at all (an invalid opening) or was interrupted through ctx.
func PlayGame(ctx context.Context, cfg GameConfig, white, black Side) (*results.Record, error) {
	ref, err := rules.ParseGameString(cfg.Opening)
	if err != nil {
		return nil, fmt.Errorf("arbiter: opening %d: %w", cfg.OpeningIndex, err)
	}
	g := &game{
		ctx: ctx, cfg: cfg, ref: ref,
		sides: [2]Side{white, black},
		clock: NewClock(white.Time, black.Time, white.Margin, black.Margin),
		rec: &results.Record{
			Schema: results.SchemaVersion, Run: cfg.Run, Game: cfg.Index, Round: cfg.Round, Pair: cfg.Pair,
			White:   results.Player{Name: white.Name, ID: white.Player.ID(), Time: white.Time.String()},
			Black:   results.Player{Name: black.Name, ID: black.Player.ID(), Time: black.Time.String()},
			Opening: cfg.Opening, OpeningIndex: cfg.OpeningIndex, GameType: ref.GameType().String(),
			Moves: []results.Move{}, Started: time.Now().UTC(), Arbiter: Version, Seed: cfg.Seed,
		},
	}
	g.play()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	g.rec.GameString = ref.GameString()
	g.rec.Finished = time.Now().UTC()
	return g.rec, nil
}

// game is the state of one game in progress.
type game struct {
	ctx     context.Context
	cfg     GameConfig
	ref     *rules.Game // the referee's game: the truth
	sides   [2]Side
	clock   *Clock
	mirrors [2]mirror // what each player's GameString has been verified to mean
	rec     *results.Record
}

// play runs the game to its end, filling in the record's result.
func (g *game) play() {
	for side := range g.sides {
		ctx, cancel := context.WithTimeout(g.ctx, g.cfg.CommandTimeout)
		gs, err := g.sides[side].Player.NewGame(ctx, g.cfg.Opening)
		cancel()
		if err != nil {
			g.fault(side, reasonOf(err), fmt.Sprintf("%s failed to start the game: %v", g.who(side), err))
			return
		}
		if g.checkGameString(side, gs) {
			return
		}
	}
	if g.adjudicated() {
		return
	}
	for !g.ref.State().IsOver() {
		if g.ctx.Err() != nil {
			return
		}
		if !g.ply() || g.adjudicated() {
			return
		}
	}
}

// ply asks the side to move for a move, referees it and mirrors it to both players.
// It returns false when the game ended.
func (g *game) ply() bool {
	side := int(g.ref.ToMove())
	budget := g.clock.Budget(side)
	limit := Limit{Time: budget, Depth: g.sides[side].Time.Depth}
	ctx, cancel := context.WithTimeout(g.ctx, g.clock.Deadline(side, g.cfg.DepthTimeout))
	start := time.Now()
	answer, err := g.sides[side].Player.BestMove(ctx, limit)
	used := time.Since(start)
	cancel()
	if g.ctx.Err() != nil {
		return false
	}
	allowed, lost := g.clock.Charge(side, used)
	if err != nil {
		switch reason := reasonOf(err); reason {
		case results.ReasonStall, results.ReasonTimeForfeit:
			if limit.Depth > 0 {
				g.fault(side, results.ReasonStall, fmt.Sprintf("%s did not finish its depth %d search within %s: %v", g.who(side), limit.Depth, g.cfg.DepthTimeout, err))
			} else {
				g.fault(side, results.ReasonTimeForfeit, g.timeDetail(side, used, allowed))
			}
		default:
			g.fault(side, reason, fmt.Sprintf("%s failed on bestmove: %v", g.who(side), err))
		}
		return false
	}
	if lost {
		g.fault(side, results.ReasonTimeForfeit, g.timeDetail(side, used, allowed))
		return false
	}
	move, ok := g.referee(side, answer)
	if !ok {
		return false
	}
	rm := results.Move{Move: move, Millis: used.Milliseconds()}
	if g.sides[side].Time.IsClock() {
		left := g.clock.Remaining(side).Milliseconds()
		rm.ClockMillis = &left
	}
	g.rec.Moves = append(g.rec.Moves, rm)
	for s := range g.sides {
		ctx, cancel := context.WithTimeout(g.ctx, g.cfg.CommandTimeout)
		gs, err := g.sides[s].Player.Play(ctx, move)
		cancel()
		if g.ctx.Err() != nil {
			return false
		}
		if err != nil {
			reason := reasonOf(err)
			detail := fmt.Sprintf("%s failed to play %q: %v", g.who(s), move, err)
			if reason == results.ReasonDesync {
				detail = fmt.Sprintf("%s rejected the legal move %q: %v", g.who(s), move, err)
			}
			g.fault(s, reason, detail)
			return false
		}
		if g.checkGameString(s, gs) {
			return false
		}
	}
	return true
}

// referee checks the mover's answer and plays it on the referee's board. It returns the move in
// Mzinga's notation, which is what both players are sent, or false when the answer forfeits.
func (g *game) referee(side int, answer string) (string, bool) {
	if strings.EqualFold(strings.TrimSpace(answer), "pass") {
		if err := g.ref.Pass(); err != nil {
			n := len(g.ref.ValidMoves())
			g.fault(side, results.ReasonIllegalPass, fmt.Sprintf("%s passed although it had %d legal moves", g.who(side), n))
			return "", false
		}
		return "pass", true
	}
	m, err := g.ref.ParseMove(answer)
	if err != nil {
		var ime *rules.InvalidMoveError
		if errors.As(err, &ime) {
			g.fault(side, results.ReasonIllegalMove, fmt.Sprintf("%s played the illegal move %q: %s", g.who(side), answer, ime.Reason))
		} else {
			g.fault(side, results.ReasonIllegalMove, fmt.Sprintf("%s played the unreadable move %q", g.who(side), answer))
		}
		return "", false
	}
	canonical := g.ref.MoveString(m)
	if err := g.ref.PlayMove(m); err != nil {
		// ParseMove accepted the move, so the referee contradicts itself: not the engine's fault.
		panic(fmt.Sprintf("arbiter: referee rejects the move it accepted: %q in %s: %v", answer, g.ref.GameString(), err))
	}
	return canonical, true
}

// adjudicated ends the game if the rules or the arbiter's adjudication say it is over.
func (g *game) adjudicated() bool {
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

// fault ends the game as a loss for the side that misbehaved.
func (g *game) fault(side int, reason results.Reason, detail string) {
	result := results.WhiteWins
	if side == 0 {
		result = results.BlackWins
	}
	g.end(result, reason, side, detail)
}

func (g *game) end(result string, reason results.Reason, culprit int, detail string) {
	g.rec.Result, g.rec.Reason, g.rec.Detail = result, reason, detail
	if culprit >= 0 {
		g.rec.Culprit = colorName[culprit]
	}
}

// who names a side for a person: "White (name)".
func (g *game) who(side int) string {
	return fmt.Sprintf("%s (%s)", colorName[side], g.sides[side].Name)
}

func (g *game) timeDetail(side int, used, allowed time.Duration) string {
	return fmt.Sprintf("%s loses on time: used %.3f s of %.3f s allowed (%d ms over)",
		g.who(side), used.Seconds(), allowed.Seconds(), (used - allowed).Milliseconds())
}

// checkGameString compares the GameString a player reported with the referee's game and ends
// the game when they disagree. It returns true when the game ended.
func (g *game) checkGameString(side int, gs string) bool {
	d := g.mirrors[side].verify(gs, g.ref)
	switch {
	case d == nil:
		return false
	case d.warning:
		g.rec.Warnings = append(g.rec.Warnings, fmt.Sprintf("%s: %s", g.who(side), d.detail))
		return false
	}
	g.fault(side, d.reason, fmt.Sprintf("%s: %s", g.who(side), d.detail))
	return true
}
