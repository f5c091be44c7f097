package lines

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// Conn is the arbiter's side of a conversation with a program over its pipes: lines written
// to its input and read from its output, each wait bounded by the context of the exchange in
// progress (Begin).
//
// Where the output takes a read deadline (a pipe on Linux and the other Unix systems), the
// caller's goroutine reads it, as a plain loop would: a goroutine that reads each line and
// hands it over a channel costs a wake-up of the caller per line, which was more than the
// rest of the arbiter's work on a ply together (docs/performance.md). Elsewhere (pipes on
// Windows) a goroutine reads the output, as Send does, and the caller waits on its channel.
//
// Either way every line is given to the log as it is read, a line over the bound comes with
// ErrTooLong, and the output's end, a read error or the program's exit included, is io.EOF
// from then on. Output that the program leaves when it exits, while no exchange reads, is
// read then (up to the 64 lines a reading goroutine would have queued), so that its last
// words reach the log and the next exchange.
type Conn struct {
	w   DeadlineWriter
	max int
	log func(line string)

	ready chan struct{} // closed once Serve has chosen how the output is read

	// Read in the caller's goroutine: rd is the output, or nil.
	mu      sync.Mutex // held by whoever reads r
	r       *Reader
	rd      readDeadliner
	pending []Line        // lines read at the program's exit, for the next exchange
	ended   bool          // the output ended: io.EOF from now on
	endedc  chan struct{} // closed when ended is set

	// Read by Serve's goroutine: its lines, closed at the end of the output.
	lines chan Line

	// The exchange in progress.
	ctx       context.Context
	stop      func() bool   // stops the hook that runs when ctx ends
	fired     chan struct{} // the hook, once it ran, says so here
	cancelled func()        // the hook, made once
	cut       bool          // the hook ran: the pipes' deadlines are in the past

	// Where the caller reads, an exchange gets its hook only once Serve finds it running
	// (hook): Serve looks every watchDelay while watch runs, from the first exchange after
	// it stopped (watching) until there is no exchange left to hook. watchMu guards ctx,
	// stop, watching and serving against Serve.
	watchMu  sync.Mutex
	watch    *time.Ticker
	watching bool
	serving  bool // Serve still watches
}

// watchDelay is how often Serve looks for an exchange in progress to watch its context's end.
// Most exchanges end sooner (an engine's answer to play, or to a shallow search), and a hook
// on a context, set and stopped for each of them, was a tenth of what the arbiter spent on a
// ply, its allocations more than a third of the ply's (docs/performance.md); a timer reset by
// each exchange cost twice as much, as each woke the thread that polls the pipes. A context
// that ends before its exchange is watched is seen within watchDelay.
const watchDelay = 10 * time.Millisecond

type readDeadliner interface {
	SetReadDeadline(t time.Time) error
}

// queued is how many lines a reading goroutine reads ahead of the caller, and how many a
// program's exit leaves for the next exchange.
const queued = 64

// NewConn returns a Conn that writes to w and reads lines of at most maxBytes (zero or less:
// DefaultMaxBytes) from the output that Serve is given, passing each to log if not nil.
func NewConn(w DeadlineWriter, maxBytes int, log func(line string)) *Conn {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	c := &Conn{w: w, max: maxBytes, log: log, ready: make(chan struct{}),
		endedc: make(chan struct{}), fired: make(chan struct{}, 1)}
	c.cancelled = c.cutShort
	return c
}

// Serve takes the program's output and returns once it is no longer read: it ended, killed
// was closed, or the program exited (exited closed) and what it left was read. It is the
// reading goroutine of package proc (proc.Config.Stdout), which waits for it; a Conn needs
// it before its first exchange. Until it returns it watches the exchanges that the caller
// reads, each once it has run a while (watchDelay).
func (c *Conn) Serve(r io.Reader, killed, exited <-chan struct{}) {
	if rd, ok := r.(readDeadliner); ok && rd.SetReadDeadline(time.Time{}) == nil {
		c.r, c.rd = NewReader(r, c.max), rd
		c.watch, c.serving = time.NewTicker(watchDelay), true
		c.watch.Stop() // until the first exchange
		close(c.ready)
		defer func() {
			c.watchMu.Lock()
			c.watch.Stop()
			c.serving = false
			c.watchMu.Unlock()
		}()
		for {
			select {
			case <-killed:
				return
			case <-c.endedc:
				return
			case <-exited:
				c.drain(killed)
				return
			case <-c.watch.C:
				c.hook()
			}
		}
	}
	c.lines = make(chan Line, queued)
	close(c.ready)
	Send(r, c.max, c.lines, killed, c.log)
}

