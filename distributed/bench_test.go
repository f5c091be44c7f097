package distributed

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter"
	"hivearbiter/openings"
	"hivearbiter/results"
)

// benchCluster is a run of n games of the empty board (so that two template records, one per
// colour, serve every pair) with four in-process fake workers that answer every pair at once.
func benchCluster(b *testing.B, n, window int) (*cluster, context.CancelFunc, *sync.WaitGroup) {
	dir := b.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), max(1, n/2))
	cfg.SPRT, cfg.Openings = nil, openings.Config{}
	c := newCluster(b, cfg, dir)
	c.coord.Console, c.coord.Window = nil, window
	templates := [2]*results.Record{playScheduled(b, c.tour, 0), playScheduled(b, c.tour, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fakeWorker(ctx, b, c, templates, w)
		}()
	}
	return c, cancel, &wg
}

// BenchmarkCoordinator measures what the coordinator itself spends per game: queueing its pair,
// receiving its record, re-refereeing it and acknowledging it, with the fake workers' records
// collected in memory. It reports the heap once the pairs are queued and at the end (run with
// -benchtime=20000x for 10,000 pairs), with the default window and with every pair of the run
// queued at once.
func BenchmarkCoordinator(b *testing.B) {
	b.Run("window=default", func(b *testing.B) { benchmarkCoordinator(b, 0) })
	b.Run("window=all", func(b *testing.B) { benchmarkCoordinator(b, b.N) })
}

func benchmarkCoordinator(b *testing.B, window int) {
	c, cancel, wg := benchCluster(b, b.N, window)
	defer func() { cancel(); wg.Wait() }()
	ctx := context.Background()
	if err := c.coord.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.coord.Close()
	var collected atomic.Int64
	var heapQueued uint64
	collect := func(r *results.Record) error {
		if collected.Add(1) == 1 {
			// Every pair is queued before the first record is taken.
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			heapQueued = m.HeapInuse
		}
		return nil
	}
	d := arbiter.NewDispatcher(c.tour.Schedule(), func(int) bool { return true })
	b.ResetTimer()
	start := time.Now()
	if err := c.coord.Run(ctx, d, collect); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	var end runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&end)
	games := collected.Load()
	b.ReportMetric(float64(elapsed.Microseconds())/float64(games), "µs/game")
	b.ReportMetric(float64(heapQueued)/(1<<20), "MB-heap-queued")
	b.ReportMetric(float64(end.HeapInuse)/(1<<20), "MB-heap-end")
}

// BenchmarkCoordinatorRecorded is BenchmarkCoordinator through the tournament's collector, as a
// run is: every record appended to the records file and synced before it is acknowledged.
func BenchmarkCoordinatorRecorded(b *testing.B) {
	c, cancel, wg := benchCluster(b, b.N, 0)
	defer func() { cancel(); wg.Wait() }()
	b.ResetTimer()
	start := time.Now()
	out, err := Serve(context.Background(), c.coord)
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(elapsed.Microseconds())/float64(out.Tally.Games), "µs/game")
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
			for _, g := range item.Games {
				r := *templates[g.Game.Index%2]
				r.Game, r.Round, r.Pair = g.Game.Index, g.Game.Round, g.Game.Pair
				data, _ := json.Marshal(Result{Worker: name, Record: &r, Engines: c.coord.Expect})
				js.PublishAsync(resultsSubject(c.tour.Run(), name), data)
			}
			m.Ack()
		}
	}
}
