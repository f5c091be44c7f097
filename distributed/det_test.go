package distributed

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"

	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// detPlayer is an in-process player whose every move is a function of the position and its
// name alone, so a game is the same on any worker: "det" plays a pseudo-random legal move,
// "det blunder=N" also answers an illegal move in about one position in N. Its other arguments
// are not read. With DET_PLAYS=GAMETYPE in its environment it says it plays that game type
// only.
type detPlayer struct {
	name    string
	blunder uint64
	game    *rules.Game
	plays   rules.GameType
	known   bool
}

// detStarts are the engines the det protocol started, in order, as it was given them.
var detStarts struct {
	sync.Mutex
	engines []driver.EngineConfig
}

// startedDet returns the engines started since the last call, and forgets them.
func startedDet() []driver.EngineConfig {
	detStarts.Lock()
	defer detStarts.Unlock()
	e := detStarts.engines
	detStarts.engines = nil
	return e
}

type detProtocol struct{}

// detLimited counts the starts of "limited starts=N" engines by name: each starts N times, and
// fails to start after (an engine that breaks during a run).
var detLimited struct {
	sync.Mutex
	starts map[string]int
}

func detLimitedStart(e driver.EngineConfig) bool {
	limit := 0
	for _, a := range e.Command[1:] {
		if n, ok := strings.CutPrefix(a, "starts="); ok {
			limit, _ = strconv.Atoi(n)
		}
	}
	detLimited.Lock()
	defer detLimited.Unlock()
	if detLimited.starts == nil {
		detLimited.starts = map[string]int{}
	}
	detLimited.starts[e.Name]++
	return detLimited.starts[e.Name] <= limit
}

func init() { driver.Register("det", detProtocol{}) }

func (detProtocol) Validate(e driver.EngineConfig) error { return nil }

func (detProtocol) Start(ctx context.Context, e driver.EngineConfig, env driver.StartEnv) (driver.Player, error) {
	detStarts.Lock()
	detStarts.engines = append(detStarts.engines, e)
	detStarts.Unlock()
	p := &detPlayer{name: e.Name}
	for _, kv := range e.Env {
		if v, ok := strings.CutPrefix(kv, "DET_PLAYS="); ok {
			gt, err := rules.ParseGameType(v)
			if err != nil {
				return nil, err
			}
			p.plays, p.known = gt, true
		}
	}
	for _, a := range e.Command[1:] {
		if n, ok := strings.CutPrefix(a, "blunder="); ok {
			v, _ := strconv.Atoi(n)
			p.blunder = uint64(v)
		}
	}
	if e.Command[0] == "unstartable" {
		return nil, errors.New("no such engine")
	}
	if e.Command[0] == "limited" && !detLimitedStart(e) {
		return nil, errors.New("it starts no more")
	}
	return p, nil
}

func (p *detPlayer) Info() driver.PlayerInfo {
	return driver.PlayerInfo{ID: "det " + p.name, ReportsState: true, Expansions: p.plays, ExpansionsKnown: p.known}
}

func (p *detPlayer) NewGame(ctx context.Context, gs string) (string, error) {
	g, err := rules.ParseGameString(gs)
	if err != nil {
		return "", &driver.PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	p.game = g
	return g.GameString(), nil
}

func (p *detPlayer) Play(ctx context.Context, move string) (string, error) {
	if err := p.game.Play(move); err != nil {
		return "", &driver.PlayerError{Reason: results.ReasonDesync, Err: err}
	}
	return p.game.GameString(), nil
}

func (p *detPlayer) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
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