// drain reads what a program that exited left, for the next exchange, unless it was killed.
func (c *Conn) drain(killed <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for !c.ended && len(c.pending) < queued {
		select {
		case <-killed:
			return
		default:
		}
		l, err := c.read()
		if err != nil {
			return
		}
		c.pending = append(c.pending, l)
	}
}

// Begin starts an exchange bounded by ctx, ending the one in progress: until End, a write or
// a read returns once ctx ends (where the caller reads, once ctx ends and watchDelay at the
// most has passed since Begin), a read with ctx's error. It waits for Serve to have taken
// the output, which it does as soon as it runs.
func (c *Conn) Begin(ctx context.Context) {
	c.End()
	<-c.ready
	if c.cut {
		c.cut = false
		c.w.SetWriteDeadline(time.Time{})
		if c.rd != nil {
			c.rd.SetReadDeadline(time.Time{})
		}
	}
	// From here on Serve may hook the exchange, and the hook run at once. The pipes get no
	// deadline of their own: the hook runs at the context's deadline as well as at its
	// cancellation.
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	c.ctx = ctx
	switch {
	case c.serving:
		if !c.watching {
			c.watching = true
			c.watch.Reset(watchDelay)
		}
	case ctx.Done() != nil:
		// Nothing watches: a goroutine reads, and ReadLine waits on ctx.Done, or Serve has
		// returned. The hook, for the writes, is set at once.
		c.stop = context.AfterFunc(ctx, c.cancelled)
	}
}

// hook sets the hook of the exchange in progress, if it has none, and stops the watch once
// there is nothing to hook; Serve runs it every watchDelay. In a fast game the watch runs
// on, at each look an exchange in progress or one about to begin; between games, and for a
// long search once it is hooked, it stops, and the next exchange starts it again.
func (c *Conn) hook() {
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	if c.ctx != nil && c.stop == nil {
		c.stop = context.AfterFunc(c.ctx, c.cancelled)
		return
	}
	c.watch.Stop()
	c.watching = false
}

// cutShort ends the waits of an exchange whose context ended.
func (c *Conn) cutShort() {
	past := time.Unix(1, 0)
	c.w.SetWriteDeadline(past)
	if c.rd != nil {
		c.rd.SetReadDeadline(past)
	}
	c.cut = true
	c.fired <- struct{}{}
}

// End ends the exchange in progress, if any. It returns once a cancellation that began has
// set its deadlines, so that one running late cannot cut the next exchange short.
func (c *Conn) End() {
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	if c.stop != nil && !c.stop() {
		<-c.fired
	}
	c.ctx, c.stop = nil, nil
}

// Write writes p to the program's input. A program that stops reading fills its pipe: the
// exchange's context ending then cuts the write short, with os.ErrDeadlineExceeded.
func (c *Conn) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		c.contextEnded()
	}
	return n, err
}

// ReadLine returns the next line the program printed, or its start with ErrTooLong in
// Line.Err; io.EOF once the output ended; the context's error once the exchange's context
// ended.
func (c *Conn) ReadLine() (Line, error) {
	if c.ctx == nil {
		return Line{}, errors.New("lines: a read outside an exchange")
	}
	if c.rd == nil {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return Line{}, io.EOF
			}
			return l, nil
		case <-c.ctx.Done():
			return Line{}, c.ctx.Err()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) > 0 {
		l := c.pending[0]
		c.pending = c.pending[1:]
		return l, nil
	}
	l, err := c.read()
	if errors.Is(err, os.ErrDeadlineExceeded) && c.contextEnded() {
		return Line{}, c.ctx.Err()
	}
	return l, err
}

// Partial is the start of a line the program printed without its end, which the last read
// that its exchange's context cut short left behind (Reader.Partial): the mark of output that
// lacks a newline, or waits in an unflushed buffer. Where a goroutine reads the output it is
// always empty.
func (c *Conn) Partial() string {
	if c.rd == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.r.Partial()
}

// contextEnded reports whether a deadline that cut a wait short was set as the exchange's
// context ended.
func (c *Conn) contextEnded() bool { return c.ctx != nil && c.ctx.Err() != nil }

// read reads a line in the caller's goroutine; c.mu is held. Any error but a deadline ends
// the output.
func (c *Conn) read() (Line, error) {
	if c.ended {
		return Line{}, io.EOF
	}
	text, err := c.r.ReadLine()
	switch {
	case err == nil || errors.Is(err, ErrTooLong):
		logLine(c.log, text, err)
		return Line{Text: text, Err: err}, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return Line{}, err
	}
	c.ended = true
	close(c.endedc)
	return Line{}, io.EOF
}

// logLine gives log a line read, a cut one marked as such.
func logLine(log func(string), text string, err error) {
	switch {
	case log == nil:
	case err != nil:
		log(text + " [line cut: over the length limit]")
	default:
		log(text)
	}
}
