package viewerbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// A Session is "arbiter serve": the arbiter as a UHP engine toward a viewer such as
// MzingaViewer, the main session of UHP's three-engine model. The viewer's game is the
// referee's. Two player engines sit at White and Black: every move is refereed, sent to both
// and their GameStrings cross-checked, as in a match, and bestmove is answered by the engine
// whose turn it is. UHP 2.0's remote play ("newgame remote", whose "play" returns the
// opponent's reply, and "play forfeit") lets the viewer play one side against the engine of
// the other.
//
// A player that fails (crashes, stalls, desyncs, answers an illegal move) ends the game as it
// would in a match: the viewer gets err with the reason, the game is recorded with the
// player as culprit, and the player is restarted for the next newgame. Every game that ends,
// by the rules, a forfeit or a failure, is recorded as a match game is (JSON Lines and PGN).
// A game left unfinished, by a newgame or the end of the session, is not: a record is a
// result. A finished game may be taken back with undo and played on; if it ends again, that
// ending is recorded too, as a game of its own.
//
// Session implements uhpserver.Handler. The uhpserver.Server calls it one command at a time;
// it is not safe for concurrent use, except for Interrupt.
type Session struct {
	cfg         SessionConfig
	run         string
	engines     *arbiter.Seats // the engines by seat, dropped after a failure until the next newgame
	plays       rules.GameType // the widest game type both players play
	remoteGames int            // remote games started, for RemoteAlternate

	game     *arbiter.Game // the game being served; nil before the first newgame
	seats    [2]*seat      // the game's sides: g.sides[i].Player is seats[i]
	remote   int           // the viewer's side in a remote game; -1 otherwise
	over     string        // why the arbiter ended the game (forfeit, failure); "" while the rules rule
	recorded bool          // the game's present end is recorded
	hint     hint

	sink     *results.Sink // the records and the PGN, opened at the first record
	nextGame int
	writeErr error // the first record that could not be written

	searchMu  sync.Mutex
	searching driver.Player // the player whose bestmove a command waits for, for Interrupt
}

// SessionConfig configures a Session.
type SessionConfig struct {
	// Engines are the players: the first sits at White, the second at Black. In a remote game
	// the viewer takes one seat and the engine of the other seat is its opponent. Names are
	// made distinct (-1, -2) when they are not.
	Engines [2]driver.EngineConfig
	// Start starts the players: UHP engine processes unless replaced (tests use in-process
	// players).
	Start arbiter.StartFunc
	// Out is the JSON Lines file of game records, "arbiter-<run>.jsonl" by default. It is
	// opened at the first record: a session that finishes no game leaves no file.
	Out string
	// PGNOut, if set, receives every recorded game as PGN, appended.
	PGNOut string
	// TranscriptDir, if set, receives a transcript of every engine process's conversation.
	TranscriptDir string
	// Event names the games in the PGN; "Hive Arbiter serve" by default.
	Event string
	// GameType is the game type of a remote game whose viewer names none; by default, every
	// expansion that all players play.
	GameType string
	// RemoteSide is the side the viewer plays in a remote game that names none.
	RemoteSide RemoteSide
	// StartTimeout bounds an engine's start; CommandTimeout every command but bestmove;
	// DepthTimeout a depth-limited search. The defaults are a tournament's.
	StartTimeout, CommandTimeout, DepthTimeout time.Duration
	// Console, if set, receives notices for a person: games recorded, engines restarted.
	Console io.Writer
}

// RemoteSide chooses the viewer's side in a remote game. UHP 2.0 leaves the choice to the
// engine ("newgame remote" may involve matchmaking): the reply shows it, an empty game when
// the viewer moves first and a game of one move when it moves second.
type RemoteSide string

// The choices of RemoteSide.
const (
	RemoteAlternate RemoteSide = "alternate" // White in the first remote game, Black in the next, and so on
	RemoteWhite     RemoteSide = "white"
	RemoteBlack     RemoteSide = "black"
)

