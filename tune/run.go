package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// Config is a tune: one engine, the options tuned on it, and how its game pairs are played.
type Config struct {
	// Engine is the engine tuned. Its own options are kept; the tuned ones follow them.
	Engine driver.EngineConfig
	Params []Param
	// Gains keeps the JSON name of its first spelling, Schedule: a pool's run id is a hash of
	// the submitted Config's JSON.
	Gains Gains `json:"Schedule"`
	Seed  int64
	// GameType, Openings and Adjudication are as a tournament's (arbiter.Config).
	GameType     string
	Openings     openings.Config
	Adjudication arbiter.Adjudication
	// Concurrency is the number of game pairs played at once.
	Concurrency int
	// Out is the JSON Lines file of the tune's records; running again with it resumes.
	Out string
	// StartTimeout, CommandTimeout and DepthTimeout are as a tournament's.
	StartTimeout, CommandTimeout, DepthTimeout time.Duration
	// Start starts a player (arbiter.StartThroughProtocol when nil).
	Start arbiter.StartFunc `json:"-"`
	// Progress, if set, receives a line now and then on how the tune goes.
	Progress io.Writer `json:"-"`
	// Observer, if set, is told of the tune and of every pair as its update is applied (a
	// live page of the tune).
	Observer Observer `json:"-"`
}

// Observer follows a tune. Its methods are called one at a time, in the order the updates
// are applied, and must not block.
type Observer interface {
	// TuneStarted is told the tune's header and the pairs already on record (a resumed tune).
	TuneStarted(h *Header, resumed []Record)
	// PairFinished is told each pair played since, once it is on record.
	PairFinished(r *Record)
}

// Outcome is where a tune ended.
type Outcome struct {
	Params []Param
	Theta  []float64
	// Pairs counts the game pairs on record; Resumed those that were already at the start.
	Pairs, Resumed int
	// Wins, Draws and Losses are the plus side's games.
	Wins, Draws, Losses int
}

// RefusedError reports an engine that cannot be tuned, because its protocol has no options.
type RefusedError struct {
	Engine, Protocol, Reason string
}

// Error names the engine and its protocol, and why a tune cannot set its options.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("tune: engine %q cannot be tuned: a tune sets engine options, and its protocol (%s) has none: %s", e.Engine, e.Protocol, e.Reason)
}

// PlusSuffix and MinusSuffix name the two sides of a pair in its games: the engine's name
// and the suffix.
const (
	PlusSuffix  = "+"
	MinusSuffix = "-"
)

// tuner is a running tune: the state the workers share.
type tuner struct {
	*Pairs

	mu    sync.Mutex
	theta []float64
	done  map[int]bool
	next  int
	log   *results.Log // the records file
	out   *Outcome
}

// Pairs plays a tune's game pairs: the plus and the minus side of its engine, and how their
// games are played. A local tune plays its own; a pool's worker plays those its server hands
// out (see Session), with the perturbation and the opening the server sends.
type Pairs struct {
	cfg     Config
	name    string                 // the tuned engine's
	sides   [2]driver.EngineConfig // plus, minus, as normalized
	book    *openings.Book
	gameCfg arbiter.GameConfig
}

// Run plays the tune's remaining game pairs, Concurrency at a time, updating theta as each
// pair finishes, and returns where it ended. When ctx ends, the pairs under way are not
// counted (they are played again on resume) and the error is ctx's.
func Run(ctx context.Context, cfg Config) (*Outcome, error) {
	t, err := newTuner(cfg)
	if err != nil {
		return nil, err
	}
	defer t.log.Close()
	group, gctx := errgroup.WithContext(ctx)
	for w := range t.cfg.Concurrency {
		group.Go(func() error { return t.worker(gctx, w) })
	}
	err = group.Wait()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.Theta = slices.Clone(t.theta)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return t.out, err
}

