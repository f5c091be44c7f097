package hiveapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/nodeipc"
	"hivearbiter/results/outcome"
	"hivearbiter/rules"
)

// Name is the protocol's name in engine settings (proto=hiveapi).
const Name = "hiveapi"

// SettingTransport is the setting that says how a started module is talked to:
// transport=stdio or transport=ipc (TCP is chosen by addr=).
const SettingTransport = "transport"

func init() { driver.Register(Name, Protocol{}) }

var _ driver.SettingLister = Protocol{}

// Settings implements driver.SettingLister: transport=stdio or ipc.
func (Protocol) Settings() []driver.Setting {
	return []driver.Setting{{Name: SettingTransport, Values: []string{"stdio", "ipc"}}}
}

// Protocol starts Hive API modules.
type Protocol struct{}

// Validate implements driver.Protocol.
func (Protocol) Validate(e driver.EngineConfig) error {
	_, err := transportOf(e)
	return err
}

// transportOf validates an engine's settings and says which transport they choose.
func transportOf(e driver.EngineConfig) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", &driver.ConfigError{Msg: fmt.Sprintf(format, args...)}
	}
	if len(e.Options) > 0 {
		return bad("the Hive API has no engine options: option.%s= is not a Hive API setting", e.Options[0].Name)
	}
	if e.Time.Depth > 0 || e.Time.Nodes > 0 {
		return bad("the Hive API has no depth or node limit, only a response deadline: give st=SECONDS or tc=BASE+INC")
	}
	hasCmd := len(e.Command) > 0 && e.Command[0] != ""
	transport := e.Setting(SettingTransport)
	switch {
	case e.Addr != "":
		if transport != "" && transport != TransportTCP {
			return bad("addr=%s reaches a module over TCP: transport=%s does not go with it", e.Addr, transport)
		}
		if _, _, err := net.SplitHostPort(e.Addr); err != nil {
			return bad("addr=%s: want HOST:PORT", e.Addr)
		}
		return TransportTCP, nil
	case transport == TransportStdio || transport == TransportIPC:
		if !hasCmd {
			return bad("transport=%s talks to a module the arbiter starts: give cmd=PROGRAM", transport)
		}
		if transport == TransportIPC && nodeipc.Available() != nil {
			return bad("transport=ipc is Node's fork channel, a Unix socket pair, which the arbiter cannot make on %s: "+
				"use transport=stdio (one JSON object per line) or addr=HOST:PORT (TCP)", runtime.GOOS)
		}
		return transport, nil
	case transport == TransportTCP:
		return bad("transport=tcp needs addr=HOST:PORT (with cmd= too, the arbiter starts the server)")
	case transport != "":
		return bad("transport=%s: want stdio or ipc (or addr=HOST:PORT for TCP)", transport)
	case hasCmd:
		return bad("a Hive API module needs a transport: transport=stdio (one JSON object per line), transport=ipc (Node's fork channel) or addr=HOST:PORT (TCP)")
	}
	return bad("a Hive API module is a program (cmd=PROGRAM transport=stdio|ipc) or a TCP server (addr=HOST:PORT)")
}