// ViewerName is the viewer's name in the records of remote games.
const ViewerName = "viewer"

// NewSession checks the configuration and starts both engines. The error is a *driver.ConfigError
// or an *EngineStartError.
func NewSession(ctx context.Context, cfg SessionConfig) (*Session, error) {
	engines := cfg.Engines
	for i := range engines {
		if engines[i].Name == "" && len(engines[i].Command) > 0 {
			engines[i].Name = engines[i].DefaultName()
		}
	}
	if engines[0].Name == engines[1].Name {
		// Watching an engine play itself is common enough not to insist on names.
		engines[0].Name += "-1"
		engines[1].Name += "-2"
	}
	all := arbiter.Config{Engines: engines[:]}
	if err := all.Normalize(); err != nil {
		return nil, err
	}
	cfg.Engines = engines
	fingerprint, err := all.Fingerprint()
	if err != nil {
		return nil, err
	}
	if cfg.GameType != "" {
		if _, err := rules.ParseGameType(cfg.GameType); err != nil {
			return nil, &driver.ConfigError{Msg: fmt.Sprintf("game type %q: want one of %s", cfg.GameType, rules.GameTypeList(", "))}
		}
	}
	switch cfg.RemoteSide {
	case "":
		cfg.RemoteSide = RemoteAlternate
	case RemoteAlternate, RemoteWhite, RemoteBlack:
	default:
		return nil, &driver.ConfigError{Msg: fmt.Sprintf("remote side %q: want white, black or alternate", cfg.RemoteSide)}
	}
	cfg.StartTimeout = orDefault(cfg.StartTimeout, arbiter.DefaultStartTimeout)
	cfg.CommandTimeout = orDefault(cfg.CommandTimeout, arbiter.DefaultCommandTimeout)
	cfg.DepthTimeout = orDefault(cfg.DepthTimeout, arbiter.DefaultDepthTimeout)
	if cfg.Event == "" {
		cfg.Event = "Hive Arbiter serve"
	}
	if cfg.Start == nil {
		cfg.Start = func(ctx context.Context, e driver.EngineConfig, seat int) (driver.Player, error) {
			return driver.Start(ctx, e, driver.StartEnv{Worker: seat, TranscriptDir: cfg.TranscriptDir, Grace: time.Second})
		}
	}
	// A serve session's games are a run of their own: same engines, same run, numbered on.
	run := "serve-" + fingerprint
	if cfg.Out == "" {
		cfg.Out = "arbiter-" + run + ".jsonl"
	}
	s := &Session{cfg: cfg, run: run, remote: -1}
	// The seat pool starts an engine for the side it sits at (its name, which is distinct); a
	// seat is checked against the game types only at newgame, which names them.
	s.engines = &arbiter.Seats{Engines: cfg.Engines[:], StartTimeout: cfg.StartTimeout,
		Start: func(ctx context.Context, e driver.EngineConfig, _ int) (driver.Player, error) {
			side := 0
			if e.Name == cfg.Engines[1].Name {
				side = 1
			}
			return cfg.Start(ctx, e, side)
		}}
	for side := range cfg.Engines {
		if _, err := s.engines.Seat(ctx, side); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	s.plays = s.commonExpansions()
	if s.cfg.GameType == "" {
		s.cfg.GameType = s.plays.String()
	}
	return s, nil
}

// orDefault is d, or def when d is not positive.
func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// drop closes a seat's engine after a failure; the next newgame starts it again.
func (s *Session) drop(ctx context.Context, side int) {
	if s.engines.Player(side) == nil {
		return
	}
	s.engines.Drop(ctx, side)
	s.notice("%s stopped; it will be restarted for the next game", s.cfg.Engines[side].Name)
}

// Close ends both engines and closes the record files. It returns an error if a record could
// not be written.
func (s *Session) Close(ctx context.Context) error {
	s.engines.Close(ctx)
	err := s.writeErr
	if s.sink != nil {
		err = errors.Join(err, s.sink.Close())
		s.sink = nil
	}
	return err
}

// Run is the fingerprint of the session's engines that its records carry, "serve-...".
func (s *Session) Run() string { return s.run }

// Out is the records file.
func (s *Session) Out() string { return s.cfg.Out }

// Info implements uhpserver.Handler: the id names both players.
func (s *Session) Info() uhpserver.Info {
	return uhpserver.Info{
		ID:           fmt.Sprintf("Hive Arbiter serve v%s (players: %s vs %s)", arbiter.Version, s.cfg.Engines[0].Name, s.cfg.Engines[1].Name),
		Capabilities: capabilities(s.plays),
	}
}

// commonExpansions is the widest game type that every player plays. A player that does not
// say which expansions it plays (a UGI engine, say) is offered every game type, as in a
// tournament: it fails the game if it cannot play it.
func (s *Session) commonExpansions() rules.GameType {
	common := rules.BaseMLP
	for side := range s.cfg.Engines {
		if info := s.engines.Player(side).Info(); info.ExpansionsKnown {
			common &= info.Expansions
		}
	}
	return common
}

// capabilities writes a game type's expansions as a UHP capabilities list.
func capabilities(t rules.GameType) []string {
	var names []string
	for _, b := range t.Expansions() {
		names = append(names, b.String())
	}
	return names
}

// seat is an engine's side of a served game: its searches can be interrupted by the viewer.
type seat struct {
	driver.Player
	session *Session
}

func (s *seat) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	return s.session.search(ctx, s.Player, limit)
}

