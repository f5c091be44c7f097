package arbiter_test

import (
	"context"
	"io"
	"runtime"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/console"
)

// BenchmarkRefereeOverhead is the cost of one ply with instant in-process players, no pipes:
// the referee's check of the move, mirroring it to both players, verifying both GameStrings and
// the record. The fake players keep their own rules.Game, so this is an upper bound of the
// arbiter's own cost. proto/uhp's BenchmarkMatchOverhead measures a ply against engine
// processes, beside a bare loop.
func BenchmarkRefereeOverhead(b *testing.B) {
	b.ReportAllocs()
	plies := 0
	seed := uint64(0)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		seed++
		rec, err := arbiter.PlayGame(context.Background(), testGameConfig(), fastSide("a", arbitertest.New("a", seed)), fastSide("b", arbitertest.New("b", seed+1000)))
		if err != nil {
			b.Fatal(err)
		}
		plies += len(rec.Moves)
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies)/1e3, "µs/ply")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(plies), "allocs/ply")
}

// BenchmarkTournamentMemory plays 1,000 short games between instant players and samples the
// live heap during the run, every 50 game pairs (from the result-table callback): after 100
// games, after 1,000, and the growth per game in between. Flat memory means a growth of a few
// bytes per game (the schedule's bookkeeping), not the kilobytes of a game record.
func BenchmarkTournamentMemory(b *testing.B) {
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc)
	}
	for b.Loop() {
		cfg := baseConfig(engine("a", "random"), engine("b", "random"))
		cfg.Rounds = 500
		cfg.RatingInterval = 50
		cfg.Adjudication.MaxPlies = 60
		samples := map[int]float64{}
		tour := fakeTournamentWith(b, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(io.Discard, console.Options{
			Report: func(_ io.Writer, r arbiter.StandingsReport) {
				if !r.Final {
					samples[r.Standings.Tally.Games] = heap()
				}
			}})}})
		out, err := tour.Play(context.Background())
		if err != nil || out.Tally.Games != 1000 {
			b.Fatalf("%d games, %v", out.Tally.Games, err)
		}
		// Pairs finish out of order, so a sample is taken at the first report past each mark.
		at := func(games int) (int, float64) {
			best := -1
			for n := range samples {
				if n >= games && (best < 0 || n < best) {
					best = n
				}
			}
			if best < 0 {
				b.Fatalf("no heap sample at %d games or later: %v", games, samples)
			}
			return best, samples[best]
		}
		n100, h100 := at(100)
		n1000, h1000 := at(1000 - 2*cfg.Concurrency)
		b.ReportMetric(h100/(1<<20), "MiB@100games")
		b.ReportMetric(h1000/(1<<20), "MiB@1000games")
		b.ReportMetric((h1000-h100)/float64(n1000-n100), "B/game")
	}
}
