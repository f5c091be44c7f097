package arbiter

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkMatchOverhead is the cost of one ply with instant in-process players: the
// referee's check of the move, mirroring it to both players, verifying both GameStrings and the
// record. The fake players keep their own rules.Game, so this is an upper bound of the
// arbiter's own cost.
func BenchmarkMatchOverhead(b *testing.B) {
	b.ReportAllocs()
	plies := 0
	seed := uint64(0)
	for b.Loop() {
		seed++
		rec, err := PlayGame(context.Background(), testGameConfig(), fastSide("a", newFake("a", seed)), fastSide("b", newFake("b", seed+1000)))
		if err != nil {
			b.Fatal(err)
		}
		plies += len(rec.Moves)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies)/1e3, "µs/ply")
}

// BenchmarkTournamentMemory plays 1,000 short games between instant players and reports the
// live heap, records included, at the end of a 100-game and of a 1,000-game run.
func BenchmarkTournamentMemory(b *testing.B) {
	for b.Loop() {
		heap := func() float64 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return float64(m.HeapAlloc) / (1 << 20)
		}
		run := func(rounds int) float64 {
			cfg := baseConfig(engine("a", "random"), engine("b", "random"))
			cfg.Rounds = rounds
			cfg.Adjudication.MaxPlies = 60
			tour := fakeTournament(b, cfg)
			out, err := tour.Play(context.Background())
			if err != nil || len(out.Records) != 2*rounds {
				b.Fatalf("%d games, %v", len(out.Records), err)
			}
			h := heap() // with the run's records still held
			runtime.KeepAlive(out)
			return h
		}
		b.ReportMetric(run(50), "MiB@100games")
		b.ReportMetric(run(500), "MiB@1000games")
	}
}
