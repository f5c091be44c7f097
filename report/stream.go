package report

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// streams are the event streams of a live page's readers. The page guards them with its own
// lock, so that a reader's snapshot and the events after it are taken in one step.
type streams map[chan []byte]struct{}

// broadcast sends an event to every reader; one too far behind is dropped (it reconnects).
func (s streams) broadcast(event string, v any) {
	if len(s) == 0 {
		return
	}
	msg, err := sseMessage(event, v)
	if err != nil {
		return
	}
	for ch := range s {
		select {
		case ch <- msg:
		default:
			delete(s, ch)
			close(ch)
		}
	}
}

// add opens a reader's stream.
func (s streams) add() chan []byte {
	ch := make(chan []byte, subscriberBuffer)
	s[ch] = struct{}{}
	return ch
}

// remove closes a reader's stream, if it is still open.
func (s streams) remove(ch chan []byte) {
	if _, ok := s[ch]; ok {
		delete(s, ch)
		close(ch)
	}
}

// closeAll closes every stream, so that a shutdown need not wait for them.
func (s streams) closeAll() {
	for ch := range s {
		s.remove(ch)
	}
}

// servePage serves a live page, read-only: its HTML at / and its event stream at /events.
func servePage(w http.ResponseWriter, r *http.Request, title, mode string, events http.HandlerFunc) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "read-only", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		page(w, title, mode, "")
	case "/events":
		events(w, r)
	default:
		http.NotFound(w, r)
	}
}

// serveEvents writes a reader's stream: first, then each event of ch, with a comment now and
// then to keep an idle stream open, until the reader goes or ch is closed.
func serveEvents(w http.ResponseWriter, r *http.Request, first []byte, ch chan []byte) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(first)
	flusher.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
			flusher.Flush()
		case msg, ok := <-ch:
			if !ok {
				return // dropped for falling behind: the page reconnects
			}
			if _, err := w.Write(msg); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}

// serve serves h on ln until ctx is done, then calls closeStreams, shuts down and returns.
func serve(ctx context.Context, ln net.Listener, h http.Handler, closeStreams func()) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(closeStreams)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("report: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
