//go:build unix

package uhp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/engine/uhpengine/uhpfake"
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
// check of the move, the GameString cross-check and the record.
func BenchmarkMatchOverhead(b *testing.B) {
	for _, plies := range []int{40, 400} {
		b.Run(fmt.Sprintf("plies=%d/arbiter", plies), func(b *testing.B) { benchArbiter(b, plies) })
		b.Run(fmt.Sprintf("plies=%d/bare", plies), func(b *testing.B) { benchBare(b, plies) })
	}
}

func benchArbiter(b *testing.B, maxPlies int) {
	ctx := context.Background()
	var sides [2]arbiter.Side
	for i, name := range []string{"white", "black"} {
		argv, env := uhpfake.Command(benchEngine())
		p, err := Protocol{}.Start(ctx, arbiter.EngineConfig{Name: name, Command: argv, Env: env}, arbiter.StartEnv{})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close(ctx)
		sides[i] = arbiter.Side{Name: name, Player: p, Time: arbiter.TimeControl{Depth: 1}}
	}
	cfg := arbiter.GameConfig{Run: "bench", Opening: "Base+MLP", OpeningIndex: -1,
		CommandTimeout: 5 * time.Second, DepthTimeout: 5 * time.Second,
		Adjudication: arbiter.Adjudication{MaxPlies: maxPlies}}
	plies := 0
	measure(b, &plies, func() {
		rec, err := arbiter.PlayGame(ctx, cfg, sides[0], sides[1])
		if err != nil || rec.Reason.IsFault() {
			b.Fatalf("%v %+v", err, rec)
		}
		plies += len(rec.Moves)
	})
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
	cpu := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		play()
	}
	b.StopTimer()
	cpu = cpuTime(b) - cpu
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

// cpuTime is the CPU time the benchmark's process has used, user and system; the engines are
// its children, which RUSAGE_SELF leaves out.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
