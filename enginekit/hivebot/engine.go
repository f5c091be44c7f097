package hivebot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"hivearbiter/enginekit/search"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/rules"
)

// Version is hivebot's version, as the info banner shows it.
const Version = "v0.1.0"

// Profile is a strength setting.
type Profile int

// The profiles. The zero value is the strongest.
const (
	Strong Profile = iota // iterative deepening to the time limit
	Medium                // a 3-ply search
	Weak                  // a 2-ply search
	Random                // a uniformly random legal move
)

// profileNames lists the profiles weakest first, as the Profile option shows them.
var profileNames = [...]string{"random", "weak", "medium", "strong"}

var profileByName = map[string]Profile{"random": Random, "weak": Weak, "medium": Medium, "strong": Strong}

// String is the profile's name, as -profile takes it ("weak"), or its number if it has none.
func (p Profile) String() string {
	for name, q := range profileByName {
		if q == p {
			return name
		}
	}
	return "Profile(" + strconv.Itoa(int(p)) + ")"
}

// Depth returns the profile's fixed search depth, or 0 for a search bounded by time.
func (p Profile) Depth() int {
	switch p {
	case Weak:
		return 2
	case Medium:
		return 3
	}
	return 0
}

// Aggression returns the evaluation's aggression for the profile (see search.Options): the
// weak profile's shallow search needs a push toward the enemy queen, or it hoards mobility
// and never closes a won game.
func (p Profile) Aggression() int {
	if p == Weak {
		return search.MaxAggression
	}
	return search.DefaultAggression
}

// ParseProfile reads a profile name, in any case.
func ParseProfile(s string) (Profile, error) {
	if p, ok := profileByName[strings.ToLower(s)]; ok {
		return p, nil
	}
	return Strong, fmt.Errorf("hivebot: unknown profile %q (want random, weak, medium or strong)", s)
}

// Config sets up an Engine. The zero value is the strong profile with default sizes.
type Config struct {
	Profile  Profile
	MaxDepth int    // caps every search; 0 for no cap
	HashMB   int    // transposition table size; 0 for search.DefaultHashMB
	Threads  int    // search threads sharing the transposition table; 0 for 1
	Seed     uint64 // seeds the random profile
	// BenchDepth is the depth of the UHP command "bench" given none; 0 for DefaultBenchDepth.
	// A slow build (the race detector's is twenty times slower) answers arbiter check's bench
	// sooner at a lower one.
	BenchDepth int
}

// MaxDepth is the deepest search hivebot plays: the limit of its -depth, -bench-depth and
// bench depths.
const MaxDepth = search.MaxPly - 1

// Option limits.
const (
	maxDepthLimit = MaxDepth
	minHashMB     = 1
	maxHashMB     = 1024
)

// Engine is hivebot: a uhpserver.Handler that keeps a game with the referee and searches it.
// It is not safe for concurrent use; the uhpserver.Server calls it one command at a time.
type Engine struct {
	game     *rules.Game // nil until newgame
	searcher *search.Searcher
	profile  Profile
	maxDepth int
	rng      *rand.Rand
	bench    int // the bench command's default depth
}

var _ uhpserver.Handler = (*Engine)(nil)
var _ uhpserver.Perfter = (*Engine)(nil)
var _ uhpserver.Commander = (*Engine)(nil)

// New returns an engine with no game in progress.
func New(cfg Config) *Engine {
	hash := cfg.HashMB
	if hash <= 0 {
		hash = search.DefaultHashMB
	}
	hash = min(max(hash, minHashMB), maxHashMB)
	return &Engine{
		searcher: search.New(search.Options{HashMB: hash, Aggression: cfg.Profile.Aggression(), Threads: cfg.Threads}),
		profile:  cfg.Profile,
		maxDepth: min(max(cfg.MaxDepth, 0), maxDepthLimit),
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0x68697665626f74)),
		bench:    cmp.Or(min(max(cfg.BenchDepth, 0), maxDepthLimit), DefaultBenchDepth),
	}
}