// newTuner checks the configuration, and opens the records file, resuming from it.
func newTuner(cfg Config) (*tuner, error) {
	if cfg.Out == "" {
		return nil, errors.New("tune: no records file: a tune is written to one, so that it can resume")
	}
	p, err := NewPairs(cfg)
	if err != nil {
		return nil, err
	}
	t := &tuner{Pairs: p, done: map[int]bool{}, next: 1, out: &Outcome{Params: p.cfg.Params}}
	return t, t.open()
}

// NewPairs checks a tune's configuration (its parameters, its gains, an engine whose
// protocol has options: a *RefusedError otherwise, its openings) and prepares its pairs. It
// starts no engine.
func NewPairs(cfg Config) (*Pairs, error) {
	if err := CheckParams(cfg.Params); err != nil {
		return nil, err
	}
	if cfg.Gains.Iterations < 1 {
		return nil, &ParamError{"", fmt.Errorf("iterations %d: want at least 1", cfg.Gains.Iterations)}
	}
	if cfg.Start == nil {
		cfg.Start = arbiter.StartThroughProtocol("")
	}
	if err := refuseWithoutOptions(cfg.Engine, cfg.Params[0]); err != nil {
		return nil, err
	}
	name := engineName(cfg.Engine)
	ac := arbiter.Config{
		Engines:  []driver.EngineConfig{side(cfg.Engine, name+PlusSuffix, cfg.Params), side(cfg.Engine, name+MinusSuffix, cfg.Params)},
		GameType: cfg.GameType, Openings: cfg.Openings, Adjudication: cfg.Adjudication, Concurrency: cfg.Concurrency,
		Seed: cfg.Seed, StartTimeout: cfg.StartTimeout, CommandTimeout: cfg.CommandTimeout, DepthTimeout: cfg.DepthTimeout,
	}
	if err := ac.Normalize(); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	gt, _ := rules.ParseGameType(ac.GameType)
	book, err := openings.Load(ac.Openings, gt, ac.Seed)
	if err != nil {
		return nil, err
	}
	cfg.GameType, cfg.Concurrency = ac.GameType, ac.Concurrency
	cfg.StartTimeout, cfg.CommandTimeout, cfg.DepthTimeout = ac.StartTimeout, ac.CommandTimeout, ac.DepthTimeout
	p := &Pairs{cfg: cfg, name: name, sides: [2]driver.EngineConfig{ac.Engines[0], ac.Engines[1]}, book: book}
	p.gameCfg = arbiter.GameConfig{Run: RecordRun, Seed: cfg.Seed, Adjudication: cfg.Adjudication,
		CommandTimeout: cfg.CommandTimeout, DepthTimeout: cfg.DepthTimeout}
	return p, nil
}

// RecordRun is the run every game of a tune says it belongs to.
const RecordRun = "tune"

// Sides are the plus and the minus side as their games are played, the tuned options aside.
func (p *Pairs) Sides() [2]driver.EngineConfig { return p.sides }

// Scheduled are iteration k's two games from opening (index in the book), the plus side (engine
// 0) White first, as its records must say them.
func (p *Pairs) Scheduled(k int, opening string, index int) [2]arbiter.ScheduledGame {
	var sgs [2]arbiter.ScheduledGame
	for g := range 2 {
		sgs[g] = arbiter.ScheduledGame{Index: 2*(k-1) + g, Round: 1, Pair: k - 1, White: g, Black: 1 - g, Opening: opening, OpeningIndex: index}
	}
	return sgs
}

// Engine is the tuned engine's name; its sides are it with PlusSuffix and MinusSuffix.
func (p *Pairs) Engine() string { return p.name }

// Config is the tune as its pairs are played: its configuration with the defaults filled in
// (the game type, the timeouts).
func (p *Pairs) Config() Config { return p.cfg }

