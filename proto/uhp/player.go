package uhp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/lines"
	"hivearbiter/results/outcome"
	"hivearbiter/uhpclient"
)

// Name is the protocol's name in engine settings (proto=uhp).
const Name = "uhp"

// SettingFractional is the setting that says the engine reads fractions of a second.
const SettingFractional = "fractional"

func init() { driver.Register(Name, Protocol{}) }

// Protocol starts UHP engine processes.
type Protocol struct{}

var _ driver.SettingLister = Protocol{}

// Settings implements driver.SettingLister: fractional= and interrupt=, each true, false or
// auto (found out before the first game).
func (Protocol) Settings() []driver.Setting {
	values := []string{"true", "false", "auto"}
	return []driver.Setting{{Name: SettingFractional, Values: values}, {Name: SettingInterrupt, Values: values}}
}

// Validate implements driver.Protocol.
func (Protocol) Validate(e driver.EngineConfig) error {
	if len(e.Command) == 0 || e.Command[0] == "" {
		return &driver.ConfigError{Msg: "a UHP engine is a program: give cmd=PROGRAM (addr= is for other protocols)"}
	}
	if e.Addr != "" {
		return &driver.ConfigError{Msg: "a UHP engine is started as a program: addr= is not a UHP setting"}
	}
	if _, _, err := settings(e); err != nil {
		return err
	}
	if e.Time.Nodes > 0 {
		return &driver.ConfigError{Msg: "UHP has no node limit: give st=SECONDS, depth=N or tc=BASE+INC"}
	}
	// A budget that is not whole seconds is no reason to refuse an engine that reads whole
	// seconds: it is sent rounded down (uhpclient.BestMoveArgs), and a run whose clock gives it
	// budgets under one second is told so before its first game (driver.TimingAdvisor).
	return nil
}

// Start implements driver.Protocol: it runs the engine as a subprocess and sets its options.
// With a transcript directory, the process's conversation (lines in and out, with timestamps)
// goes to its own file there, so that a user can see what an engine said before it was
// forfeited.
func (Protocol) Start(ctx context.Context, e driver.EngineConfig, env driver.StartEnv) (driver.Player, error) {
	if _, _, err := settings(e); err != nil {
		return nil, err
	}
	cfg := uhpclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Name: e.Name, GraceTimeout: env.Grace}
	if deadline, ok := ctx.Deadline(); ok {
		cfg.StartTimeout = time.Until(deadline)
	}
	transcript, err := env.CreateTranscript(e.Name)
	if err != nil {
		return nil, err
	}
	cfg.Transcript = transcript.Writer()
	start := func(ctx context.Context) (*uhpclient.Engine, error) {
		eng, err := uhpclient.Start(ctx, cfg)
		if err != nil {
			return nil, startError(e, err)
		}
		for _, o := range e.Options {
			if _, err := eng.SetOption(ctx, o.Name, o.Value); err != nil {
				eng.Close(ctx)
				return nil, fmt.Errorf("uhp: setting option %s=%s: %w", o.Name, o.Value, err)
			}
		}
		return eng, nil
	}
	eng, err := start(ctx)
	if err != nil {
		transcript.Close()
		return nil, err
	}
	facts, eng, err := timeFactsOf(ctx, e, env.Memo, eng, start)
	if err != nil {
		eng.Close(ctx)
		transcript.Close()
		return nil, err
	}
	return &Player{engine: eng, facts: facts, transcript: transcript}, nil
}

// startError adds to an engine's start-up failure the setting that helps, in the arbiter's
// words: the program (cmd=, dir=), or the start-up time (start_timeout).
func startError(e driver.EngineConfig, err error) error {
	var (
		program *uhpclient.ProgramError
		timeout *uhpclient.TimeoutError
	)
	switch {
	case errors.As(err, &program):
		return fmt.Errorf("%w: give cmd= the path of the engine's program (a relative path is taken from dir=, or the current directory)", err)
	case errors.As(err, &timeout) && errors.Is(err, context.DeadlineExceeded):
		err = fmt.Errorf("%w; if the engine is only slow to start, give it longer: start_timeout = SECONDS in the config file, -start-timeout SECONDS on the command line", err)
	}
	return diagnose(err, false)
}

// Player is an driver.Player backed by a UHP engine process.
type Player struct {
	engine     *uhpclient.Engine
	facts      timeFacts
	transcript *driver.Transcript

	// warned is set once an overrun budget was warned of, warnedBefore once lines before an
	// answer were; warnings holds what Warnings has not returned yet.
	warned, warnedBefore bool
	warnings             []driver.Warning
}

// Info implements driver.Player: the engine's id line and the expansions it advertises.
func (p *Player) Info() driver.PlayerInfo {
	info := p.engine.Info()
	return driver.PlayerInfo{ID: info.ID, Expansions: info.Expansions(), ExpansionsKnown: true, ReportsState: true}
}

// Capabilities are the expansion names the engine advertised, as it wrote them.
func (p *Player) Capabilities() []string { return p.engine.Info().Capabilities }

// NewGame implements driver.Player.
func (p *Player) NewGame(ctx context.Context, gameString string) (string, error) {
	gs, err := p.engine.NewGame(ctx, gameString)
	return gs, classify(err, false)
}

