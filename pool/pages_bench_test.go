package pool

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

// Scale of the pages' benchmarks: a pool that has kept a thousand runs and a hundred workers.
const (
	benchRuns    = 1000
	benchWorkers = 100
	// benchGames is the length of the run whose page is drawn: an SPRT of 2,000 games.
	benchGames = 2000
)

// scaleServer is a server holding benchRuns runs (SPRTs of an option, each with its summary
// and ten workers' statistics, as the bucket keeps them: each decoded from its own JSON, as
// the server loads them) and benchWorkers workers; the newest run has benchGames games in
// its records file. It returns the newest run's id and the heap the runs hold.
func scaleServer(tb testing.TB) (*Server, string, uint64) {
	tb.Helper()
	dir := tb.TempDir()
	sprt := &arbiter.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}
	var workers []distributed.WorkerStats
	for w := range 10 {
		workers = append(workers, distributed.WorkerStats{Name: fmt.Sprintf("worker-%03d", w), Slots: 8, Games: 200, Wins: 60, Draws: 90, Losses: 50, PValue: 0.4})
	}
	newest := fixtureRun{id: "newest000000", format: "match", state: StateActive, sprt: sprt, submitter: "ann", note: "the run drawn",
		engines:   []driver.EngineConfig{fixtureEngine("dev", driver.EngineOption{Name: "Aggression", Value: "3"}), fixtureEngine("base")},
		recs:      pairRecords("newest000000", "dev", "base", 0, outcomes(benchGames/2, "WD", "DD", "LW", "WW", "DL", "WD", "DD"), pagesEpoch),
		scheduled: 20000, submitted: benchRuns * time.Minute, workers: workers}
	// Its games are as long as real ones: 60 plies each, with their times and clocks, as the
	// records file holds them (about 3 KB a game).
	for i := range newest.recs {
		for ply := range 60 {
			clock := int64(60000 - 900*ply)
			newest.recs[i].Moves = append(newest.recs[i].Moves, results.Move{Move: "wA1 -bQ", Millis: 412, ClockMillis: &clock})
		}
	}
	template := newest
	template.recs = template.recs[:200]
	template.state, template.reason = StateFinished, "the SPRT accepted H1"
	stored := template.run(tb, dir)
	state, err := json.Marshal(stored.state)
	if err != nil {
		tb.Fatal(err)
	}
	sub, err := json.Marshal(stored.sub)
	if err != nil {
		tb.Fatal(err)
	}

	last := newest.run(tb, dir)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	s := pagesServer(nil, nil)
	for i := range benchRuns - 1 {
		r := &run{assigned: map[string]assignment{}, sub: new(Submission)}
		if err := json.Unmarshal(state, &r.state); err != nil {
			tb.Fatal(err)
		}
		if err := json.Unmarshal(sub, r.sub); err != nil {
			tb.Fatal(err)
		}
		r.state.ID = fmt.Sprintf("run%09d", i)
		r.state.Submitted = pagesEpoch.Add(time.Duration(i) * time.Minute)
		r.state.Engines = []string{fmt.Sprintf("dev-%d", i), "base"}
		r.sub.Person = []string{"ann", "bo", "cy", "di"}[i%4]
		s.runs[r.state.ID] = r
	}
	s.runs[last.state.ID] = last
	for w := range benchWorkers {
		name := fmt.Sprintf("worker-%03d", w)
		s.workers[name] = &WorkerState{Name: name, Slots: 8, Cores: 16, Platform: "linux/amd64", Run: "newest000000", LastSeen: pagesEpoch,
			Benches: []EngineBench{{Engine: "dev", ID: "hivebot v0.2", Nodes: 1300818, NPS: 824062}, {Engine: "base", Search: 1500 * time.Millisecond}}}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return s, last.state.ID, after.HeapInuse - min(after.HeapInuse, before.HeapInuse)
}

// benchPage draws target once per iteration, after before (if not nil) has changed what it
// draws; it reports the CPU time per page beside the wall time, which a shared machine's other
// work disturbs far more.
func benchPage(b *testing.B, h http.Handler, target string, before func()) {
	b.Helper()
	b.ReportAllocs()
	cpu := testenv.CPUTime(b)
	for b.Loop() {
		if before != nil {
			before()
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", target, rec.Code, rec.Body.String())
		}
	}
	b.ReportMetric(float64(testenv.CPUTime(b)-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkDashboard draws the dashboard of a pool of 1,000 runs and 100 workers: its first
// page, and a page filtered by submitter and engine. It reports the heap the runs hold.
func BenchmarkDashboard(b *testing.B) {
	s, _, heap := scaleServer(b)
	h := readHandler(s)
	for _, c := range []struct{ name, target string }{
		{"first-page", "/"},
		{"filtered", "/?person=bo&engine=dev-9&page=2"},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchPage(b, h, c.target, nil)
			b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
		})
	}
}

// BenchmarkTestPage draws the page of a run of 2,000 games in a pool of 1,000 runs and 100
// workers: with its records' view kept (the page refreshed while its records are unchanged)
// and read again from the file (after a game was recorded).
func BenchmarkTestPage(b *testing.B) {
	s, id, heap := scaleServer(b)
	h := readHandler(s)
	// What the page's cache holds for the run being played: its view and its records without
	// their moves.
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/runs/"+id, nil))
	runtime.GC()
	runtime.ReadMemStats(&after)
	cache := after.HeapInuse - min(after.HeapInuse, before.HeapInuse)
	b.Run("kept", func(b *testing.B) {
		benchPage(b, h, "/runs/"+id, nil)
		b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(cache)/(1<<20), "cache-MiB")
	})
	b.Run("one-game-later", func(b *testing.B) {
		// As a run being played is refreshed: a game recorded since the last look.
		snap, _ := s.snapshot(id)
		f, err := os.OpenFile(snap.state.Records, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		game := pairRecords(id, "dev", "base", benchGames, []string{"WD"}, pagesEpoch)[0]
		benchPage(b, h, "/runs/"+id, func() {
			game.Game += 2
			line, err := json.Marshal(&game)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.Write(append(line, '\n')); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("records-read", func(b *testing.B) {
		benchPage(b, h, "/runs/"+id, func() {
			s.pages.mu.Lock()
			clear(s.pages.views)
			s.pages.mu.Unlock()
		})
	})
}
