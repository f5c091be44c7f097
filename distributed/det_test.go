package distributed

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// detPlayer is an in-process player whose every move is a function of the position and its
// name alone, so a game is the same on any worker: "det" plays a pseudo-random legal move,
// "det blunder=N" also answers an illegal move in about one position in N.
type detPlayer struct {
	name    string
	blunder uint64
	game    *rules.Game
}

type detProtocol struct{}

func init() { arbiter.RegisterProtocol("det", detProtocol{}) }

func (detProtocol) Check(e arbiter.EngineConfig) error { return nil }

func (detProtocol) Start(ctx context.Context, e arbiter.EngineConfig, env arbiter.StartEnv) (arbiter.Player, error) {
	p := &detPlayer{name: e.Name}
	for _, a := range e.Command[1:] {
		if n, ok := strings.CutPrefix(a, "blunder="); ok {
			v, _ := strconv.Atoi(n)
			p.blunder = uint64(v)
		}
	}
	if e.Command[0] == "unstartable" {
		return nil, errors.New("no such engine")
	}
	return p, nil
}

func (p *detPlayer) Info() arbiter.PlayerInfo {
	return arbiter.PlayerInfo{ID: "det " + p.name, ReportsState: true}
}

func (p *detPlayer) NewGame(ctx context.Context, gs string) (string, error) {
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return "", &arbiter.PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	p.game = g
	return g.GameString(), nil
}

func (p *detPlayer) Play(ctx context.Context, move string) (string, error) {
	if err := p.game.Play(move); err != nil {
		return "", &arbiter.PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	return p.game.GameString(), nil
}

func (p *detPlayer) BestMove(ctx context.Context, limit arbiter.Limit) (string, error) {
	h := fnv.New64a()
	h.Write([]byte(p.name + "|" + p.game.GameString()))
	x := h.Sum64()
	if p.blunder > 0 && (x>>32)%p.blunder == 0 {
		return "wQ wQ", nil
	}
	moves := p.game.ValidMoves()
	m := moves[x%uint64(len(moves))]
	if m.IsPass() {
		return "pass", nil
	}
	return p.game.MoveString(m), nil
}

func (p *detPlayer) Close(ctx context.Context) error { return nil }
