package report

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"

	"hivearbiter/tune"
)

// TuneLive serves the page of a running tune: the same charts as a tune's report, redrawn as
// each pair's update is applied (server-sent events). It is a tune.Observer and an
// http.Handler, and read-only.
type TuneLive struct {
	mu   sync.Mutex
	coll *tuneCollector // nil until the tune starts
	subs streams
}

var (
	_ tune.Observer = (*TuneLive)(nil)
	_ http.Handler  = (*TuneLive)(nil)
)

// NewTuneLive returns the live page of a tune that has not started yet.
func NewTuneLive() *TuneLive { return &TuneLive{subs: streams{}} }

// TuneStarted implements tune.Observer.
func (l *TuneLive) TuneStarted(h *tune.Header, resumed []tune.Record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.coll = newTuneCollector(h)
	for i := range resumed {
		l.coll.add(&resumed[i])
	}
	l.subs.broadcast("tune", l.coll.data())
}

// PairFinished implements tune.Observer.
func (l *TuneLive) PairFinished(r *tune.Record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.coll == nil {
		return
	}
	l.coll.add(r)
	l.subs.broadcast("tune", l.coll.data())
}

// Data returns the page's data as it stands, nil before the tune starts.
func (l *TuneLive) Data() *TuneData {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.coll == nil {
		return nil
	}
	return l.coll.data()
}

// ServeHTTP serves the page at / and its event stream at /events: a "tune" event with the
// whole page's data, first as it stands (if the tune has started) and then after every pair.
func (l *TuneLive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	servePage(w, r, "Hive Arbiter: tune", "tune-live", l.events)
}

func (l *TuneLive) events(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	var first []byte
	var err error
	if l.coll != nil {
		first, err = sseMessage("tune", l.coll.data())
	}
	ch := l.subs.add()
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.subs.remove(ch)
		l.mu.Unlock()
	}()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	serveEvents(w, r, first, ch)
}

// Serve serves the live page on ln until ctx is done.
func (l *TuneLive) Serve(ctx context.Context, ln net.Listener) error {
	return serve(ctx, ln, l, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.subs.closeAll()
	})
}

// ServeTune serves a tune's live page at addr (loopback only unless public) until stop is
// called, and tells console its address. The page is to be the tune's Observer.
func ServeTune(ctx context.Context, addr string, public bool, console io.Writer) (live *TuneLive, stop func(), err error) {
	ln, err := Listen(addr, public)
	if err != nil {
		return nil, nil, err
	}
	live = NewTuneLive()
	ctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- live.Serve(ctx, ln) }()
	fmt.Fprintf(console, "Live page at http://%s/\n", ln.Addr())
	return live, func() { cancel(); <-served }, nil
}
