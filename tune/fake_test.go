package tune

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"sync"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	_ "hivearbiter/proto/gamestring" // a protocol without options, to be refused
	_ "hivearbiter/proto/uhp"        // the default protocol, which the configuration names
	"hivearbiter/rules"
)

// synthetic is the strength model of the fake engines: an engine whose option Skill is V
// throws its game at its first move (answers an illegal move) with probability
// ((V-Optimum)/Width)^2, capped at 1, and otherwise plays legal moves; a game that nobody
// throws is drawn at the move limit. The plus side's expected score is thus a known function
// of both values, best at Optimum.
type synthetic struct {
	Optimum, Width float64
}

func (s synthetic) throwChance(v float64) float64 {
	d := (v - s.Optimum) / s.Width
	return min(1, d*d)
}

// fakePlayer is an in-process driver.Player of the synthetic model. Its play is a function
// of its option, the opening and its colour alone, so a pair played again plays the same.
type fakePlayer struct {
	model   synthetic
	value   float64
	game    *rules.Game
	opening string
	first   bool
	rng     *rand.Rand
}

// startSynthetic is an arbiter.StartFunc for fake players of the model; it calls onStart
// (when set) with every start first.
func startSynthetic(model synthetic, onStart func()) arbiter.StartFunc {
	return func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
		if onStart != nil {
			onStart()
		}
		p := &fakePlayer{model: model, value: model.Optimum}
		for _, o := range e.Options {
			if o.Name == "Skill" {
				v, err := strconv.ParseFloat(o.Value, 64)
				if err != nil {
					return nil, fmt.Errorf("fake: Skill %q: %w", o.Value, err)
				}
				p.value = v
			}
		}
		return p, ctx.Err()
	}
}

func (p *fakePlayer) Info() driver.PlayerInfo { return driver.PlayerInfo{ID: "synthetic"} }

func (p *fakePlayer) NewGame(_ context.Context, gameString string) (string, error) {
	g, err := rules.ParseGameString(gameString)
	p.game, p.opening, p.first = g, gameString, true
	return "", err
}

func (p *fakePlayer) Play(_ context.Context, move string) (string, error) {
	return "", p.game.Play(move)
}

func (p *fakePlayer) BestMove(ctx context.Context, _ driver.SearchLimit) (string, error) {
	if p.first {
		p.first = false
		h := fnv.New64a()
		fmt.Fprintf(h, "%s|%g|%v", p.opening, p.value, p.game.ToMove())
		p.rng = rand.New(rand.NewPCG(h.Sum64(), 1))
		if p.rng.Float64() < p.model.throwChance(p.value) {
			return "wQ wQ", nil
		}
	}
	valid := p.game.ValidMoves()
	return p.game.MoveString(valid[p.rng.IntN(len(valid))]), ctx.Err()
}

func (p *fakePlayer) Close(context.Context) error { return nil }

// settablePlayer is a fakePlayer whose Skill can be set between games; it notes the value it
// starts each game with.
type settablePlayer struct {
	*fakePlayer
	name  string
	games *[]string // "NAME=VALUE" at each NewGame, shared by the players of a run
	mu    *sync.Mutex
}

func (p *settablePlayer) SetOption(_ context.Context, name, value string) error {
	v, err := strconv.ParseFloat(value, 64)
	if name != "Skill" || err != nil {
		return fmt.Errorf("fake: no option %s=%s", name, value)
	}
	p.value = v
	return nil
}

func (p *settablePlayer) NewGame(ctx context.Context, gameString string) (string, error) {
	p.mu.Lock()
	*p.games = append(*p.games, fmt.Sprintf("%s=%g", p.name, p.value))
	p.mu.Unlock()
	return p.fakePlayer.NewGame(ctx, gameString)
}