// viewerSide is the viewer's own side in a remote game: no engine stands behind it, and the
// viewer's moves are committed to the game directly, so it keeps and reports no state.
type viewerSide struct{}

func (viewerSide) Info() driver.PlayerInfo                         { return driver.PlayerInfo{} }
func (viewerSide) NewGame(context.Context, string) (string, error) { return "", nil }
func (viewerSide) Play(context.Context, string) (string, error)    { return "", nil }
func (viewerSide) Close(context.Context) error                     { return nil }
func (viewerSide) BestMove(context.Context, driver.SearchLimit) (string, error) {
	return "", errors.New("serve: the viewer makes its own moves")
}

// hint is the last move an engine suggested, so that the record can give the move its
// thinking time when the viewer plays it.
type hint struct {
	ply    int
	hash   uint64
	move   string
	millis int64
}

// newGameRequest is what a newgame asks for.
type newGameRequest struct {
	remote   bool
	side     int            // remote: the viewer's side, or -1 for the session's choice
	gameType rules.GameType // remote: the game type, if hasType
	hasType  bool
	start    *rules.Game // otherwise: the game to start from
}

// parseNewGame reads the argument of newgame: nothing (a Base game), a GameTypeString, a
// GameString, or "remote" optionally followed by a side (White or Black) and a
// GameTypeString, in any order.
func parseNewGame(arg string) (newGameRequest, error) {
	words := strings.Fields(arg)
	if len(words) == 0 || !strings.EqualFold(words[0], "remote") {
		if arg == "" {
			arg = rules.Base.String()
		}
		g, err := rules.ParseGameString(arg)
		if err != nil {
			return newGameRequest{}, &uhpserver.Error{Message: gameStringMessage(arg, err)}
		}
		return newGameRequest{start: g, side: -1}, nil
	}
	req := newGameRequest{remote: true, side: -1}
	for _, w := range words[1:] {
		t, err := rules.ParseGameType(w)
		switch {
		case strings.EqualFold(w, "white") && req.side < 0:
			req.side = 0
		case strings.EqualFold(w, "black") && req.side < 0:
			req.side = 1
		case err == nil && !req.hasType:
			req.gameType, req.hasType = t, true
		default:
			return newGameRequest{}, &uhpserver.Error{Message: fmt.Sprintf("Unable to parse '%s': newgame remote takes at most a side (White or Black) and a GameTypeString.", w)}
		}
	}
	return req, nil
}

