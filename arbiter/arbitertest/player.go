package arbitertest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// Player is an in-process player that plays uniformly random legal moves and can be told
// to misbehave in one specific way, at a chosen ply of its own.
type Player struct {
	mu      sync.Mutex
	name    string
	rng     *rand.Rand
	game    *rules.Game
	fault   string // which misbehaviour, "" for none
	atPly   int    // the game ply from which the fault shows
	delay   time.Duration
	closed  bool
	started int      // newgame count
	spelled []string // respelled moves of the current game, for the "rewrite" fault
	// plays is the widest game type the player says it plays, when playsKnown.
	plays      rules.GameType
	playsKnown bool
}

// New returns a well-behaved player that plays random legal moves drawn from seed.
func New(name string, seed uint64) *Player {
	return &Player{name: name, rng: rand.New(rand.NewPCG(seed, 1))}
}

// Misbehave makes the player commit fault from the game's ply atPly on. The faults: in
// bestmove "hang", "slow" (answers past the budget and margin), "crash", "garbage" (a broken
// reply), "illegal", "unreadable", "pass" (while it has moves); in newgame "crash-newgame";
// in play "stall-play", "reject-play"; in the GameString it reports "desync", "false-claim",
// "garbage-state" and "rewrite" (the same game respelled, which must be accepted).
func (p *Player) Misbehave(fault string, atPly int) *Player {
	p.fault, p.atPly = fault, atPly
	return p
}

// SetDelay makes every bestmove take at least d.
func (p *Player) SetDelay(d time.Duration) *Player {
	p.delay = d
	return p
}

// SetPlays makes the player say that the widest game type it plays is t.
func (p *Player) SetPlays(t rules.GameType) *Player {
	p.plays, p.playsKnown = t, true
	return p
}

// Game is a copy of the player's own game, nil before its first newgame.
func (p *Player) Game() *rules.Game {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.game == nil {
		return nil
	}
	return p.game.Clone()
}

// Started counts the player's newgame commands.
func (p *Player) Started() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// Closed reports whether the player was closed.
func (p *Player) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Info implements driver.Player.
func (p *Player) Info() driver.PlayerInfo {
	return driver.PlayerInfo{ID: p.name + " v1", ReportsState: true, Expansions: p.plays, ExpansionsKnown: p.playsKnown}
}

// Name is the test protocol's name (proto=test).
const Name = "test"

// Protocol is the test protocol: it enters Players through the same seam as a real protocol.
// An engine's command is its behaviour: "random" plays random legal moves, "unstartable"
// fails to start, and "FAULT@PLY" misbehaves (see Misbehave) from that ply on.
type Protocol struct{}

func init() { driver.Register(Name, Protocol{}) }

// Validate implements driver.Protocol.
func (Protocol) Validate(e driver.EngineConfig) error {
	return nil
}

var seeds atomic.Uint64

// Start implements driver.Protocol.
func (Protocol) Start(ctx context.Context, e driver.EngineConfig, env driver.StartEnv) (driver.Player, error) {
	p := New(e.Name, seeds.Add(1))
	if spec := e.Command[0]; spec != "random" {
		if spec == "unstartable" {
			return nil, errors.New("exec: no such file")
		}
		fault, ply, _ := strings.Cut(spec, "@")
		n := 0
		for _, c := range ply {
			n = n*10 + int(c-'0')
		}
		p.Misbehave(fault, n)
	}
	return p, nil
}

func (p *Player) due(fault string) bool {
	return p.fault == fault && p.game != nil && p.game.Ply() >= p.atPly
}

// NewGame implements driver.Player.
func (p *Player) NewGame(ctx context.Context, gs string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started++
	if p.fault == "crash-newgame" {
		return "", &driver.PlayerError{Reason: results.ReasonCrash, Err: errors.New("exit status 3")}
	}
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return "", &driver.PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	p.game = g
	p.spelled = nil
	return p.report(), nil
}

// report is the GameString the player claims, possibly doctored.
func (p *Player) report() string {
	gs := p.game.GameString()
	switch {
	case p.due("desync"):
		// Claims an extra move was played: a different position.
		moves := p.game.ValidMoves()
		c := p.game.Clone()
		c.PlayMove(moves[0])
		return c.GameString()
	case p.due("false-claim"):
		return strings.Replace(gs, ";InProgress;", ";Draw;", 1)
	case p.due("garbage-state"):
		return strings.Replace(gs, ";InProgress;", ";Sleeping;", 1)
	case p.due("rewrite"):
		// Same game, the moves respelled with other (legal) reference pieces: must be accepted.
		p.spelled = respell(p.game, p.spelled)
		g := p.game
		return strings.Join(append([]string{g.GameType().String(), g.State().String(), g.TurnString()}, p.spelled...), ";")
	}
	return gs
}