// refuseWithoutOptions refuses an engine whose protocol takes no options, saying why.
func refuseWithoutOptions(e driver.EngineConfig, p Param) error {
	if _, err := driver.Lookup(e.ProtocolName()); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	probe := e
	probe.Options = append(slices.Clone(e.Options), driver.EngineOption{Name: p.Name, Value: p.send(p.Start, 0)})
	if driver.Validate(e) == nil {
		if err := driver.Validate(probe); err != nil {
			return &RefusedError{Engine: engineName(e), Protocol: e.ProtocolName(), Reason: driver.Message(err)}
		}
	}
	return nil
}

// side is the engine of one side of a pair: the engine under a suffixed name, its own options
// but the tuned ones, then the tuned ones at their starts.
func side(e driver.EngineConfig, name string, params []Param) driver.EngineConfig {
	e.Name = name
	tuned := map[string]bool{}
	for _, p := range params {
		tuned[p.Name] = true
	}
	opts := slices.DeleteFunc(slices.Clone(e.Options), func(o driver.EngineOption) bool { return tuned[o.Name] })
	for _, p := range params {
		opts = append(opts, driver.EngineOption{Name: p.Name, Value: p.send(p.Start, 0)})
	}
	e.Options = opts
	return e
}

// withValues is a side with the tuned options, which end its options, set to values.
func withValues(e driver.EngineConfig, values []string) driver.EngineConfig {
	opts := slices.Clone(e.Options)
	base := len(opts) - len(values)
	for i, v := range values {
		opts[base+i].Value = v
	}
	e.Options = opts
	return e
}

// DefaultOut is the records file of a tune given none: tune-ENGINE-SEED.jsonl.
func (c Config) DefaultOut() string {
	return fmt.Sprintf("tune-%s-%d.jsonl", engineName(c.Engine), c.Seed)
}

// engineName is the tuned engine's name: its own, or its program's.
func engineName(e driver.EngineConfig) string {
	return cmp.Or(e.Name, e.DefaultName())
}

// header is the first line of this tune's records.
func (t *tuner) header() *Header {
	g := t.cfg.Gains
	return &Header{Engine: t.name, Params: t.cfg.Params, Seed: t.cfg.Seed,
		Iterations: g.Iterations, A: g.A, Alpha: g.Alpha, Gamma: g.Gamma,
		Games: fmt.Sprintf("%s %s, openings %+v, max plies %d", t.sides[0].Time, t.cfg.GameType, t.cfg.Openings, t.cfg.Adjudication.MaxPlies)}
}

// open opens the records file: a new one gets the header; an existing one must hold this
// tune, and its pairs are taken as played. The file is a results.Log: locked against a second
// writer, and a last line cut short by a kill removed (one that was the header leaves the file
// new).
func (t *tuner) open() error {
	want := t.header()
	t.theta = make([]float64, len(t.cfg.Params))
	for i, p := range t.cfg.Params {
		t.theta[i] = p.Start
	}
	r := recordsReader{file: t.cfg.Out}
	log, err := results.OpenLines(t.cfg.Out, func(n int, text []byte) error {
		if err := r.line(n, text); err != nil {
			return err
		}
		if n > 1 {
			return nil
		}
		if why := r.h.sameTune(want); why != "" {
			return &RecordsError{File: t.cfg.Out, Err: fmt.Errorf("cannot resume: %s; give another records file", why)}
		}
		return nil
	})
	if err != nil {
		return r.wrap(err)
	}
	t.log = log
	if r.h == nil {
		if t.cfg.Observer != nil {
			t.cfg.Observer.TuneStarted(want, nil)
		}
		if err := log.AppendJSON(line{Tune: want}); err != nil {
			log.Close()
			return t.writeErr(err)
		}
		return nil
	}
	for _, rec := range r.recs {
		t.count(rec)
	}
	t.out.Resumed = len(r.recs)
	if t.cfg.Observer != nil {
		t.cfg.Observer.TuneStarted(r.h, r.recs)
	}
	return nil
}

func (t *tuner) writeErr(err error) error {
	if err == nil {
		return nil
	}
	return &RecordsError{File: t.cfg.Out, Err: err}
}