// Info implements uhpserver.Handler.
func (e *Engine) Info() uhpserver.Info {
	return uhpserver.Info{ID: "hivebot " + Version, Capabilities: []string{"Mosquito", "Ladybug", "Pillbug"}}
}

// NewGame starts a game from nothing (Base), a GameTypeString or a GameString, which is
// replayed move by move as Mzinga does: its state and turn fields are ignored. On failure the
// previous game stays.
func (e *Engine) NewGame(_ context.Context, arg string) (string, error) {
	if arg == "" {
		arg = rules.Base.String()
	}
	fields := strings.Split(arg, ";")
	t, err := rules.ParseGameType(fields[0])
	if err != nil {
		return "", gameStringError("parse", fields[0])
	}
	g := rules.NewGame(t)
	if len(fields) > 3 {
		for _, m := range fields[3:] {
			if err := g.Play(m); err != nil {
				var syntax *rules.MoveStringError
				if errors.As(err, &syntax) {
					return "", gameStringError("parse", m)
				}
				return "", gameStringError("play", m)
			}
		}
	}
	e.game = g
	return g.GameString(), nil
}

// gameStringError is Mzinga's complaint about a GameString, .NET ArgumentException and all.
func gameStringError(verb, text string) error {
	return &uhpserver.Error{Message: fmt.Sprintf("Unable to %s '%s' in GameString. (Parameter 'gameStr')", verb, text)}
}

var (
	errNoGame   = &uhpserver.Error{Message: uhpserver.ErrNoGame}
	errGameOver = &uhpserver.Error{Message: uhpserver.ErrGameOver}
)

// liveGame returns the game if there is one that is not over.
func (e *Engine) liveGame() (*rules.Game, error) {
	switch {
	case e.game == nil:
		return nil, errNoGame
	case e.game.State().IsOver():
		return nil, errGameOver
	}
	return e.game, nil
}

// Play plays a MoveString or "pass".
func (e *Engine) Play(_ context.Context, move string) (string, error) {
	g, err := e.liveGame()
	if err != nil {
		return "", err
	}
	if err := g.Play(move); err != nil {
		var invalid *rules.InvalidMoveError
		if errors.As(err, &invalid) {
			return "", &uhpserver.InvalidMoveError{Message: invalid.Reason}
		}
		return "", &uhpserver.InvalidMoveError{Message: fmt.Sprintf("Unable to parse move \"%s\".", move)}
	}
	return g.GameString(), nil
}

// ValidMoves lists the legal moves in Mzinga's notation.
func (e *Engine) ValidMoves(context.Context) (string, error) {
	g, err := e.liveGame()
	if err != nil {
		return "", err
	}
	return strings.Join(g.ValidMoveStrings(), ";"), nil
}

// Undo takes back plies.
func (e *Engine) Undo(_ context.Context, plies int) (string, error) {
	if e.game == nil {
		return "", errNoGame
	}
	if err := e.game.Undo(plies); err != nil {
		return "", &uhpserver.Error{Message: fmt.Sprintf("Unable to undo %d moves.", plies)}
	}
	return e.game.GameString(), nil
}

// BestMove picks a move within the limit: by the profile's fixed depth, the limit's depth or
// the MaxDepth cap, whichever is smallest, and before the limit's time runs out or ctx ends.
// With neither a depth nor a time, the strong profile searches until ctx ends.
func (e *Engine) BestMove(ctx context.Context, limit uhpserver.BestMoveArgs) (string, error) {
	g, err := e.liveGame()
	if err != nil {
		return "", err
	}
	m := e.bestMove(ctx, g, limit)
	return g.MoveString(m), nil
}

func (e *Engine) bestMove(ctx context.Context, g *rules.Game, limit uhpserver.BestMoveArgs) rules.Move {
	if e.profile == Random {
		moves := g.ValidMoves()
		return moves[e.rng.IntN(len(moves))]
	}
	if limit.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit.Time)
		defer cancel()
	}
	depth := 0
	for _, d := range []int{e.profile.Depth(), limit.Depth, e.maxDepth} {
		if d > 0 && (depth == 0 || d < depth) {
			depth = d
		}
	}
	if depth > 0 {
		e.searcher.Clear() // a result that depends only on the position and the depth
	}
	res := e.searcher.Search(ctx, g.Board(), search.Limits{Depth: depth})
	return res.Move
}