// Play implements driver.Player.
func (p *Player) Play(ctx context.Context, move string) (string, error) {
	if err := p.StartPlay(ctx, move); err != nil {
		return "", err
	}
	return p.WaitPlay(ctx)
}

var _ driver.PlayStarter = (*Player)(nil)

// StartPlay implements driver.PlayStarter: the command is written, its reply read by
// WaitPlay.
func (p *Player) StartPlay(ctx context.Context, move string) error {
	if move == "pass" {
		return classify(p.engine.StartPass(ctx), false)
	}
	return classify(p.engine.StartPlay(ctx, move), false)
}

// WaitPlay implements driver.PlayStarter.
func (p *Player) WaitPlay(ctx context.Context) (string, error) {
	gs, err := p.engine.WaitPlay(ctx)
	p.warnLinesBefore("its GameString")
	return gs, classify(err, false)
}

// BestMove implements driver.Player. UHP knows no clock: the engine is sent the budget, by
// its time policy (uhpclient.BestMoveArgs).
func (p *Player) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	l := uhpclient.BestMoveArgs{Depth: limit.Depth, FractionalSeconds: p.facts.fractional, Interruptible: p.facts.interruptible}
	if limit.Depth == 0 {
		// A clock spent to nothing within its margin still asks for a move: the least UHP
		// can write, not a bare bestmove, which is no command (Mzinga searches for ever).
		l.Time = max(limit.Time, time.Millisecond)
	}
	if l.Overrun() && !p.warned {
		p.warned = true
		text := fmt.Sprintf("its budget of %.3f s was sent as 1 s (the engine reads whole seconds) and its search stopped with SIGINT at %.3f s",
			l.Time.Seconds(), l.Time.Seconds())
		if !l.Interruptible {
			text = fmt.Sprintf("its budget of %.3f s was sent as 1 s: the engine reads whole seconds and is never interrupted (it dies of SIGINT, or was set interrupt=false); "+
				"it may lose on time: give it a clock whose budgets are a second or more (arbiter check names one)", l.Time.Seconds())
		}
		p.warnings = append(p.warnings, driver.Warning{Text: text})
	}
	move, err := p.engine.BestMove(ctx, l)
	p.warnLinesBefore("its move")
	return move, classify(err, true)
}

// warnLinesBefore warns, once per engine process, of lines the engine printed before its
// answer (what): the arbiter reads past them, other UHP hosts break on them.
func (p *Player) warnLinesBefore(what string) {
	before := p.engine.LinesBeforeReply()
	if len(before) == 0 || p.warnedBefore {
		return
	}
	p.warnedBefore = true
	p.warnings = append(p.warnings, driver.Warning{Text: driver.Diagnosed(driver.DiagnosisLinesBeforeReply,
		fmt.Sprintf("it printed %s before %s", lines.Quote(before), what))})
}

// TimePolicy is how the engine is sent its budgets, as the probe before its first game found
// out or its settings say.
func (p *Player) TimePolicy() TimePolicy { return p.facts.policy() }

var _ driver.TimingAdvisor = (*Player)(nil)

// Timing implements driver.TimingAdvisor: how each fact of the time policy was learned.
func (p *Player) Timing() string { return p.facts.policy().Detail }

// TimeControlProblem implements driver.TimingAdvisor: an engine of whole seconds that cannot be
// interrupted loses on time where its budgets fall under one second (WholeSecondProblem).
func (p *Player) TimeControlProblem(tc driver.TimeControl) string {
	return WholeSecondProblem(tc, p.facts.policy())
}

var _ driver.Warner = (*Player)(nil)

// Warnings implements driver.Warner: a budget rounded up, once per engine process.
func (p *Player) Warnings() []driver.Warning {
	w := p.warnings
	p.warnings = nil
	return w
}

// MarkGame implements driver.Transcribed: a line in the transcript says which game begins.
func (p *Player) MarkGame(m driver.GameMark) string {
	if p.transcript == nil {
		return ""
	}
	p.engine.Note(fmt.Sprintf("game %d begins (run %s, \"game\": %d in its record): %s (White) vs %s (Black) from %q at %s",
		m.Index, m.Run, m.Index, m.White, m.Black, m.Opening, m.Started.Format(time.RFC3339)))
	return p.transcript.Name()
}

// Interrupt implements driver.Interrupter: SIGINT stops the engine's search.
func (p *Player) Interrupt() error { return p.engine.Interrupt() }

// Close implements driver.Player.
func (p *Player) Close(ctx context.Context) error {
	err := p.engine.Close(ctx)
	p.transcript.Close()
	return err
}

// classify turns the client's errors into the reasons the arbiter adjudicates: the engine's
// own refusals here, its exit, timeout or broken conversation by driver.ClassifyError.
func classify(err error, search bool) error {
	if err == nil {
		return nil
	}
	err = diagnose(err, search)
	if errors.As(err, new(*uhpclient.InvalidMoveError)) || errors.As(err, new(*uhpclient.EngineError)) {
		// The engine refused a command the referee holds legal: its game is not the referee's.
		// Refusing to search is a broken conversation instead.
		reason := outcome.ReasonDesync
		if search {
			reason = outcome.ReasonProtocol
		}
		return &driver.PlayerError{Reason: reason, Err: err}
	}
	return driver.ClassifyError(err, search)
}
