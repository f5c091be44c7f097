package arbiter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/console"
	"hivearbiter/results"
)

// resumeGames is the size of the records file BenchmarkResume resumes from: about what the
// soak's arbiter met after half an hour (docs/endurance.md).
const resumeGames = 2000

// idleRunner plays no game: a resumed run that stops where its first game would start.
type idleRunner struct{}

func (idleRunner) Run(context.Context, *arbiter.Dispatcher, func(*results.Record) error) error {
	return nil
}

// resumable writes a records file of resumeGames games of a run of resumeGames+100 and returns
// the run's configuration. The games are copies of two played between random players, so
// that a record is as large as a real one (about 2 KB), each with its own index, pair and
// colours.
func resumable(tb testing.TB) arbiter.Config {
	tb.Helper()
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 1
	played := fakeTournamentWith(tb, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(io.Discard, console.Options{})}})
	if _, err := played.Play(context.Background()); err != nil {
		tb.Fatal(err)
	}
	games := recordsOf(tb, played)

	cfg.Rounds = (resumeGames + 100) / 2
	cfg.Out = filepath.Join(tb.TempDir(), "games.jsonl")
	tour := fakeTournament(tb, cfg)
	var lines bytes.Buffer
	for i := range resumeGames {
		g := tour.Schedule().Game(i)
		r := games[i%2]
		r.Run, r.Game, r.Round, r.Pair = tour.Run(), i, g.Round, g.Pair
		r.White.Name, r.Black.Name = cfg.Engines[g.White].Name, cfg.Engines[g.Black].Name
		line, err := json.Marshal(&r)
		if err != nil {
			tb.Fatal(err)
		}
		lines.Write(append(line, '\n'))
	}
	if err := os.WriteFile(cfg.Out, lines.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// resumeOnce resumes the run of cfg up to its first game and checks that it counted every
// record.
func resumeOnce(tb testing.TB, cfg arbiter.Config) {
	tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	out, err := tour.PlayOn(context.Background(), idleRunner{})
	if err != nil {
		tb.Fatal(err)
	}
	if out.Tally.Games != resumeGames {
		tb.Fatalf("resumed %d games, want %d", out.Tally.Games, resumeGames)
	}
}

// TestResumeMemory: a run resumes in the memory of a few records, not of all of them, so that
// a run of any length can resume (a resume that held the whole file, moves and all, is
// measured in docs/experiments/soak/README.md).
func TestResumeMemory(t *testing.T) {
	for _, pgn := range []bool{false, true} {
		cfg := resumable(t)
		if pgn {
			cfg.PGNOut = filepath.Join(t.TempDir(), "games.pgn")
		}
		runtime.GC()
		peak := watchHeap(t)
		resumeOnce(t, cfg)
		if p := peak(); p > 16<<20 {
			t.Errorf("pgn %v: the heap reached %.1f MiB while %d games resumed", pgn, float64(p)/(1<<20), resumeGames)
		}
	}
}

// BenchmarkResume is the resume path of a run of 2,000 recorded games, up to the first game
// it would play: the records file read, checked and counted, and with -pgnout the PGN
// rewritten from it. It reports the largest heap seen meanwhile (peak-heap-MiB, sampled every
// millisecond): what a resuming arbiter needs in memory for the records.
func BenchmarkResume(b *testing.B) {
	for _, bc := range []struct {
		name string
		pgn  bool
	}{{"records", false}, {"records+pgn", true}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := resumable(b)
			if bc.pgn {
				cfg.PGNOut = filepath.Join(b.TempDir(), "games.pgn")
			}
			runtime.GC()
			peak := watchHeap(b)
			b.ReportAllocs()
			for b.Loop() {
				resumeOnce(b, cfg)
			}
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
		})
	}
}

// watchHeap samples the heap's objects (live and not yet collected) every millisecond until
// the benchmark ends, and returns a function that reports the largest sample.
func watchHeap(tb testing.TB) func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	var once uint64
	stopped := false
	tb.Cleanup(func() {
		if !stopped {
			close(done)
			<-result
		}
	})
	return func() uint64 {
		if !stopped {
			stopped = true
			close(done)
			once = <-result
		}
		return once
	}
}
