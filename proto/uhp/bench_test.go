//go:build unix

package uhp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/report"
	"hivearbiter/results"
)

// benchEngine is the fake engine both benchmarks drive: it answers bestmove at once with a
// move that is a function of the position alone, so that the arbiter and the bare loop play
// the same games.
func benchEngine() uhpfake.Config {
	return uhpfake.Config{ID: "fake-instant v1", Salt: "overhead"}
}

// BenchmarkMatchOverhead is the arbiter's cost per ply against instant fake engines, beside
// the floor: a bare loop that drives the same two engines through the same pipes with no
// referee, no cross-check and no record. Each iteration plays one game of up to 40 or 400
// plies (the engines are started once, outside the timing); µs/ply and allocs/ply are the
// arbiter process's own (the engines run in processes of their own). The arbiter's figure
// minus the bare loop's is what the arbiter adds to each ply: the UHP client, the referee's
// check of the move, the GameString cross-check and the record. "observed" is the arbiter
// with the pages of -report and -http watching, as the local runner feeds them.
func BenchmarkMatchOverhead(b *testing.B) {
	for _, plies := range []int{40, 400} {
		b.Run(fmt.Sprintf("plies=%d/arbiter", plies), func(b *testing.B) { benchArbiter(b, plies, false) })
		b.Run(fmt.Sprintf("plies=%d/observed", plies), func(b *testing.B) { benchArbiter(b, plies, true) })
		b.Run(fmt.Sprintf("plies=%d/bare", plies), func(b *testing.B) { benchBare(b, plies) })
	}
}

func benchArbiter(b *testing.B, maxPlies int, observed bool) {
	ctx := b.Context()
	var sides [2]arbiter.Side
	for i, name := range []string{"white", "black"} {
		argv, env := uhpfake.Command(benchEngine())
		p, err := Protocol{}.Start(ctx, driver.EngineConfig{Name: name, Command: argv, Env: env}, driver.StartEnv{})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close(ctx)
		sides[i] = arbiter.Side{Name: name, Player: p, Time: driver.TimeControl{Depth: 1}}
	}
	cfg := arbiter.GameConfig{Run: "bench", Opening: "Base+MLP", OpeningIndex: -1,
		CommandTimeout: 5 * time.Second, DepthTimeout: 5 * time.Second,
		Adjudication: arbiter.Adjudication{MaxPlies: maxPlies}}
	var pages arbiter.Observer
	if observed {
		pages = startPages(b, sides)
	}
	plies := 0
	measure(b, &plies, func() {
		rec, err := playObserved(ctx, cfg, sides, pages)
		if err != nil || rec.Reason.IsFault() {
			b.Fatalf("%v %+v", err, rec)
		}
		plies += len(rec.Moves)
	})
}

// startPages opens the pages of -report and -http (a report file and a live page served on
// loopback, with no browser on it), as the match command does.
func startPages(b *testing.B, sides [2]arbiter.Side) arbiter.Observer {
	cfg := arbiter.Config{Engines: []driver.EngineConfig{{Name: sides[0].Name}, {Name: sides[1].Name}}}
	pages, err := report.StartRun(b.Context(), cfg, report.RunOptions{
		File: filepath.Join(b.TempDir(), "report.html"), HTTP: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pages.Close() })
	return pages
}

// playObserved plays a game as the local runner does (arbiter.LocalRunner): each move shown to
// the observer if there is one. The end of a game is not shown: the
// pages then count every game played so far, a cost of the run's length, not the game's.
func playObserved(ctx context.Context, cfg arbiter.GameConfig, sides [2]arbiter.Side, o arbiter.Observer) (*results.Record, error) {
	if o == nil {
		return arbiter.PlayGame(ctx, cfg, sides[0], sides[1])
	}
	o.GameStarted(arbiter.ScheduledGame{Index: cfg.Index, White: 0, Black: 1, Opening: cfg.Opening}, sides[0].Name, sides[1].Name)
	return arbiter.PlayGameWatched(ctx, cfg, sides[0], sides[1], func(m results.Move) { o.MovePlayed(cfg.Index, m) })
}

func benchBare(b *testing.B, maxPlies int) {
	var engines [2]*bareEngine
	for i := range engines {
		engines[i] = startBare(b)
	}
	plies := 0
	measure(b, &plies, func() {
		for _, e := range engines {
			e.send(b, "newgame Base+MLP")
		}
		for ply := 0; ply < maxPlies; ply++ {
			move, _, _ := strings.Cut(engines[ply%2].send(b, "bestmove depth 1"), ";")
			var gs string
			for _, e := range engines {
				gs = e.send(b, "play "+move)
			}
			plies++
			if _, rest, _ := strings.Cut(gs, ";"); !strings.HasPrefix(rest, "InProgress;") {
				break
			}
		}
	})
}

// measure runs play once per iteration and reports per ply: the time (µs/ply), the CPU time of
// the arbiter's process alone, the engines' excluded (cpu-µs/ply: what the arbiter takes from
// the engines on a loaded machine, and less noisy than the time), and its allocations.
func measure(b *testing.B, plies *int, play func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := testenv.CPUTime(b)
	b.ResetTimer()
	for b.Loop() {
		play()
	}
	b.StopTimer()
	cpu = testenv.CPUTime(b) - cpu
	runtime.ReadMemStats(&after)
	if *plies == 0 {
		b.Fatal("no plies played")
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(*plies), "µs/ply")
	b.ReportMetric(float64(cpu.Microseconds())/float64(*plies), "cpu-µs/ply")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(*plies), "allocs/ply")
	b.ReportMetric(float64(*plies)/float64(b.N), "plies/game")
}

// bareEngine is a fake engine on plain pipes: a line written, lines read up to "ok".
type bareEngine struct {
	in  io.WriteCloser
	out *bufio.Reader
}

func startBare(b *testing.B) *bareEngine {
	argv, env := uhpfake.Command(benchEngine())
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	e := &bareEngine{in: in, out: bufio.NewReaderSize(out, 1<<16)}
	e.reply(b) // the banner
	return e
}

// send sends a command and returns the last line of its reply.
func (e *bareEngine) send(b *testing.B, command string) string {
	if _, err := io.WriteString(e.in, command+"\n"); err != nil {
		b.Fatal(err)
	}
	return e.reply(b)
}

func (e *bareEngine) reply(b *testing.B) string {
	last := ""
	for {
		line, err := e.out.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "ok" {
			return last
		}
		last = line
	}
}
