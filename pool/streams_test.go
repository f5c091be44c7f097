package pool

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/distributed"
)

// TestEndedRunsLeaveNoStreams: a run's work and results streams are deleted when it ends, and
// those an earlier server left of ended runs when it starts; each kept a dozen goroutines and
// two descriptors of the NATS server's for as long as the pool lived (found by the pool soak:
// 244 goroutines grew to 2,744 over 200 runs).
func TestEndedRunsLeaveNoStreams(t *testing.T) {
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
