package pool

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/pool/artifact"
	"hivearbiter/rules"
)

// TestRevokeWhileFetching: a worker revoked while the server judges its artifact requests is
// no data race (mayFetch read the identity after letting go of its lock).
func TestRevokeWhileFetching(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	p.addWorker("alice")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				p.srv.mayFetch("alice", "x", time.Now())
			}
		}
	})
	time.Sleep(10 * time.Millisecond)
	if err := p.srv.RevokeWorker("alice"); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
}

// TestFetchKeepsTheAssignment: each piece of its run's artifact a worker is handed keeps its
// assignment, so that a download longer than the assignment (a batch and 30 s; nothing else
// renews it until the worker plays) is not refused halfway and begun again for ever.
func TestFetchKeepsTheAssignment(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	m, _ := uploadArtifact(t, p.submitter, 3*artifact.ChunkSize)
	st := submitWithArtifact(t, p, m, 1)
	alice, _ := violations(t, p.addWorker("alice"))
	if a := assign(t, alice, "alice", m); a.Run != st.ID {
		t.Fatalf("alice was assigned %+v, not run %s", a, st.ID)
	}
	until := func() time.Time {
		p.srv.mu.Lock()
		defer p.srv.mu.Unlock()
		return p.srv.runs[st.ID].assigned["alice"].until
	}
	// The assignment is about to lapse when the download begins.
	p.srv.mu.Lock()
	p.srv.runs[st.ID].assigned["alice"] = assignment{slots: 1, until: time.Now().Add(time.Second)}
	p.srv.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	size, r, err := relayGetter{nc: alice, worker: "alice"}.Get(ctx, m.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if left := time.Until(until()); left < p.srv.cfg.Batch {
		t.Errorf("after a piece of its run's artifact, alice's assignment lapses in %s, want more than a batch (%s)", left, p.srv.cfg.Batch)
	}
	buf := make([]byte, size)
	for off := 0; off < len(buf); {
		n, err := r.Read(buf[off:])
		if err != nil {
			t.Fatalf("at %d of %d bytes: %v", off, size, err)
		}
		off += n
	}
}

// TestFailedBenchLeavesNoBrokenSeat: an engine whose measure ran out of time (killed by the
// cut search) is not left seated for the slot's first game, which would be lost to it: the
// next seat starts it anew.
func TestFailedBenchLeavesNoBrokenSeat(t *testing.T) {
	t.Parallel()
	argv, env := uhpfake.Command(uhpfake.Config{ID: "slow", Play: "random", Delay: 2 * time.Second})
	seats := &arbiter.Seats{Engines: []driver.EngineConfig{{Name: "slow", Command: argv, Env: env}},
		GameType: rules.Base, Start: arbiter.StartThroughProtocol("")}
	defer seats.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// The bench's time limit, shortened: a minute in measureEngine.
	bctx, bcancel := context.WithTimeout(ctx, 500*time.Millisecond)
	b := measureEngine(bctx, seats, 0)
	bcancel()
	if b.Error == "" {
		t.Fatalf("the measure of an engine 2 s a move within 0.5 s: %+v, want an error", b)
	}
	p, err := seats.Seat(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.NewGame(ctx, rules.NewGame(rules.Base).GameString()); err != nil {
		t.Errorf("the first game's player, after a failed measure: %v", err)
	}
}

// TestCorruptArtifactIsUnusable: an artifact whose bytes in the store do not hash to its name
// reaches the worker as an *ArtifactUnusableError, which keeps it away from the run (before,
// a plain error: it asked again every 2 s, and the server read the whole object each time).
func TestCorruptArtifactIsUnusable(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	m, _ := uploadArtifact(t, p.submitter, 1000)
	obs, err := p.srv.js.ObjectStore(t.Context(), artifact.DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	st := submitWithArtifact(t, p, m, 1)
	// Written over under its name after the submission, with its manifest kept.
	info, err := obs.GetInfo(t.Context(), m.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.Put(t.Context(), jetstream.ObjectMeta{Name: m.SHA256, Metadata: info.Metadata},
		strings.NewReader("#!/bin/sh\necho substituted\n")); err != nil {
		t.Fatal(err)
	}
	alice, _ := violations(t, p.addWorker("alice"))
	if a := assign(t, alice, "alice", m); a.Run != st.ID {
		t.Fatalf("alice was assigned %+v, not run %s", a, st.ID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = artifact.NewFetcher(relayGetter{nc: alice, worker: "alice"}, artifact.Limits{}).Fetch(ctx, m, t.TempDir())
	if !errors.As(err, new(*ArtifactUnusableError)) || !cannotPlay(err) {
		t.Errorf("a corrupt artifact: %v, want an *ArtifactUnusableError that keeps the worker away", err)
	}
}