// gameStringMessage explains a GameString the referee cannot load, in Mzinga's manner.
func gameStringMessage(arg string, err error) string {
	var gse *rules.GameStringError
	var invalid *rules.InvalidMoveError
	switch {
	case errors.As(err, &invalid) && errors.As(err, &gse):
		return fmt.Sprintf("Unable to play '%s' in GameString: %s", strings.TrimSpace(gse.Text), invalid.Reason)
	case errors.As(err, &gse):
		return fmt.Sprintf("Unable to parse '%s' in GameString.", strings.TrimSpace(gse.Text))
	}
	return fmt.Sprintf("Unable to parse GameString '%s'.", arg)
}

// NewGame implements uhpserver.Handler. A game in progress is left unrecorded; a newgame
// refused for its argument leaves it as it was, as in Mzinga.
func (s *Session) NewGame(ctx context.Context, arg string) (string, error) {
	req, err := parseNewGame(arg)
	if err != nil {
		return "", err
	}
	start, viewer := req.start, -1
	if req.remote {
		t, _ := rules.ParseGameType(s.cfg.GameType)
		if req.hasType {
			t = req.gameType
		}
		start, viewer = rules.NewGame(t), req.side
		if viewer < 0 {
			viewer = s.remoteSide()
		}
	}
	if missing := start.GameType().Missing(s.plays); len(missing) > 0 {
		return "", &uhpserver.Error{Message: fmt.Sprintf("Not every player plays %s: together they play %s.", start.GameType(), capabilityText(capabilities(s.plays)))}
	}
	for side := range s.cfg.Engines {
		if s.game != nil && s.cfg.Engines[side].Restart {
			s.engines.Drop(ctx, side) // restart=on: a fresh process for every game
		}
		if side != viewer {
			if _, err := s.engines.Seat(ctx, side); err != nil {
				return "", &uhpserver.Error{Message: err.Error()}
			}
		}
	}
	s.begin(start, viewer)
	if !s.game.Load(ctx, start.GameString()) {
		// No move was played: a game that never began is not recorded.
		detail := s.game.Record().Detail
		s.dropCulprit(ctx)
		s.game = nil
		return "", &uhpserver.Error{Message: detail}
	}
	if req.remote {
		s.remoteGames++
		if viewer != int(start.ToMove()) {
			if _, _, err := s.reply(ctx); err != nil {
				return "", err
			}
		}
	}
	return s.game.GameString(), nil
}

func capabilityText(caps []string) string {
	if len(caps) == 0 {
		return "Base only"
	}
	return "Base and " + strings.Join(caps, ", ")
}

// remoteSide is the session's choice of the viewer's side for a remote game.
func (s *Session) remoteSide() int {
	switch s.cfg.RemoteSide {
	case RemoteWhite:
		return 0
	case RemoteBlack:
		return 1
	}
	return s.remoteGames % 2
}

// begin sets up the game of a newgame; viewer is the viewer's side in a remote game, or -1.
func (s *Session) begin(start *rules.Game, viewer int) {
	opening := start.GameString()
	cfg := arbiter.GameConfig{Run: s.run, Round: 1, Opening: opening, OpeningIndex: -1,
		CommandTimeout: s.cfg.CommandTimeout, DepthTimeout: s.cfg.DepthTimeout}
	var sides [2]arbiter.Side
	for side := range sides {
		e := s.cfg.Engines[side]
		if side == viewer {
			s.seats[side] = nil
			sides[side] = arbiter.Side{Name: ViewerName, Player: viewerSide{}}
			continue
		}
		s.seats[side] = &seat{Player: s.engines.Player(side), session: s}
		sides[side] = arbiter.Side{Name: e.Name, Player: s.seats[side], Margin: e.Margin}
		if viewer >= 0 {
			// Against the viewer the engine plays on its own time control; watched games run
			// on the viewer's limits instead.
			sides[side].Time = e.Time
		}
	}
	g, err := arbiter.NewGame(cfg, sides[0], sides[1])
	if err != nil {
		// start is a game the referee holds: its GameString always loads.
		panic(fmt.Sprintf("serve: the referee's own game does not load: %v", err))
	}
	s.game, s.remote, s.over, s.hint = g, viewer, "", hint{}
	s.recorded = start.State().IsOver() // a finished game loaded by newgame is not a result of ours
}

