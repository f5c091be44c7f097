package gamestring

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/linepeer"
	"hivearbiter/results/outcome"
	"hivearbiter/rules"
)

// Name is the protocol's name in engine settings (proto=gamestring).
const Name = "gamestring"

func init() { driver.Register(Name, Protocol{}) }

// Protocol starts one-engine players.
type Protocol struct{}

// Validate implements driver.Protocol: a program or a listener, no settings of its own, and a
// time control the player need not be told (st= or tc=).
func (Protocol) Validate(e driver.EngineConfig) error {
	if err := e.ProgramOrAddress("a one-engine player"); err != nil {
		return err
	}
	if _, err := validMovesOf(e); err != nil {
		return err
	}
	if len(e.Options) > 0 {
		return &driver.ConfigError{Msg: "a one-engine player has no options to set"}
	}
	if e.Time.Depth > 0 || e.Time.Nodes > 0 {
		return &driver.ConfigError{Msg: "a one-engine player is told no depth or node limit: give st=SECONDS or tc=BASE+INC"}
	}
	return nil
}

// SettingValidMoves is the setting (validmoves=true) that sends the player the legal moves
// before each GameString that asks it to move.
const SettingValidMoves = "validmoves"

func validMovesOf(e driver.EngineConfig) (bool, error) { return e.BoolSetting(SettingValidMoves) }

var _ driver.SettingLister = Protocol{}

// Settings implements driver.SettingLister: validmoves=true or false.
func (Protocol) Settings() []driver.Setting {
	return []driver.Setting{{Name: SettingValidMoves, Values: []string{"true", "false"}}}
}

// Start implements driver.Protocol: it starts the program or connects to the listener, and
// waits for the player's greeting within ctx.
func (Protocol) Start(ctx context.Context, e driver.EngineConfig, env driver.StartEnv) (driver.Player, error) {
	validMoves, err := validMovesOf(e)
	if err != nil {
		return nil, err
	}
	cfg := linepeer.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Addr: e.Addr, Name: e.Name, Grace: env.Grace}
	transcript, err := env.CreateTranscript(e.Name)
	if err != nil {
		return nil, err
	}
	cfg.Transcript = transcript.Writer()
	peer, err := linepeer.Start(ctx, cfg)
	if err != nil {
		transcript.Close()
		return nil, err
	}
	// The player speaks first: its greeting says it is ready, so that its start-up (an
	// interpreter's, say) is not charged to its first move.
	var hello string
	for strings.TrimSpace(hello) == "" {
		if hello, err = peer.Next(ctx, "a greeting (a one-engine player prints its name first)"); err != nil {
			peer.Kill()
			transcript.Close()
			return nil, fmt.Errorf("gamestring: %w", err)
		}
	}
	hello = strings.TrimSpace(hello)
	if len(hello) > 100 {
		hello = hello[:100]
	}
	return &Player{peer: peer, name: e.Name, id: hello, transcript: transcript, validMoves: validMoves}, nil
}

// Player is an driver.Player of the one-engine model. It keeps the game as the player was told
// it, to write its GameStrings and to tell it why a move is refused.
type Player struct {
	peer       *linepeer.Peer
	name       string
	id         string // the player's greeting
	transcript *driver.Transcript
	validMoves bool // send the legal moves before each prompt
	opening    string
	game       *rules.Game
	seated     bool // this game's newgame line was sent
	answered   bool // the player answered a move that has not been played yet
}

var _ driver.Finisher = (*Player)(nil)

// Info implements driver.Player: the player's greeting is its id; it keeps no state of its
// own.
func (p *Player) Info() driver.PlayerInfo { return driver.PlayerInfo{ID: p.id} }

// NewGame implements driver.Player. The player is told of the game when it is first to move,
// for only then is its colour known.
func (p *Player) NewGame(_ context.Context, gameString string) (string, error) {
	g, err := rules.ParseGameString(gameString)
	if err != nil {
		return "", fmt.Errorf("gamestring: %w", err)
	}
	p.opening, p.game, p.seated, p.answered = g.GameString(), g, false, false
	return "", nil
}

// Play implements driver.Player: the player's own move is answered with the new GameString;
// an opponent's move reaches it with its next prompt.
func (p *Player) Play(ctx context.Context, move string) (string, error) {
	if err := p.game.Play(move); err != nil {
		return "", fmt.Errorf("gamestring: the referee's move %q: %w", move, err)
	}
	if p.answered {
		p.answered = false
		if err := p.peer.Send(ctx, p.game.GameString()); err != nil {
			return "", p.classify(err, false)
		}
	}
	return "", nil
}

// BestMove implements driver.Player: the GameString, then one line of answer. An answer
// the rules refuse is answered with err, and the referee judges it.
func (p *Player) BestMove(ctx context.Context, _ driver.SearchLimit) (string, error) {
	if !p.seated {
		p.seated = true
		if err := p.peer.Send(ctx, fmt.Sprintf("newgame %s %s", p.game.ToMove(), p.opening)); err != nil {
			return "", p.classify(err, true)
		}
	}
	if p.validMoves {
		if err := p.peer.Send(ctx, "validmoves "+strings.Join(p.game.ValidMoveStrings(), ";")); err != nil {
			return "", p.classify(err, true)
		}
	}
	if err := p.peer.Send(ctx, p.game.GameString()); err != nil {
		return "", p.classify(err, true)
	}
	var line string
	for strings.TrimSpace(line) == "" {
		var err error
		if line, err = p.peer.Next(ctx, "a move"); err != nil {
			return "", p.classify(err, true)
		}
	}
	move, err := ParseAnswer(line)
	if err != nil {
		p.peer.Send(ctx, "err "+err.Error())
		return "", &driver.PlayerError{Reason: outcome.ReasonIllegalMove, Err: fmt.Errorf("gamestring: %s: %w", p.name, err)}
	}
	probe := p.game.Clone()
	if err := probe.Play(move); err != nil {
		reason := err.Error()
		var invalid *rules.InvalidMoveError
		if errors.As(err, &invalid) {
			reason = invalid.Reason
		}
		p.peer.Send(ctx, fmt.Sprintf("err %s: %s", move, reason))
	}
	p.answered = true
	return move, nil
}

// ParseAnswer reads a player's answer: one MoveString (one or two words, no ";") or "pass",
// with its spacing normalized.
func ParseAnswer(line string) (string, error) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return "", errors.New("an empty answer")
	case len(f) > 2 || len(line) > 100 || strings.ContainsAny(line, ";\x00"):
		if len(line) > 100 {
			line = line[:100] + "..."
		}
		return "", fmt.Errorf("%q is not a MoveString", line)
	}
	return strings.Join(f, " "), nil
}

// GameOver implements driver.Finisher: a player that took part is told the result and the
// final GameString. It has no opinion of its own.
func (p *Player) GameOver(ctx context.Context, result string) (string, error) {
	if !p.seated {
		return "", nil
	}
	p.seated = false
	return "", p.peer.Send(ctx, fmt.Sprintf("gameover %s %s", result, p.game.GameString()))
}

// Close implements driver.Player: the end of input, then a kill after the grace period.
func (p *Player) Close(ctx context.Context) error {
	err := p.peer.Close(ctx, "")
	p.transcript.Close()
	return err
}

// classify turns transport errors into the reasons the arbiter adjudicates; the player is
// killed, and started anew for its next game.
func (p *Player) classify(err error, search bool) error {
	p.peer.Kill()
	return driver.ClassifyError(err, search)
}
