package distributed

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// BenchmarkCoordinator measures what the coordinator spends per game: queueing its pair,
// receiving its record, re-refereeing it, appending it to the records file (synced) and
// acknowledging it. Four in-process fake workers answer every pair at once with valid records
// (games of the empty board, so two templates serve every pair), so the time is the
// coordinator's and the server's, not the engines'. It reports the heap after the pairs were
// queued and at the end: run with -benchtime=20000x for 10,000 pairs.
func BenchmarkCoordinator(b *testing.B) {
	dir := b.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), max(1, b.N/2))
	cfg.SPRT, cfg.Openings = nil, arbiter.Openings{}
	c := newCluster(b, cfg, dir)
	c.coord.Console = nil
	templates := [2]*results.Record{playScheduled(b, c.tour, 0), playScheduled(b, c.tour, 1)}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fakeWorker(ctx, b, c, templates, w)
		}()
	}
	var queued runtime.MemStats
	go func() {
		waitQueued(c)
		runtime.GC()
		runtime.ReadMemStats(&queued)
	}()
	b.ResetTimer()
	start := time.Now()
	out, err := c.coord.Run(ctx)
	elapsed := time.Since(start)
	b.StopTimer()
	cancel()
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
	var end runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&end)
	games := out.Tally.Games
	b.ReportMetric(float64(elapsed.Microseconds())/float64(games), "µs/game")
	b.ReportMetric(float64(queued.HeapInuse)/(1<<20), "MB-heap-queued")
	b.ReportMetric(float64(end.HeapInuse)/(1<<20), "MB-heap-end")
	b.ReportMetric(float64(games), "games")
}

func waitQueued(c *cluster) {
	for c.coord.Status().Scheduled == 0 || !c.coord.queued.Load() {
		time.Sleep(time.Millisecond)
	}
}

// fakeWorker answers every pair with the template records renumbered.
func fakeWorker(ctx context.Context, b *testing.B, c *cluster, templates [2]*results.Record, id int) {
	nc, err := Dial(c.srv.Credentials(), "fake")
	if err != nil {
		b.Error(err)
		return
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	var cons jetstream.Consumer
	for cons == nil {
		if cons, err = js.Consumer(ctx, workStream(c.tour.Run()), workConsumer); ctx.Err() != nil {
			return
		}
	}
	name := "fake" + string(rune('a'+id))
	for ctx.Err() == nil {
		batch, err := cons.Fetch(16, jetstream.FetchMaxWait(100*time.Millisecond))
		if err != nil {
			continue
		}
		for m := range batch.Messages() {
			var item WorkItem
			json.Unmarshal(m.Data(), &item)
			for _, sg := range item.Games {
				r := *templates[sg.Index%2]
				r.Game, r.Round, r.Pair = sg.Index, sg.Round, sg.Pair
				data, _ := json.Marshal(Result{Worker: name, Record: &r, Engines: c.coord.Expect})
				js.PublishAsync(resultsSubject(c.tour.Run(), name), data)
			}
			m.Ack()
		}
	}
}