// count takes a recorded pair into the state.
func (t *tuner) count(r Record) {
	t.done[r.Iteration] = true
	t.theta = slices.Clone(r.After)
	t.out.Pairs++
	for _, g := range r.Games {
		switch g.PlusScore {
		case 1:
			t.out.Wins++
		case 0:
			t.out.Losses++
		default:
			t.out.Draws++
		}
	}
}

// take hands out the next iteration not yet played, perturbed around theta as it is now.
func (t *tuner) take() (Perturbation, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.next <= t.cfg.Gains.Iterations && t.done[t.next] {
		t.next++
	}
	if t.next > t.cfg.Gains.Iterations {
		return Perturbation{}, false
	}
	k := t.next
	t.next++
	return Perturb(t.cfg.Params, t.cfg.Gains, t.cfg.Seed, k, t.theta), true
}

// finish applies a played pair's update to theta as it is now and writes the pair down; an
// iteration on record already is refused (ErrPlayed), so that no pair counts twice.
func (t *tuner) finish(pt Perturbation, opening string, games []Game) (*Record, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done[pt.Iteration] {
		return nil, ErrPlayed
	}
	result := 0
	for _, g := range games {
		result += int(2*g.PlusScore) - 1
	}
	r := Record{Perturbation: pt, Opening: opening, Games: games, Result: result, Before: slices.Clone(t.theta)}
	r.After = Update(t.cfg.Params, t.cfg.Gains, pt, t.theta, result)
	if err := t.log.AppendJSON(line{Record: &r}); err != nil {
		return nil, t.writeErr(err)
	}
	t.count(r)
	t.progress(r)
	if t.cfg.Observer != nil {
		t.cfg.Observer.PairFinished(&r)
	}
	return &r, nil
}

// progress prints a line every twentieth of the tune, and at its last pair.
func (t *tuner) progress(r Record) {
	n := t.cfg.Gains.Iterations
	if t.cfg.Progress == nil || (t.out.Pairs%max(1, n/20) != 0 && t.out.Pairs != n) {
		return
	}
	fmt.Fprintf(t.cfg.Progress, "Pair %d of %d (iteration %d): plus side +%d =%d -%d; %s\n",
		t.out.Pairs, n, r.Iteration, t.out.Wins, t.out.Draws, t.out.Losses, Words(t.cfg.Params, t.theta))
}

