package arbiter

import (
	"context"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// closeTimeout bounds how long a player is given to close (it asks politely, waits its grace,
// then kills); a run that is stopping still closes its players, so it is not ctx's to cut short.
const closeTimeout = 5 * time.Second

// Seats are the players of one worker of a runner (a worker of the LocalRunner, or one slot of
// a NATS worker): one per engine of the run, started when a game first needs it, checked
// against the run's game type before it plays, restarted for its next game after it
// misbehaved in one, or before every game when its engine asks for restart=on, and closed when
// the worker ends. A Seats belongs to one worker: it is not safe for concurrent use.
type Seats struct {
	// Engines are the run's engines, as this machine starts them.
	Engines []driver.EngineConfig
	// GameType is the run's game type: a player that says it plays less is not seated.
	GameType rules.GameType
	// StartTimeout bounds a player's start and handshake (none but ctx's if 0).
	StartTimeout time.Duration
	// Start starts a player through its protocol.
	Start StartFunc
	// Worker numbers the worker, for the players' transcripts.
	Worker int

	players map[int]driver.Player
}

// Seats is a seat pool for one of the tournament's workers, starting players with the Start of its options.
func (t *Tournament) Seats(worker int) *Seats {
	return &Seats{Engines: t.cfg.Engines, GameType: t.gameType, StartTimeout: t.cfg.StartTimeout, Start: t.opts.Start, Worker: worker}
}

// StartThroughProtocol is a StartFunc that starts players through their protocols
// (driver.Start), writing their transcripts to transcriptDir if it is not empty. What the
// protocols learn of an engine by asking it (UHP's time probe) is kept for the players this
// StartFunc starts, and no longer: a run makes one for all its seats, so that an engine rebuilt
// between two runs of a long-lived worker is asked again.
func StartThroughProtocol(transcriptDir string) StartFunc {
	memo := new(driver.Memo)
	return func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
		return driver.Start(ctx, e, driver.StartEnv{Worker: worker, TranscriptDir: transcriptDir, Grace: time.Second, Memo: memo})
	}
}

// Seat returns engine e's player, started if it has none. An engine that cannot start, or
// that does not play the run's game type (it would lose every game on its first newgame, so
// it is said once, before any game), is an *EngineStartError; an ended ctx is ctx's error.
func (s *Seats) Seat(ctx context.Context, e int) (driver.Player, error) {
	if p := s.players[e]; p != nil {
		return p, nil
	}
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if s.StartTimeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, s.StartTimeout)
	}
	defer cancel()
	engine := s.Engines[e]
	p, err := s.Start(sctx, engine, s.Worker)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &EngineStartError{Engine: engine.Name, Err: err}
	}
	if err := checkExpansions(s.GameType, p.Info()); err != nil {
		closePlayer(ctx, p)
		return nil, &EngineStartError{Engine: engine.Name, Err: err, Refused: true}
	}
	if s.players == nil {
		s.players = make(map[int]driver.Player)
	}
	s.players[e] = p
	return p, nil
}

// Player returns engine e's player if it is seated, nil if it is not (not yet started, or
// dropped after a fault).
func (s *Seats) Player(e int) driver.Player { return s.players[e] }

// Sides seats the two players of a scheduled game, under their engines' names and time
// controls.
func (s *Seats) Sides(ctx context.Context, g ScheduledGame) (white, black Side, err error) {
	wp, err := s.Seat(ctx, g.White)
	if err != nil {
		return Side{}, Side{}, err
	}
	bp, err := s.Seat(ctx, g.Black)
	if err != nil {
		return Side{}, Side{}, err
	}
	return s.side(g.White, wp), s.side(g.Black, bp), nil
}

// side is engine e's side of a game, played by p.
func (s *Seats) side(e int, p driver.Player) Side {
	c := s.Engines[e]
	return Side{Name: c.Name, Player: p, Time: c.Time, Margin: c.Margin}
}

// Played is told how a game ended. An engine that misbehaved is restarted for its next game:
// it may be hung, dead or holding a game that is not the referee's. An engine with restart=on
// gets a fresh process for every game.
func (s *Seats) Played(ctx context.Context, g ScheduledGame, r *results.Record) {
	for side, e := range [2]int{g.White, g.Black} {
		if r.Culprit == rules.Color(side).String() || s.Engines[e].Restart {
			s.Drop(ctx, e)
		}
	}
}

// Drop closes engine e's player, if it has one: its next seat starts a new one.
func (s *Seats) Drop(ctx context.Context, e int) {
	if p := s.players[e]; p != nil {
		closePlayer(ctx, p)
		delete(s.players, e)
	}
}

// Close closes every player.
func (s *Seats) Close(ctx context.Context) {
	for e := range s.players {
		s.Drop(ctx, e)
	}
}

// closePlayer closes a player within closeTimeout, even when ctx has ended.
func closePlayer(ctx context.Context, p driver.Player) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
	defer cancel()
	p.Close(cctx)
}
