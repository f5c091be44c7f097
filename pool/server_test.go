package pool

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestCloseWithRequestsInFlight: a server closed while submits, pauses and resumes, runs
// lists and tune pairs are asked of it neither panics nor (under -race) races with its
// handlers, and no run is admitted after Close returns. (TestCloseWaitsForHandlers shows
// deterministically what this shows only by chance.)
func TestCloseWithRequestsInFlight(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	base, first := submitTune(t, p, 50, 1)
	nc := dialWorker(t, p, "w1")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	loop := func(f func(i int)) {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				f(i)
			}
		})
	}
	rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for g := range 2 {
		loop(func(i int) {
			sub, cfg := *base, *base.Tune
			cfg.Seed = int64(2 + 2*i + g) // a new tune each time
			sub.Tune = &cfg
			p.submitter.Submit(rctx, &sub)
		})
	}
	loop(func(i int) {
		p.submitter.Control(rctx, Control{ID: first.ID, Action: []string{"pause", "resume"}[i%2]})
	})
	loop(func(int) { p.submitter.Runs(rctx) })
	loop(func(int) {
		var pair TunePair
		request(rctx, nc, tuneSubject(verbTake, "w1"), TuneTake{Run: first.ID}, &pair, time.Second)
	})
	time.Sleep(200 * time.Millisecond)
	srv := p.srv
	srv.Close()
	srv.mu.Lock()
	runs := len(srv.runs)
	srv.mu.Unlock()
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wg.Wait()
	srv.mu.Lock()
	after := len(srv.runs)
	srv.mu.Unlock()
	if after != runs {
		t.Errorf("%d runs when Close returned, %d after: a handler admitted runs after Close", runs, after)
	}
	if runs < 2 {
		t.Errorf("%d runs submitted before Close: the test closed no server with submits in flight", runs)
	}
}

// TestCloseWaitsForHandlers: Close returns only once a handler under way has answered: a
// submit whose handler waits (here for the run commands' lock, which the test holds) keeps
// Close waiting, and is answered; Close returned at once, and the handler went on with the
// runs, the bucket and the connection Close had stopped.
func TestCloseWaitsForHandlers(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	sub := tuneSubmission(t, 4, 1)
	sub.Tune.Openings.File, sub.Openings = "book.txt", []byte("Base+MLP;InProgress;White[2];wS1;bS1 wS1-\n")
	srv := p.srv
	srv.ctl.Lock()
	type answer struct {
		st  *RunState
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		st, err := p.submitter.Submit(context.Background(), sub)
		answered <- answer{st, err}
	}()
	// The handler writes the book beside the runs before it admits the run.
	waitUntil(t, "the submit's handler to write its openings", 10*time.Second, func() bool {
		books, _ := filepath.Glob(filepath.Join(p.dir, "runs", "openings-*"))
		return len(books) > 0
	})
	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Error("Close returned while a submit's handler was under way")
	case <-time.After(500 * time.Millisecond):
	}
	srv.ctl.Unlock()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return within 20 s of the handler's end")
	}
	select {
	case a := <-answered:
		if a.err != nil || a.st == nil {
			t.Errorf("the submit in flight as the server closed: %v, want it answered", a.err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the submit was not answered within 20 s")
	}
}