// Play implements driver.Player.
func (p *Player) Play(ctx context.Context, move string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.due("stall-play") {
		p.mu.Unlock()
		<-ctx.Done()
		p.mu.Lock()
		return "", &driver.PlayerError{Reason: results.ReasonStall, Err: ctx.Err()}
	}
	if p.due("reject-play") {
		return "", &driver.PlayerError{Reason: results.ReasonDesync, Err: errors.New("invalidmove You can't move that piece there.")}
	}
	var err error
	if move == "pass" {
		err = p.game.Pass()
	} else {
		err = p.game.Play(move)
	}
	if err != nil {
		return "", &driver.PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	return p.report(), nil
}

// BestMove implements driver.Player.
func (p *Player) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	wait := func(d time.Duration) error {
		p.mu.Unlock()
		defer p.mu.Lock()
		select {
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return &driver.PlayerError{Reason: results.ReasonTimeForfeit, Err: ctx.Err()}
		}
	}
	if p.delay > 0 {
		if err := wait(p.delay); err != nil {
			return "", err
		}
	}
	switch {
	case p.due("hang"):
		if err := wait(time.Hour); err != nil {
			return "", err
		}
	case p.due("slow"):
		// Answers, but later than the budget and margin allow.
		if err := wait(limit.Time + 150*time.Millisecond); err != nil {
			return "", err
		}
	case p.due("crash"):
		return "", &driver.PlayerError{Reason: results.ReasonCrash, Err: errors.New("engine exited: exit status 101")}
	case p.due("garbage"):
		return "", &driver.PlayerError{Reason: results.ReasonProtocol, Err: errors.New("no ok line")}
	case p.due("illegal"):
		return illegalMove(p.game), nil
	case p.due("unreadable"):
		return "xyzzy", nil
	case p.due("pass"):
		return "pass", nil
	}
	moves := p.game.ValidMoves()
	m := moves[p.rng.IntN(len(moves))]
	if m.IsPass() {
		return "pass", nil
	}
	return p.game.MoveString(m), nil
}

// Close implements driver.Player.
func (p *Player) Close(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	return nil
}

// illegalMove finds a well-formed move the rules forbid in the current position.
func illegalMove(g *rules.Game) string {
	valid := map[string]bool{}
	for _, m := range g.ValidMoves() {
		valid[g.MoveString(m)] = true
	}
	color := "w"
	if g.ToMove() == rules.Black {
		color = "b"
	}
	for _, cand := range []string{color + "Q", color + "S1", color + "A1", color + "G1", color + "B1"} {
		for _, moved := range strings.Split(g.GameString(), ";")[3:] {
			ref := strings.Fields(moved)[0]
			for _, dir := range []string{"-%s", "%s-", "/%s", "%s/", "\\%s", "%s\\"} {
				s := cand + " " + fmt.Sprintf(dir, ref)
				var ime *rules.InvalidMoveError
				if _, err := g.ParseMove(s); errors.As(err, &ime) && !valid[s] {
					return s
				}
			}
		}
	}
	return color + "Q " + color + "Q"
}

// respell writes the game's moves with a different but equivalent reference where one exists,
// extending the spellings already found for earlier moves.
func respell(g *rules.Game, spelled []string) []string {
	t := rules.NewGame(g.GameType())
	moves := g.Moves()
	if len(spelled) > len(moves) {
		spelled = nil // a new game
	}
	for i, s := range moves {
		if i >= len(spelled) {
			alt := alternative(t, s)
			if alt == "" {
				alt = s
			}
			spelled = append(spelled, alt)
		}
		if err := t.Play(s); err != nil {
			panic(err)
		}
	}
	return spelled
}

// alternative finds another MoveString that the rules parse to the same move.
func alternative(g *rules.Game, s string) string {
	m, err := g.ParseMove(s)
	if err != nil || m.IsPass() {
		return ""
	}
	fields := strings.Fields(s)
	seen := map[string]bool{}
	for _, ref := range strings.Split(g.GameString(), ";")[3:] {
		name := strings.Fields(ref)[0]
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, dir := range []string{"-%s", "%s-", "/%s", "%s/", "\\%s", "%s\\", "%s"} {
			alt := fields[0] + " " + fmt.Sprintf(dir, name)
			if alt == s {
				continue
			}
			if m2, err := g.ParseMove(alt); err == nil && m2 == m {
				return alt
			}
		}
	}
	return ""
}