// worker plays pairs until none is left. It owns its seats: the plus and the minus engine,
// given each pair's values as options, between games or by a restart.
func (t *tuner) worker(ctx context.Context, id int) error {
	seats := t.Seats(id)
	defer seats.Close(ctx)
	for {
		pt, ok := t.take()
		if !ok {
			return nil
		}
		opening, index := t.Opening(pt.Iteration)
		recs, err := t.Play(ctx, seats, pt, opening, index)
		if err != nil {
			if errors.Is(err, arbiter.ErrInterrupted) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		games, err := t.Games(opening, recs)
		if err != nil {
			return err
		}
		if _, err := t.finish(pt, opening, games); err != nil {
			return err
		}
	}
}

// Seats are the seats of one worker of pairs, numbered id: the plus and the minus engine.
// The caller closes them.
func (p *Pairs) Seats(id int) *arbiter.Seats {
	return &arbiter.Seats{Engines: slices.Clone(p.sides[:]), GameType: mustGameType(p.cfg.GameType),
		StartTimeout: p.cfg.StartTimeout, Start: p.cfg.Start, Worker: id}
}

// Opening is the opening of iteration k's pair (the game type's start when there is no book),
// and its index in the book.
func (p *Pairs) Opening(k int) (string, int) {
	opening, index := p.book.At(k - 1)
	if opening == "" {
		opening = p.cfg.GameType
	}
	return opening, index
}

// Play plays a perturbation's pair on seats from opening, the plus side White first, and
// returns its games' records (see Games): the engines are given the values as sent, between
// games or by a restart.
func (p *Pairs) Play(ctx context.Context, seats *arbiter.Seats, pt Perturbation, opening string, index int) ([]*results.Record, error) {
	if len(pt.PlusSent) != len(p.cfg.Params) || len(pt.MinusSent) != len(p.cfg.Params) {
		return nil, fmt.Errorf("tune: a perturbation of %d and %d values for %d parameters", len(pt.PlusSent), len(pt.MinusSent), len(p.cfg.Params))
	}
	seats.Engines[0] = withValues(p.sides[0], pt.PlusSent)
	seats.Engines[1] = withValues(p.sides[1], pt.MinusSent)
	p.setValues(ctx, seats, 0, pt.PlusSent)
	p.setValues(ctx, seats, 1, pt.MinusSent)
	return p.playPair(ctx, seats, pt.Iteration, opening, index)
}

// OptionSetter is a Player whose options can be changed between games; the players of UHP
// and UGI are. Any other player is restarted with the new values.
type OptionSetter interface {
	SetOption(ctx context.Context, name, value string) error
}

// setValues gives engine e's seated player the tuned values, or, when it cannot take them
// while it runs (or refuses), drops it, so that its next seat starts it with them.
func (p *Pairs) setValues(ctx context.Context, seats *arbiter.Seats, e int, values []string) {
	setter, ok := seats.Player(e).(OptionSetter)
	for i := 0; ok && i < len(values); i++ {
		ok = setter.SetOption(ctx, p.cfg.Params[i].Name, values[i]) == nil
	}
	if !ok {
		seats.Drop(ctx, e)
	}
}

func mustGameType(s string) rules.GameType {
	gt, _ := rules.ParseGameType(s)
	return gt
}

// playPair plays iteration k's two games from opening, the plus side White first.
func (p *Pairs) playPair(ctx context.Context, seats *arbiter.Seats, k int, opening string, index int) ([]*results.Record, error) {
	var recs []*results.Record
	for _, sg := range p.Scheduled(k, opening, index) {
		white, black, err := seats.Sides(ctx, sg)
		if err != nil {
			return nil, err
		}
		gc := p.gameCfg
		gc.Index, gc.Round, gc.Pair, gc.Opening, gc.OpeningIndex = sg.Index, sg.Round, sg.Pair, opening, index
		rec, err := arbiter.PlayGame(ctx, gc, white, black)
		if err != nil {
			return nil, err
		}
		seats.Played(ctx, sg, rec)
		recs = append(recs, rec)
	}
	return recs, nil
}

// Games are a pair's games as its records say them, from the plus side's point of view. The
// records must be the pair's: two games from opening, the plus side White in the first and
// Black in the second.
func (p *Pairs) Games(opening string, recs []*results.Record) ([]Game, error) {
	if len(recs) != 2 {
		return nil, fmt.Errorf("tune: a pair of %d games, want 2", len(recs))
	}
	var games []Game
	for g, rec := range recs {
		plus, minus := p.sides[0].Name, p.sides[1].Name
		if g == 1 {
			plus, minus = minus, plus
		}
		switch {
		case rec == nil:
			return nil, fmt.Errorf("tune: game %d of the pair has no record", g+1)
		case rec.White.Name != plus || rec.Black.Name != minus:
			return nil, fmt.Errorf("tune: game %d of the pair is %s against %s, want %s against %s", g+1, rec.White.Name, rec.Black.Name, plus, minus)
		case rec.Opening != opening:
			return nil, fmt.Errorf("tune: game %d of the pair starts from %q, want %q", g+1, rec.Opening, opening)
		}
		games = append(games, Game{PlusWhite: g == 0, Result: rec.Result, Reason: string(rec.Reason), Plies: len(rec.Moves),
			PlusScore: rec.ScoreOf(p.sides[0].Name)})
	}
	return games, nil
}