// Start implements driver.Protocol: it starts or reaches the module and greets it.
func (Protocol) Start(ctx context.Context, e driver.EngineConfig, env driver.StartEnv) (driver.Player, error) {
	transport, err := transportOf(e)
	if err != nil {
		return nil, err
	}
	name := e.Name
	if name == "" && len(e.Command) > 0 {
		name = filepath.Base(e.Command[0])
	}
	if name == "" {
		name = e.Addr
	}
	p := &Player{cfg: moduleConfig{Name: name, Command: e.Command, Dir: e.Dir, Env: e.Env, Addr: e.Addr,
		Transport: transport, Grace: env.Grace}}
	if p.cfg.Grace <= 0 {
		p.cfg.Grace = time.Second
	}
	transcript, err := env.CreateTranscript(name)
	if err != nil {
		return nil, err
	}
	p.transcript, p.cfg.Transcript = transcript, transcript.Writer()
	if err := p.restart(ctx); err != nil {
		p.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return p, nil
}

// Player is an driver.Player backed by a Hive API module. It keeps its own copy of the game,
// told every move through Play, to write the game state of each request.
type Player struct {
	cfg        moduleConfig
	mod        *module
	id         string
	game       *Game
	games      int
	transcript *driver.Transcript
}

// restart (re)starts the module and greets it: after a timeout, a module on a pipe or a
// channel is out of step, and a broken TCP connection is made again.
func (p *Player) restart(ctx context.Context) error {
	if p.mod != nil {
		p.mod.close(ctx)
		p.mod = nil
	}
	mod, err := startModule(ctx, p.cfg)
	if err != nil {
		return err
	}
	resp, raw, err := mod.request(ctx, Greetings, func(id string) any {
		return GreetingsRequest{RequestType: Greetings, RequestID: id, SystemVersion: SystemVersion}
	})
	if err != nil {
		mod.close(ctx)
		return err // it names the module and the Greetings it did not answer
	}
	if resp.Active != nil && !*resp.Active {
		mod.close(ctx)
		return &driver.PlayerError{Reason: outcome.ReasonProtocol,
			Err: fmt.Errorf("hiveapi: %s says it is not active (active:false in its Greetings): its owner does not consider it usable; the reply was %s", p.cfg.Name, quote(raw))}
	}
	id := strings.TrimSpace(strings.Join([]string{firstOf(resp.Name, resp.LongName), resp.Version}, " "))
	if resp.Author != "" {
		id += " by " + resp.Author
	}
	if id == "" {
		id = p.cfg.Name
	}
	// The record says what kind of player this is: the API echoes no state, so nothing the
	// module holds was cross-checked against the referee.
	id += fmt.Sprintf(" (Hive API %s over %s; not cross-checked)", SystemVersion, p.cfg.Transport)
	p.mod, p.id = mod, id
	return nil
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Info implements driver.Player. A module is told the expansions of every game, so it plays
// them all as far as the arbiter knows; it reports no state, so it is not cross-checked.
func (p *Player) Info() driver.PlayerInfo {
	return driver.PlayerInfo{ID: p.id, Expansions: rules.BaseMLP, ExpansionsKnown: true, ReportsState: false}
}

// NewGame implements driver.Player. The module hears of the game with its first request.
func (p *Player) NewGame(ctx context.Context, gameString string) (string, error) {
	g, err := LoadGame(gameString)
	if err != nil {
		return "", err
	}
	p.game = g
	p.games++
	if p.mod == nil || p.mod.broken != nil {
		if err := p.restart(ctx); err != nil {
			return "", err
		}
	}
	return "", nil
}

// Play implements driver.Player: the move goes on the player's copy of the game.
func (p *Player) Play(ctx context.Context, move string) (string, error) {
	if p.game == nil {
		return "", errors.New("hiveapi: Play before NewGame")
	}
	return "", p.game.Play(move)
}

// BestMove implements driver.Player: the module is sent the game state with a deadline, and
// its turn is turned into the referee's MoveString. A turn that was not offered loses.
func (p *Player) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	if p.game == nil {
		return "", errors.New("hiveapi: BestMove before NewGame")
	}
	if p.mod == nil || p.mod.broken != nil {
		if err := p.restart(ctx); err != nil {
			return "", err
		}
	}
	now := time.Now()
	deadline := now.Add(allowed(ctx, limit, now))
	state := p.game.State()
	resp, raw, err := p.mod.request(ctx, ChooseTurn, func(id string) any {
		return ChooseTurnRequest{RequestType: ChooseTurn, RequestID: id, GameID: fmt.Sprintf("game-%d", p.games),
			RequestTimestamp: now.UnixMilli(), ResponseDeadline: deadline.UnixMilli(), GameState: state}
	})
	if err != nil {
		return "", err
	}
	if resp.TurnType == Forfeit {
		// The API's Forfeit is a pass: the referee judges it, and names a pass that was not
		// forced as such.
		return "pass", nil
	}
	move, err := p.game.MoveString(resp.Turn)
	var te *TurnError
	if errors.As(err, &te) {
		return "", &driver.PlayerError{Reason: outcome.ReasonIllegalMove,
			Err: fmt.Errorf("hiveapi: %s chose a turn it was not offered, %s: %s", p.cfg.Name, quote(raw), te.Why)}
	}
	return move, err
}

// allowed is how long the module has before it loses: the time left on its clock, or its
// time per move; without either, until the arbiter's watchdog.
func allowed(ctx context.Context, limit driver.SearchLimit, now time.Time) time.Duration {
	d := limit.Time
	if c := limit.Clock; c != nil && c.Remaining[c.Plies%2] > d {
		d = c.Remaining[c.Plies%2]
	}
	if deadline, ok := ctx.Deadline(); ok && d == 0 {
		d = deadline.Sub(now)
	}
	return d
}

// Close implements driver.Player.
func (p *Player) Close(ctx context.Context) error {
	var err error
	if p.mod != nil {
		err = p.mod.close(ctx)
		p.mod = nil
	}
	p.transcript.Close()
	p.transcript = nil
	return err
}