// dropCulprit restarts the engine that the record blames.
func (s *Session) dropCulprit(ctx context.Context) {
	culprit := s.game.Record().Culprit
	for side := range s.cfg.Engines {
		if culprit == rules.Color(side).String() && side != s.remote {
			s.drop(ctx, side)
		}
	}
}

// live returns the game if there is one to move in.
func (s *Session) live() (*arbiter.Game, error) {
	switch {
	case s.game == nil:
		return nil, &uhpserver.Error{Message: uhpserver.ErrNoGame}
	case s.over != "":
		return nil, s.overError()
	case s.game.State().IsOver():
		return nil, &uhpserver.Error{Message: uhpserver.ErrGameOver}
	}
	return s.game, nil
}

func (s *Session) overError() error {
	return &uhpserver.Error{Message: fmt.Sprintf("The game is over: %s. Try 'newgame' to start a new game.", strings.TrimSuffix(s.over, "."))}
}

// Play implements uhpserver.Handler: "pass", "forfeit" or a MoveString. In a remote game the
// reply holds the GameString after the viewer's move, then the opponent's move and the
// GameString after it.
func (s *Session) Play(ctx context.Context, move string) (string, error) {
	g, err := s.live()
	if err != nil {
		return "", err
	}
	if strings.EqualFold(move, "forfeit") {
		return s.forfeit(), nil
	}
	if _, err := g.Referee(move); err != nil {
		var invalid *rules.InvalidMoveError
		if errors.As(err, &invalid) {
			return "", &uhpserver.InvalidMoveError{Message: invalid.Reason}
		}
		return "", &uhpserver.InvalidMoveError{Message: fmt.Sprintf("Unable to parse move \"%s\".", move)}
	}
	gs, err := s.commit(ctx, move)
	if err != nil || s.remote < 0 || g.State().IsOver() {
		return gs, err
	}
	answer, after, err := s.reply(ctx)
	if err != nil {
		return "", err
	}
	return gs + "\n" + answer + "\n" + after, nil
}

// commit plays a legal move of the viewer's: the referee plays it and both players are sent it.
// A move an engine suggested just before keeps the time the engine took.
func (s *Session) commit(ctx context.Context, move string) (string, error) {
	g := s.game
	before := g.Position()
	var used time.Duration
	if h := s.hint; h.ply == before.Ply() && h.hash == before.Hash() {
		if canonical, err := g.Referee(move); err == nil && canonical == h.move {
			used = time.Duration(h.millis) * time.Millisecond
		}
	}
	s.hint = hint{}
	if !g.Commit(ctx, move, used) {
		return "", s.failed(ctx)
	}
	s.ended()
	return g.GameString(), nil
}

// reply has the engine to move in a remote game search, on its own time control, and plays
// its move as in a match.
func (s *Session) reply(ctx context.Context) (move, gameString string, err error) {
	g := s.game
	if !g.Step(ctx) && !(g.Over() && g.State().IsOver()) {
		return "", "", s.failed(ctx)
	}
	s.ended()
	last, _ := g.LastMove()
	return last.Move, g.GameString(), nil
}

// forfeit ends the game as a loss for the side to move, and returns the GameString with the
// result in its state field.
func (s *Session) forfeit() string {
	g := s.game
	side := g.ToMove()
	name := ViewerName
	if side != s.remote {
		name = s.cfg.Engines[side].Name
	}
	g.Forfeit(side, results.ReasonForfeit, fmt.Sprintf("%s (%s) forfeited", rules.Color(side).String(), name))
	r := g.Record()
	s.over = r.Detail
	s.record()
	fields := strings.SplitN(g.GameString(), ";", 3)
	fields[1] = r.Result
	return strings.Join(fields, ";")
}

