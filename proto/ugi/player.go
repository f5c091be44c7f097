package ugi

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/results/outcome"
	"hivearbiter/ugiclient"
)

// Name is the protocol's name in engine settings (proto=ugi).
const Name = "ugi"

func init() { driver.Register(Name, Protocol{}) }

// Protocol starts UGI engines.
type Protocol struct{}

// Validate implements driver.Protocol. A UGI engine is a program (cmd=) or, less often, a
// listener (addr=); it has no settings of its own, and plays under any time control.
func (Protocol) Validate(e driver.EngineConfig) error {
	if err := e.ProgramOrAddress("a UGI engine"); err != nil {
		return err
	}
	return nil
}

// Start implements driver.Protocol: it starts the engine, completes the handshake, sets its
// options and waits for "readyok".
func (Protocol) Start(ctx context.Context, e driver.EngineConfig, env driver.StartEnv) (driver.Player, error) {
	cfg := ugiclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Addr: e.Addr, Name: e.Name, Grace: env.Grace}
	transcript, err := env.CreateTranscript(e.Name)
	if err != nil {
		return nil, err
	}
	cfg.Transcript = transcript.Writer()
	eng, err := ugiclient.Start(ctx, cfg)
	if err != nil {
		transcript.Close()
		return nil, fmt.Errorf("ugi: %s: handshake: %w", e.Name, err)
	}
	var setup []string
	for _, o := range e.Options {
		setup = append(setup, fmt.Sprintf("setoption name %s value %s", o.Name, o.Value))
	}
	if err := eng.Sync(ctx, setup...); err != nil {
		eng.Kill()
		transcript.Close()
		return nil, fmt.Errorf("ugi: %s: setting options: %w", e.Name, err)
	}
	return &Player{engine: eng, name: e.Name, transcript: transcript}, nil
}

// Player is an driver.Player backed by a UGI engine. UGI engines hold no game between
// commands that the arbiter could check: the whole game is sent with every go, and the
// engine's view of the result is asked for at the end (driver.Finisher).
type Player struct {
	engine     *ugiclient.Engine
	name       string
	transcript *driver.Transcript
	pos        ugiclient.Position
	info       *outcome.SearchInfo
}

var (
	_ driver.Interrupter    = (*Player)(nil)
	_ driver.SearchReporter = (*Player)(nil)
	_ driver.Finisher       = (*Player)(nil)
)

// Engine returns the UGI conversation behind the player.
func (p *Player) Engine() *ugiclient.Engine { return p.engine }

// Info implements driver.Player. UGI has no capability list, so the expansions an engine
// plays are unknown until it refuses a game; it does not report its state.
func (p *Player) Info() driver.PlayerInfo {
	id := p.engine.Hello().Name
	if id == "" {
		id = p.name
	}
	return driver.PlayerInfo{ID: id}
}

// NewGame implements driver.Player: "uginewgame", the position, and "isready". An engine
// that answers the position with "info error" does not play the game (the expansions, or a
// position it cannot load): that fails the game with a protocol violation that says so.
func (p *Player) NewGame(ctx context.Context, gameString string) (string, error) {
	pos, err := ugiclient.NewPosition(gameString)
	if err != nil {
		return "", fmt.Errorf("ugi: %w", err)
	}
	p.pos, p.info = pos, nil
	err = p.engine.Sync(ctx, "uginewgame", pos.Command())
	var refused *ugiclient.RefusedError
	if errors.As(err, &refused) {
		return "", &driver.PlayerError{Reason: outcome.ReasonProtocol,
			Err: fmt.Errorf("ugi: %s does not play this game (%s): %w", p.name, pos.GameType, err)}
	}
	return "", p.classify(err, false)
}

// Play implements driver.Player. Nothing is sent: the engine gets the whole game with its
// next go.
func (p *Player) Play(_ context.Context, move string) (string, error) {
	p.pos.Moves = append(p.pos.Moves, move)
	return "", nil
}

