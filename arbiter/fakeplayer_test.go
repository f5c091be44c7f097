package arbiter

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// fakePlayer is an in-process player that plays uniformly random legal moves and can be told
// to misbehave in one specific way, at a chosen ply of its own.
type fakePlayer struct {
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

func newFake(name string, seed uint64) *fakePlayer {
	return &fakePlayer{name: name, rng: rand.New(rand.NewPCG(seed, 1))}
}

func (p *fakePlayer) misbehave(fault string, atPly int) *fakePlayer {
	p.fault, p.atPly = fault, atPly
	return p
}

func (p *fakePlayer) Info() PlayerInfo {
	return PlayerInfo{ID: p.name + " v1", ReportsState: true, Expansions: p.plays, ExpansionsKnown: p.playsKnown}
}

// fakeProtocol is the test protocol: it enters fake players through the same seam as a real
// protocol. An engine's command is its behaviour (see fakeTournament).
type fakeProtocol struct{}

func init() { RegisterProtocol("fake", fakeProtocol{}) }

func (fakeProtocol) Check(e EngineConfig) error {
	if unknown := e.UnknownSettings(); len(unknown) > 0 {
		return &ConfigError{Msg: "unknown fake setting " + strings.Join(unknown, ", ")}
	}
	return nil
}

var fakeSeed atomic.Uint64

func (fakeProtocol) Start(ctx context.Context, e EngineConfig, env StartEnv) (Player, error) {
	p := newFake(e.Name, fakeSeed.Add(1))
	if spec := e.Command[0]; spec != "random" {
		if spec == "unstartable" {
			return nil, errors.New("exec: no such file")
		}
		fault, ply, _ := strings.Cut(spec, "@")
		n := 0
		for _, c := range ply {
			n = n*10 + int(c-'0')
		}
		p.misbehave(fault, n)
	}
	return p, nil
}

func (p *fakePlayer) due(fault string) bool {
	return p.fault == fault && p.game != nil && p.game.Ply() >= p.atPly
}

func (p *fakePlayer) NewGame(ctx context.Context, gs string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started++
	if p.fault == "crash-newgame" {
		return "", &PlayerError{Reason: results.ReasonCrash, Err: errors.New("exit status 3")}
	}
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return "", &PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	p.game = g
	p.spelled = nil
	return p.report(), nil
}

// report is the GameString the player claims, possibly doctored.
func (p *fakePlayer) report() string {
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

func (p *fakePlayer) Play(ctx context.Context, move string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.due("stall-play") {
		p.mu.Unlock()
		<-ctx.Done()
		p.mu.Lock()
		return "", &PlayerError{Reason: results.ReasonStall, Err: ctx.Err()}
	}
	if p.due("reject-play") {
		return "", &PlayerError{Reason: results.ReasonDesync, Err: errors.New("invalidmove You can't move that piece there.")}
	}
	var err error
	if move == "pass" {
		err = p.game.Pass()
	} else {
		err = p.game.Play(move)
	}
	if err != nil {
		return "", &PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	return p.report(), nil
}

func (p *fakePlayer) BestMove(ctx context.Context, limit Limit) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	wait := func(d time.Duration) error {
		p.mu.Unlock()
		defer p.mu.Lock()
		select {
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return &PlayerError{Reason: results.ReasonTimeForfeit, Err: ctx.Err()}
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
		return "", &PlayerError{Reason: results.ReasonCrash, Err: errors.New("engine exited: exit status 101")}
	case p.due("garbage"):
		return "", &PlayerError{Reason: results.ReasonProtocol, Err: errors.New("no ok line")}
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

func (p *fakePlayer) Close(ctx context.Context) error {
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