// failed ends the game after a player's failure, which the game wrote into its record: it
// records the game, restarts the culprit and returns the err the viewer sees.
func (s *Session) failed(ctx context.Context) error {
	r := s.game.Record()
	if r.Result == "" {
		// ctx ended under a command: the players are in unknown states, and nobody is to blame.
		for side := range s.cfg.Engines {
			if side != s.remote {
				s.drop(ctx, side)
			}
		}
		s.over = "it was interrupted"
		return &uhpserver.Error{Message: "The game was interrupted: " + context.Cause(ctx).Error()}
	}
	s.over = r.Detail
	s.dropCulprit(ctx)
	s.record()
	return &uhpserver.Error{Message: fmt.Sprintf("%s. The game ends %s (%s). Try 'newgame' to start a new game.",
		strings.TrimSuffix(r.Detail, "."), r.Result, r.Reason)}
}

// ended records the game once the rules have ended it.
func (s *Session) ended() {
	if !s.recorded && s.game.State().IsOver() {
		s.game.Adjudicate()
		s.record()
	}
}

// record writes the game's end to the records file and the PGN.
func (s *Session) record() {
	s.recorded = true
	r := s.game.Record()
	r.Finished = time.Now().UTC()
	if err := s.write(r); err != nil {
		s.notice("%v", err)
		if s.writeErr == nil {
			s.writeErr = err
		}
		return
	}
	s.notice("recorded game %d (%s vs %s) in %s: %s {%s}", r.Game+1, r.White.Name, r.Black.Name, s.cfg.Out, r.Result, r.Detail)
}

func (s *Session) write(r *results.Record) error {
	if s.sink == nil {
		// The records are read one at a time, as a tournament resuming reads them: a file of any
		// length costs the memory of one record. The PGN, if any, is appended to.
		opts := results.SinkOptions{PGN: s.cfg.PGNOut, Event: s.cfg.Event}
		sink, err := results.OpenSink(s.cfg.Out, opts, func(e *results.Record) error {
			if e.Run == s.run {
				s.nextGame = max(s.nextGame, e.Game+1)
			}
			return nil
		})
		if err != nil {
			return err
		}
		s.sink = sink
	}
	r.Game, r.Pair = s.nextGame, s.nextGame
	err := s.sink.Append(r)
	var pgnErr *results.PGNWriteError
	if err == nil || errors.As(err, &pgnErr) {
		s.nextGame++ // the record is written
	}
	return err
}

func (s *Session) notice(format string, args ...any) {
	if s.cfg.Console != nil {
		fmt.Fprintf(s.cfg.Console, "arbiter serve: "+format+"\n", args...)
	}
}

// ValidMoves implements uhpserver.Handler, from the referee.
func (s *Session) ValidMoves(context.Context) (string, error) {
	g, err := s.live()
	if err != nil {
		return "", err
	}
	return strings.Join(g.Position().ValidMoveStrings(), ";"), nil
}

// BestMove implements uhpserver.Handler: the engine whose turn it is searches, within the
// viewer's limit or else its own time control, and its answer is checked by the referee but
// not played: the viewer plays it, or not.
func (s *Session) BestMove(ctx context.Context, viewerLimit uhpserver.BestMoveArgs) (string, error) {
	g, err := s.live()
	if err != nil {
		return "", err
	}
	side := g.ToMove()
	if side == s.remote {
		return "", &uhpserver.Error{Message: "In a remote game you make your own moves: bestmove is not available."}
	}
	limit, wait := s.searchLimit(side, viewerLimit)
	before := g.Position()
	move, used, ok := g.Think(ctx, s.seats[side], limit, wait)
	if !ok {
		return "", s.failed(ctx)
	}
	s.hint = hint{ply: before.Ply(), hash: before.Hash(), move: move, millis: used.Milliseconds()}
	return move, nil
}

