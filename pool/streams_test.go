package pool

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver/uhpfake"
)

// TestEndedRunsLeaveNoStreams: a run's work and results streams are deleted when it ends, and
// those an earlier server left of ended runs when it starts; each kept a dozen goroutines and
// two descriptors of the NATS server's for as long as the pool lived (found by the pool soak,
// docs/experiments/soak/README.md).
func TestEndedRunsLeaveNoStreams(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	st, err := p.submitter.Submit(ctx, fakeSubmission(t, 2, 3, nil))
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true})
	waitFinished(t, p, st.ID, 20*time.Second)
	streams := func() (left []string) {
		for _, name := range distributed.RunStreams(st.ID) {
			if _, err := p.srv.js.Stream(ctx, name); !errors.Is(err, jetstream.ErrStreamNotFound) {
				left = append(left, name)
			}
		}
		return left
	}
	waitUntil(t, "the finished run's streams to be deleted", 10*time.Second, func() bool { return len(streams()) == 0 })

	// A stream an earlier server kept for the run, as it was before this fix.
	if _, err := p.srv.js.CreateStream(ctx, jetstream.StreamConfig{Name: distributed.RunStreams(st.ID)[0], Subjects: []string{"leftover." + st.ID}}); err != nil {
		t.Fatal(err)
	}
	p.stop()
	p.start()
	if left := streams(); len(left) != 0 {
		t.Errorf("after a restart the ended run still has streams %v", left)
	}
}

// TestRunsLeaveNothingOnTheConnection: the server's connection, which outlives its runs, holds
// as many subscriptions after a run as before it. Each run's coordinator left its publisher's
// reply subscription there, and a goroutine (found by the pool soak).
func TestRunsLeaveNothingOnTheConnection(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true})
	base := p.srv.nc.NumSubscriptions()
	for seed := range int64(2) {
		st, err := p.submitter.Submit(t.Context(), fakeSubmission(t, 1, seed, nil))
		if err != nil {
			t.Fatal(err)
		}
		waitFinished(t, p, st.ID, 20*time.Second)
		waitUntil(t, fmt.Sprintf("the server's subscriptions back to %d after run %d (now %d)", base, seed+1, p.srv.nc.NumSubscriptions()),
			10*time.Second, func() bool { return p.srv.nc.NumSubscriptions() <= base })
	}
}

// TestFailedRunFreesItsWorkers: a run that fails while a worker holds a pair tells its workers
// to stop before its streams go, so the worker does not wait for ever to hand in a result
// nobody can take, and plays the next run.
func TestFailedRunFreesItsWorkers(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	slow := fakeSubmission(t, 4, 5, func(c *arbiter.Config) {
		for i := range c.Engines {
			argv, env := uhpfake.Command(uhpfake.Config{ID: "instant-" + c.Engines[i].Name, Play: "random", Seed: 5, Delay: 200 * time.Millisecond})
			c.Engines[i].Command, c.Engines[i].Env = argv, env
		}
	})
	st, err := p.submitter.Submit(ctx, slow)
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true})
	waitUntil(t, "w1 to hold a pair", 20*time.Second, func() bool {
		p.srv.mu.Lock()
		defer p.srv.mu.Unlock()
		if s := p.srv.runs[st.ID].status(); s != nil {
			for _, w := range s.Workers {
				if len(w.InFlight) > 0 {
					return true
				}
			}
		}
		return false
	})
	// The run fails: its coordinator's results consumer is gone.
	if err := p.srv.js.DeleteConsumer(ctx, distributed.RunStreams(st.ID)[1], "coordinator"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the run to fail", 20*time.Second, func() bool { return p.srv.runState(st.ID).State == StateFailed })
	next, err := p.submitter.Submit(ctx, fakeSubmission(t, 2, 7, nil))
	if err != nil {
		t.Fatal(err)
	}
	waitFinished(t, p, next.ID, 20*time.Second)
}

// TestEndedRunsLetGoOfTheirLivePage: a run over no longer holds its live page, which kept
// every game of it for the server's life (found by the pool soak, docs/experiments/soak); the
// page's address leads to the run's report.
func TestEndedRunsLetGoOfTheirLivePage(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	st, err := p.submitter.Submit(t.Context(), fakeSubmission(t, 1, 2, nil))
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true})
	waitFinished(t, p, st.ID, 20*time.Second)
	waitUntil(t, "the finished run to let go of its live page", 10*time.Second, func() bool {
		p.srv.mu.Lock()
		defer p.srv.mu.Unlock()
		return p.srv.runs[st.ID].live == nil
	})
	rec := httptest.NewRecorder()
	p.srv.dashboardHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/runs/"+st.ID+"/live/", nil))
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.HasSuffix(loc, "/runs/"+st.ID+"/report.html") {
		t.Errorf("the live page of a finished run: %d to %q, want a redirect to its report", rec.Code, loc)
	}
}