// BestMove implements driver.Player: the position, then go under the limit (see GoCommand).
// An "info error" during the search means the engine refused the position, a legal game by
// the referee's rules: a desync.
func (p *Player) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	p.info = nil
	if err := p.engine.Send(ctx, p.pos.Command()); err != nil {
		return "", p.classify(err, true)
	}
	s, err := p.engine.Go(ctx, GoCommand(limit))
	if in := s.Info; in.Depth > 0 || in.Score != nil || in.Mate != nil || in.Nodes > 0 || in.Millis > 0 || in.PV != nil {
		info := s.Info
		p.info = &info
	}
	if s.Error != nil && err == nil {
		return "", &driver.PlayerError{Reason: outcome.ReasonDesync,
			Err: fmt.Errorf("ugi: %s refused the game %q: info error %s", p.name, p.pos.Command(), s.Error.Message)}
	}
	if err != nil {
		return "", p.classify(err, true)
	}
	move, err := ugiclient.DecodeMove(s.Move)
	if err != nil {
		return "", &driver.PlayerError{Reason: outcome.ReasonIllegalMove, Err: fmt.Errorf("ugi: %s: bestmove %s: %w", p.name, s.Move, err)}
	}
	return move, nil
}

// GoCommand is the go command for a limit: "go depth N", "go nodes N", "go p1time T p2time T
// p1inc I p2inc I" for a side on a game clock (whole milliseconds, times at least 1; an
// opponent without a clock is given the mover's time), or "go movetime MS".
func GoCommand(l driver.SearchLimit) string {
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("go depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("go nodes %d", l.Nodes)
	case l.Clock != nil && l.Clock.Remaining[l.Clock.Plies%2] > 0:
		c := l.Clock
		mover := c.Plies % 2
		t := [2]int64{ms(c.Remaining[0]), ms(c.Remaining[1])}
		if c.Remaining[1-mover] <= 0 {
			t[1-mover] = t[mover]
		}
		return fmt.Sprintf("go p1time %d p2time %d p1inc %d p2inc %d",
			max(t[0], 1), max(t[1], 1), ms(c.Increment[0]), ms(c.Increment[1]))
	}
	return fmt.Sprintf("go movetime %d", max(ms(l.Time), 1))
}

// TakeSearchInfo implements driver.SearchReporter.
func (p *Player) TakeSearchInfo() *outcome.SearchInfo {
	info := p.info
	p.info = nil
	return info
}

// Interrupt implements driver.Interrupter: "stop" ends the running search, whose bestmove
// is then the answer.
func (p *Player) Interrupt() error { return p.engine.Stop() }

// GameOver implements driver.Finisher: the engine is sent the final position and asked
// "query gameover" and "query result".
func (p *Player) GameOver(ctx context.Context, _ string) (string, error) {
	if err := p.engine.Send(ctx, p.pos.Command()); err != nil {
		return "", err
	}
	over, err := p.engine.Query(ctx, "gameover")
	if err != nil {
		return "", err
	}
	result, err := p.engine.Query(ctx, "result")
	if err != nil {
		return "", err
	}
	st, err := ugiclient.StateOfResult(over, result)
	if err != nil {
		return fmt.Sprintf("gameover %s and result %s", over, result), nil
	}
	return st.String(), nil
}

// Close implements driver.Player: "quit", then a kill after the grace period.
func (p *Player) Close(ctx context.Context) error {
	err := p.engine.Close(ctx)
	p.transcript.Close()
	return err
}

// classify turns the transport's and the client's errors into the reasons the arbiter
// adjudicates. Any failure ends the conversation: the engine is killed, and the tournament
// starts a new one for its next game.
func (p *Player) classify(err error, search bool) error {
	if err == nil {
		return nil
	}
	p.engine.Kill()
	return driver.ClassifyError(err, search)
}
