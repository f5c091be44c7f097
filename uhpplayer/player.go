package uhpplayer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/results"
	"hivearbiter/uhpclient"
)

// Name is the protocol's name in engine settings (proto=uhp).
const Name = "uhp"

// SettingFractional is the setting that says the engine reads fractions of a second.
const SettingFractional = "fractional"

func init() { arbiter.RegisterProtocol(Name, Protocol{}) }

// Protocol starts UHP engine processes.
type Protocol struct{}

// Check implements arbiter.Protocol.
func (Protocol) Check(e arbiter.EngineConfig) error {
	if len(e.Command) == 0 || e.Command[0] == "" {
		return &arbiter.ConfigError{Msg: "a UHP engine is a program: give cmd=PROGRAM (addr= is for other protocols)"}
	}
	if e.Addr != "" {
		return &arbiter.ConfigError{Msg: "a UHP engine is started as a program: addr= is not a UHP setting"}
	}
	if unknown := e.UnknownSettings(SettingFractional); len(unknown) > 0 {
		return &arbiter.ConfigError{Msg: fmt.Sprintf("unknown UHP setting %s (known: %s)", strings.Join(unknown, ", "), SettingFractional)}
	}
	fractional, err := fractionalOf(e)
	if err != nil {
		return err
	}
	if e.Time.Nodes > 0 {
		return &arbiter.ConfigError{Msg: "UHP has no node limit: give st=SECONDS, depth=N or tc=BASE+INC"}
	}
	if e.Time.MoveTime > 0 && e.Time.MoveTime < time.Second && !fractional {
		// The engine would be sent "bestmove time 00:00:01" and lose on time for using it.
		return &arbiter.ConfigError{Msg: fmt.Sprintf("%s is under a second, but UHP's bestmove time counts whole seconds: give fractional=true if the engine reads fractions (as Mzinga and hivebot do), or st=1 or more", e.Time)}
	}
	return nil
}

func fractionalOf(e arbiter.EngineConfig) (bool, error) {
	v := e.Setting(SettingFractional)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, &arbiter.ConfigError{Msg: fmt.Sprintf("fractional=%s: want true or false", v)}
	}
	return b, nil
}

// transcriptSeq numbers transcript files within a process.
var transcriptSeq atomic.Int64

// Start implements arbiter.Protocol: it runs the engine as a subprocess and sets its options.
// With a transcript directory, the process's conversation (lines in and out, with timestamps)
// goes to its own file there, so that a user can see what an engine said before it was
// forfeited.
func (Protocol) Start(ctx context.Context, e arbiter.EngineConfig, env arbiter.StartEnv) (arbiter.Player, error) {
	fractional, err := fractionalOf(e)
	if err != nil {
		return nil, err
	}
	cfg := uhpclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Name: e.Name, GraceTimeout: env.Grace}
	if deadline, ok := ctx.Deadline(); ok {
		cfg.StartTimeout = time.Until(deadline)
	}
	var transcript *os.File
	if env.TranscriptDir != "" {
		if err := os.MkdirAll(env.TranscriptDir, 0o755); err != nil {
			return nil, fmt.Errorf("uhpplayer: transcripts: %w", err)
		}
		name := fmt.Sprintf("%s-w%d-%03d.log", safeFileName(e.Name), env.Worker, transcriptSeq.Add(1))
		f, err := os.Create(filepath.Join(env.TranscriptDir, name))
		if err != nil {
			return nil, fmt.Errorf("uhpplayer: transcripts: %w", err)
		}
		transcript = f
		cfg.Transcript = f
	}
	eng, err := uhpclient.Start(ctx, cfg)
	if err != nil {
		if transcript != nil {
			transcript.Close()
		}
		return nil, err
	}
	p := &Player{engine: eng, fractional: fractional, transcript: transcript}
	for _, o := range e.Options {
		if _, err := eng.SetOption(ctx, o.Name, o.Value); err != nil {
			p.Close(ctx)
			return nil, fmt.Errorf("uhpplayer: setting option %s=%s: %w", o.Name, o.Value, err)
		}
	}
	return p, nil
}

func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

// Player is an arbiter.Player backed by a UHP engine process.
type Player struct {
	engine     *uhpclient.Engine
	fractional bool
	transcript *os.File
}

// Info implements arbiter.Player: the engine's id line and the expansions it advertises.
func (p *Player) Info() arbiter.PlayerInfo {
	info := p.engine.Info()
	return arbiter.PlayerInfo{ID: info.ID, Expansions: info.Expansions(), ExpansionsKnown: true, ReportsState: true}
}

// Capabilities are the expansion names the engine advertised, as it wrote them.
func (p *Player) Capabilities() []string { return p.engine.Info().Capabilities }

// NewGame implements arbiter.Player.
func (p *Player) NewGame(ctx context.Context, gameString string) (string, error) {
	gs, err := p.engine.NewGame(ctx, gameString)
	return gs, classify(err, false)
}

// Play implements arbiter.Player.
func (p *Player) Play(ctx context.Context, move string) (string, error) {
	var gs string
	var err error
	if move == "pass" {
		gs, err = p.engine.Pass(ctx)
	} else {
		gs, err = p.engine.Play(ctx, move)
	}
	return gs, classify(err, false)
}

// BestMove implements arbiter.Player. UHP knows no clock: the engine is sent the budget.
func (p *Player) BestMove(ctx context.Context, limit arbiter.Limit) (string, error) {
	// The client rounds to whole seconds (at least one) for engines without fractions.
	l := uhpclient.Limit{Depth: limit.Depth, FractionalSeconds: p.fractional}
	if limit.Depth == 0 {
		l.Time = limit.Time
	}
	move, err := p.engine.BestMove(ctx, l)
	return move, classify(err, true)
}

// Interrupt implements arbiter.Interrupter: SIGINT stops the engine's search.
func (p *Player) Interrupt() error { return p.engine.Interrupt() }

// Close implements arbiter.Player.
func (p *Player) Close(ctx context.Context) error {
	err := p.engine.Close(ctx)
	if p.transcript != nil {
		p.transcript.Close()
	}
	return err
}

// classify turns the client's errors into the reasons the arbiter adjudicates.
func classify(err error, search bool) error {
	if err == nil {
		return nil
	}
	var (
		exit    *uhpclient.ExitError
		timeout *uhpclient.TimeoutError
		proto   *uhpclient.ProtocolError
		invalid *uhpclient.InvalidMoveError
		engErr  *uhpclient.EngineError
	)
	reason := results.ReasonProtocol
	switch {
	case errors.As(err, &exit):
		reason = results.ReasonCrash
	case errors.As(err, &timeout):
		reason = results.ReasonStall
		if search {
			reason = results.ReasonTimeForfeit
		}
	case errors.As(err, &proto):
		reason = results.ReasonProtocol
	case errors.As(err, &invalid), errors.As(err, &engErr):
		// The engine refused a command the referee holds legal: its game is not the referee's.
		// Refusing to search is a broken conversation instead.
		reason = results.ReasonDesync
		if search {
			reason = results.ReasonProtocol
		}
	case errors.Is(err, context.DeadlineExceeded):
		reason = results.ReasonStall
	}
	return &arbiter.PlayerError{Reason: reason, Err: err}
}
