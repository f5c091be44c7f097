package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"hivearbiter/results"
)

// subscriberBuffer is how many events a slow page may fall behind before it is dropped; its
// EventSource reconnects and starts again from a snapshot.
const subscriberBuffer = 1024

// keepAlive is how often an idle event stream sends a comment, so that proxies and browsers
// keep it open.
const keepAlive = 15 * time.Second

// Live serves the page of a running match: progress, standings, the LLR so far, every game in
// progress on its own board updated as moves are played (server-sent events), and the finished
// games, replayable as in a report. It is an Observer and an http.Handler, and read-only: it
// answers GET and HEAD only.
type Live struct {
	mu      sync.Mutex
	coll    *collector
	running map[int]*liveGame
	subs    streams
}

// liveGame is a game in progress: what the page has of it, and the referee's replay that
// turns each move into a delta.
type liveGame struct {
	game   Game
	replay *replay
	clocks clocks
}

var (
	_ Observer     = (*Live)(nil)
	_ http.Handler = (*Live)(nil)
)

// NewLive returns a live page for a match described by opts.
func NewLive(opts Options) *Live {
	if opts.Title == "" {
		opts.Title = "Hive Arbiter: live"
	}
	return &Live{coll: newCollector(opts), running: make(map[int]*liveGame), subs: streams{}}
}

// GameStarted adds a board for the game.
func (l *Live) GameStarted(game int, white, black results.Player, opening string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rp := newReplay(opening)
	g := Game{
		Index: game, White: l.coll.engine(white.Name), Black: l.coll.engine(black.Name), Type: rp.gameType,
		OpeningPlies: rp.opening, Deltas: rp.deltas.String(), Millis: []int64{},
	}
	if rp.err != nil {
		g.Error = rp.err.Error()
	}
	c, clocked := newClocks(white.Time, black.Time)
	if clocked {
		start, inc := c.left, c.inc
		g.StartClock, g.Increment, g.ClockDrift = &start, &inc, []int64{}
	}
	l.running[game] = &liveGame{game: g, replay: rp, clocks: c}
	l.broadcast("start", g)
}

// moveEvent is one ply of a game in progress, for the page.
type moveEvent struct {
	Game   int    `json:"n"`
	Delta  string `json:"x"`
	Millis int64  `json:"ms"`
	Drift  *int64 `json:"drift,omitempty"`
}

// MovePlayed replays the move on the game's board and sends it to the pages.
func (l *Live) MovePlayed(game int, move results.Move) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lg := l.running[game]
	if lg == nil || lg.replay.err != nil {
		return
	}
	d := lg.replay.play(move.Move)
	if lg.replay.err != nil {
		lg.game.Error = lg.replay.err.Error()
		return
	}
	g := &lg.game
	g.Millis = append(g.Millis, move.Millis)
	ev := moveEvent{Game: game, Delta: d, Millis: move.Millis}
	if g.ClockDrift != nil {
		drift := lg.clocks.drift((lg.replay.plies-1)%2, move)
		g.ClockDrift = append(g.ClockDrift, drift)
		ev.Drift = &drift
	}
	l.broadcast("move", ev)
}

// finishEvent is a finished game and the standings after it, for the page.
type finishEvent struct {
	Game Game  `json:"game"`
	Data *Data `json:"data"`
}

// GameFinished moves the game from the boards in progress to the list, and sends the new
// standings.
func (l *Live) GameFinished(rec *results.Record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, rec.Game)
	l.coll.add(rec)
	d := l.coll.data()
	d.List = nil // the page keeps its own list
	l.broadcast("finish", finishEvent{Game: l.coll.games[len(l.coll.games)-1], Data: d})
}

// Data returns the page's data as it stands: the finished games.
func (l *Live) Data() *Data {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.coll.data()
}

// broadcast sends an event to every page. The caller holds l.mu.
func (l *Live) broadcast(event string, v any) { l.subs.broadcast(event, v) }

// sseMessage encodes one server-sent event. JSON has no newline, so data is one line.
func sseMessage(event string, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("report: encoding a %s event: %w", event, err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", event, data)
	return b.Bytes(), nil
}

// snapshot is the first event of a stream: everything so far.
type snapshot struct {
	Data    *Data  `json:"data"`
	Running []Game `json:"running"`
}

// subscribe returns the snapshot and a channel of the events after it.
func (l *Live) subscribe() ([]byte, chan []byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := snapshot{Data: l.coll.data(), Running: []Game{}}
	for _, k := range slices.Sorted(maps.Keys(l.running)) {
		lg := l.running[k]
		g := lg.game
		// The deltas so far, from the replay: appending to the game's copy every ply would
		// copy them all every ply.
		g.Deltas = lg.replay.deltas.String()
		s.Running = append(s.Running, g)
	}
	msg, err := sseMessage("snapshot", s)
	if err != nil {
		return nil, nil, err
	}
	return msg, l.subs.add(), nil
}

func (l *Live) unsubscribe(ch chan []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs.remove(ch)
}

// closeStreams ends every event stream, so that a shutdown need not wait for them.
func (l *Live) closeStreams() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs.closeAll()
}

// ServeHTTP serves the page at / and its event stream at /events.
func (l *Live) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	servePage(w, r, "Hive Arbiter: live", "live", l.events)
}

func (l *Live) events(w http.ResponseWriter, r *http.Request) {
	first, ch, err := l.subscribe()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer l.unsubscribe(ch)
	serveEvents(w, r, first, ch)
}

// ErrPublicAddress refuses to serve a live page beyond this machine without being asked to.
var ErrPublicAddress = errors.New("report: the live page listens on loopback addresses only unless told otherwise")

// Listen opens the live page's listener. A host that is not a loopback address (or empty, which
// means every interface) is refused unless public is set: the page shows engine names and games
// to whoever can reach it.
func Listen(addr string, public bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("report: live page address %q: %w", addr, err)
	}
	if !public && !isLoopback(host) {
		return nil, fmt.Errorf("%w: %q", ErrPublicAddress, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return ln, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves the live page on ln until ctx is done, then closes the event streams and
// returns.
func (l *Live) Serve(ctx context.Context, ln net.Listener) error {
	return serve(ctx, ln, l, l.closeStreams)
}