// Interrupt stops the engine search that a command is waiting for (a viewer's bestmove, or an
// engine's reply in a remote game), as the viewer's Ctrl-C asks: the engine answers its best
// move so far, and the command goes on with it. It does nothing when no search runs. It is
// safe to call from any goroutine, while a command runs.
func (s *Session) Interrupt() {
	s.searchMu.Lock()
	p := s.searching
	s.searchMu.Unlock()
	if i, ok := p.(driver.Interrupter); ok {
		i.Interrupt()
	}
}

// search runs a player's bestmove where Interrupt can reach it.
func (s *Session) search(ctx context.Context, p driver.Player, limit driver.SearchLimit) (string, error) {
	s.searchMu.Lock()
	s.searching = p
	s.searchMu.Unlock()
	defer func() {
		s.searchMu.Lock()
		s.searching = nil
		s.searchMu.Unlock()
	}()
	return p.BestMove(ctx, limit)
}

// searchLimit is the limit a seat's engine searches under, and how long to wait for it: the
// viewer's limit, or else the engine's time control (a clock gives the budget of a first
// move, since a watched game has no clock). A timed search may end late by the engine's
// margin; the UHP client sends whole seconds, at least one, unless the engine takes fractions.
func (s *Session) searchLimit(side int, viewer uhpserver.BestMoveArgs) (driver.SearchLimit, time.Duration) {
	e := s.cfg.Engines[side]
	limit := driver.SearchLimit{Time: viewer.Time, Depth: viewer.Depth}
	if limit == (driver.SearchLimit{}) {
		limit = driver.SearchLimit{Time: driver.NewClock(e.Time, e.Time, 0, 0).Budget(0), Depth: e.Time.Depth, Nodes: e.Time.Nodes}
	}
	if limit.Depth > 0 || limit.Nodes > 0 {
		return driver.SearchLimit{Depth: limit.Depth, Nodes: limit.Nodes}, s.cfg.DepthTimeout
	}
	sent := limit.Time
	if e.ProtocolName() == "uhp" && e.Setting("fractional") != "true" {
		sent = max(sent.Truncate(time.Second), time.Second)
	}
	return limit, sent + e.Margin
}

// Undo implements uhpserver.Handler: the referee takes the plies back and both players are
// sent the game as it then stands. In a remote game the viewer must be left to move.
func (s *Session) Undo(ctx context.Context, plies int) (string, error) {
	switch {
	case s.game == nil:
		return "", &uhpserver.Error{Message: uhpserver.ErrNoGame}
	case s.over != "":
		return "", s.overError()
	}
	g := s.game
	back := g.Position()
	if err := back.Undo(plies); err != nil {
		return "", &uhpserver.Error{Message: fmt.Sprintf("Unable to undo %d moves.", plies)}
	}
	if s.remote >= 0 && int(back.ToMove()) != s.remote {
		return "", &uhpserver.Error{Message: fmt.Sprintf("Unable to undo %d moves: in a remote game you (%s) must be left to move.", plies, rules.Color(s.remote).String())}
	}
	if err := g.Undo(plies); err != nil {
		return "", &uhpserver.Error{Message: fmt.Sprintf("Unable to undo %d moves.", plies)}
	}
	s.recorded, s.hint = false, hint{}
	if !g.Load(ctx, g.GameString()) {
		return "", s.failed(ctx)
	}
	return g.GameString(), nil
}

// Options implements uhpserver.Handler: the session has none of its own.
func (s *Session) Options() []uhpserver.Option { return nil }

// GetOption implements uhpserver.Handler.
func (s *Session) GetOption(name string) (uhpserver.Option, error) {
	return uhpserver.Option{}, &uhpserver.Error{Message: fmt.Sprintf("The option \"%s\" is not valid.", name)}
}

// SetOption implements uhpserver.Handler.
func (s *Session) SetOption(name, _ string) (uhpserver.Option, error) {
	return s.GetOption(name)
}

var _ uhpserver.Handler = (*Session)(nil)
