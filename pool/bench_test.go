package pool

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/testenv"
)

// BenchmarkPoolThroughput plays b.N games (one run) through a pool of 1, 2 and 4 workers in
// this process, each on its own connection over loopback TCP, with instant engines (their
// processes are the only cost outside this process). It reports games/s and the CPU time of
// this process (server and workers, not engines) per game.
func BenchmarkPoolThroughput(b *testing.B) {
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			p := newTestPool(b)
			defer p.stop()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan struct{})
			for i := range workers {
				name := fmt.Sprintf("w%d", i)
				creds, err := p.admin.AddWorker(ctx, name)
				if err != nil {
					b.Fatal(err)
				}
				go func() { (&Worker{Name: name, Creds: creds}).Run(ctx); done <- struct{}{} }()
			}
			sub := fakeSubmission(b, max(b.N/2, 1), int64(b.N), nil)
			cpu0 := testenv.CPUTime(b)
			b.ResetTimer()
			start := time.Now()
			st, err := p.submitter.Submit(ctx, sub)
			if err != nil {
				b.Fatal(err)
			}
			for p.srv.runState(st.ID).State != StateFinished {
				time.Sleep(20 * time.Millisecond)
			}
			el := time.Since(start)
			b.StopTimer()
			games := float64(st.Scheduled)
			b.ReportMetric(games/el.Seconds(), "games/s")
			b.ReportMetric(float64((testenv.CPUTime(b)-cpu0).Microseconds())/games, "cpu-µs/game")
			cancel()
			for range workers {
				<-done
			}
		})
	}
}

// BenchmarkPoolQueue queues 1,000 game pairs across 5 runs with no worker and reports the
// server's heap for them.
func BenchmarkPoolQueue(b *testing.B) {
	for b.Loop() {
		p := newTestPool(b)
		subs := make([]*Submission, 5)
		for i := range subs {
			subs[i] = fakeSubmission(b, 200, int64(i+1), nil)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		for _, sub := range subs {
			if _, err := p.submitter.Submit(context.Background(), sub); err != nil {
				b.Fatal(err)
			}
		}
		queued := func() bool {
			info, err := p.srv.js.Stream(context.Background(), distributed.RunStreams(p.srv.Runs()[4].ID)[0])
			return err == nil && info.CachedInfo().State.Msgs == 200
		}
		for !queued() {
			time.Sleep(10 * time.Millisecond)
		}
		b.ReportMetric(time.Since(start).Seconds()*1000, "ms-to-queue")
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "heap-MB")
		p.stop()
	}
}