// Options lists the engine options: the settings first, then the search parameters, then the
// evaluation weights (search.Params), all of them integers with ranges that a tuner can set.
func (e *Engine) Options() []uhpserver.Option {
	var out []uhpserver.Option
	for _, name := range optionNames {
		o, _ := e.GetOption(name)
		out = append(out, o)
	}
	return out
}

var optionNames = func() []string {
	names := []string{"Profile", "MaxDepth", "TranspositionTableSizeMB", "Threads", "Aggression", "SoftTimePercent"}
	for _, p := range search.Params() {
		names = append(names, p.Name)
	}
	return names
}()

// canonicalOption returns an option's name as the engine spells it, or "" if there is none.
func canonicalOption(name string) string {
	for _, n := range optionNames {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

func intOption(name string, value, def, lo, hi int) uhpserver.Option {
	return uhpserver.Option{Name: name, Type: "int", Value: strconv.Itoa(value), Default: strconv.Itoa(def),
		Extra: []string{strconv.Itoa(lo), strconv.Itoa(hi)}}
}

// GetOption returns one option.
func (e *Engine) GetOption(name string) (uhpserver.Option, error) {
	switch canonicalOption(name) {
	case "Profile":
		return uhpserver.Option{Name: "Profile", Type: "enum", Value: e.profile.String(), Default: Strong.String(),
			Extra: profileNames[:]}, nil
	case "MaxDepth":
		return intOption("MaxDepth", e.maxDepth, 0, 0, maxDepthLimit), nil
	case "TranspositionTableSizeMB":
		return intOption("TranspositionTableSizeMB", e.searcher.HashMB(), search.DefaultHashMB, minHashMB, maxHashMB), nil
	case "Threads":
		return intOption("Threads", e.searcher.Threads(), 1, 1, search.MaxThreads), nil
	case "Aggression":
		return intOption("Aggression", e.searcher.Aggression(), search.DefaultAggression, search.MinAggression, search.MaxAggression), nil
	case "SoftTimePercent":
		return intOption("SoftTimePercent", e.searcher.SoftTime(), search.DefaultSoftTime, search.MinSoftTime, search.MaxSoftTime), nil
	}
	if p, ok := search.ParamByName(name); ok {
		w := e.searcher.Weights()
		return intOption(p.Name, p.Get(&w), p.Default(), p.Min, p.Max), nil
	}
	return uhpserver.Option{}, &uhpserver.Error{Message: fmt.Sprintf("The option \"%s\" is not valid.", name)}
}

// SetOption sets an option as Mzinga does: a value that does not parse is ignored and a
// number out of range is clamped. It returns the option as it now is.
func (e *Engine) SetOption(name, value string) (uhpserver.Option, error) {
	n, numErr := strconv.Atoi(value)
	switch canonicalOption(name) {
	case "Profile":
		if p, err := ParseProfile(value); err == nil {
			e.profile = p
			e.searcher.SetAggression(p.Aggression())
		}
	case "MaxDepth":
		if numErr == nil {
			e.maxDepth = min(max(n, 0), maxDepthLimit)
		}
	case "TranspositionTableSizeMB":
		if numErr == nil {
			e.searcher.SetHashMB(min(max(n, minHashMB), maxHashMB))
		}
	case "Threads":
		if numErr == nil {
			e.searcher.SetThreads(n)
		}
	case "Aggression":
		if numErr == nil {
			e.searcher.SetAggression(min(max(n, search.MinAggression), search.MaxAggression))
		}
	case "SoftTimePercent":
		if numErr == nil {
			e.searcher.SetSoftTime(n)
		}
	default:
		if p, ok := search.ParamByName(name); ok && numErr == nil {
			w := e.searcher.Weights()
			p.Set(&w, n)
			e.searcher.SetWeights(w)
		}
	}
	return e.GetOption(name)
}
