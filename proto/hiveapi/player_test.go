//go:build unix

package hiveapi

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/proc"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

func TestMain(m *testing.M) {
	proc.Main() // on Windows a copy of the test binary is its Ctrl-C sender
	if scenario := os.Getenv(fakeEnv); scenario != "" {
		os.Exit(fakeMain(scenario))
	}
	os.Exit(m.Run())
}

const testGrace = 300 * time.Millisecond

// fakeEngine is the engine configuration of a fake module of a scenario, reached over a
// transport: stdio, ipc, tcp (the arbiter starts the server) or tcp-addr (a server already
// listening, started here).
func fakeEngine(t *testing.T, name, transport, scenario string) driver.EngineConfig {
	t.Helper()
	e := driver.EngineConfig{Name: name, Protocol: Name, Command: []string{os.Args[0]},
		Env:  []string{fakeEnv + "=" + scenario, fakeTransportEnv + "=" + transport},
		Time: driver.TimeControl{MoveTime: 2 * time.Second}, Margin: 500 * time.Millisecond}
	switch transport {
	case TransportStdio, TransportIPC:
		e.Settings = map[string]string{SettingTransport: transport}
	case TransportTCP, "tcp-addr":
		e.Addr = testenv.FreeAddr(t)
		e.Env = []string{fakeEnv + "=" + scenario, fakeTransportEnv + "=" + TransportTCP, fakeAddrEnv + "=" + e.Addr}
	}
	if transport == "tcp-addr" {
		// A server someone else started: the arbiter only connects.
		cmd := fakeCommand(e)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		waitListening(t, e.Addr)
		e.Command, e.Env = nil, nil
	}
	if err := (Protocol{}).Validate(e); err != nil {
		t.Fatal(err)
	}
	return e
}

func waitListening(t *testing.T, addr string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("nothing listens on %s", addr)
}

func startPlayer(t *testing.T, e driver.EngineConfig) (driver.Player, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := driver.Start(ctx, e, driver.StartEnv{Grace: testGrace, TranscriptDir: t.TempDir()})
	if err == nil {
		t.Cleanup(func() {
			start := time.Now()
			p.Close(context.Background())
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("closing %s took %s", e.Name, d)
			}
		})
	}
	return p, err
}

// playGame plays one game of two engine configurations, refereed, bounded by a ply limit.
func playGame(t *testing.T, white, black driver.EngineConfig) *results.Record {
	t.Helper()
	var sides [2]arbiter.Side
	for i, e := range []driver.EngineConfig{white, black} {
		p, err := startPlayer(t, e)
		if err != nil {
			t.Fatalf("starting %s: %v", e.Name, err)
		}
		sides[i] = arbiter.Side{Name: e.Name, Player: p, Time: e.Time, Margin: e.Margin}
	}
	rec, err := arbiter.PlayGame(context.Background(), arbiter.GameConfig{
		Opening: "Base+MLP", CommandTimeout: 5 * time.Second, DepthTimeout: time.Minute,
		Adjudication: arbiter.Adjudication{MaxPlies: 60},
	}, sides[0], sides[1])
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestTransportsPlayGames plays a refereed game between two fake modules over each transport,
// with each way of giving (or not giving) the request id back.
func TestTransportsPlayGames(t *testing.T) {
	for _, transport := range []string{TransportStdio, TransportIPC, TransportTCP, "tcp-addr"} {
		for _, scenario := range []string{"random", "no-id", "request-id"} {
			t.Run(transport+"/"+scenario, func(t *testing.T) {
				rec := playGame(t, fakeEngine(t, "white", transport, scenario), fakeEngine(t, "black", transport, "random"))
				if rec.Reason.IsFault() || len(rec.Moves) == 0 {
					t.Fatalf("%s after %d moves: %s: %s", rec.Result, len(rec.Moves), rec.Reason, rec.Detail)
				}
				wire := transport
				if transport == "tcp-addr" {
					wire = TransportTCP
				}
				if want := "fake-" + scenario + " 0.0.1 by the tests (Hive API 0.1.0 over " + wire + "; not cross-checked)"; rec.White.ID != want {
					t.Errorf("White's ID %q, want %q", rec.White.ID, want)
				}
			})
		}
	}
}

// TestMisbehavingModulesLose checks that each way a module can misbehave loses the game, with
// a reason, and a detail that says what the module did.
func TestMisbehavingModulesLose(t *testing.T) {
	tests := []struct {
		scenario, transport string
		reason              results.Reason
		detail              string
	}{
		{"crash", TransportStdio, results.ReasonCrash, "TypeError: cannot read property"},
		{"crash", TransportIPC, results.ReasonCrash, "exit status 1"},
		{"crash", TransportTCP, results.ReasonCrash, "TypeError: cannot read property"},
		{"hang", TransportStdio, results.ReasonTimeForfeit, "loses on time"},
		{"hang", TransportTCP, results.ReasonTimeForfeit, "loses on time"},
		{"garbage", TransportStdio, results.ReasonProtocol, `"hello, world", which is not JSON`},
		{"garbage", TransportTCP, results.ReasonProtocol, `"hello, world", which is not JSON`},
		{"non-object", TransportIPC, results.ReasonProtocol, "not a JSON object"},
		{"wrong-id", TransportStdio, results.ReasonProtocol, `answered request "no-such-request"`},
		{"throw", TransportTCP, results.ReasonCrash, "ReferenceError: board is not defined"},
		{"throw", TransportStdio, results.ReasonCrash, "success:false"},
		{"cheat-cell", TransportStdio, results.ReasonIllegalMove, `"1,0" is not a cell`},
		{"cheat-far", TransportIPC, results.ReasonIllegalMove, "White may not place a piece at 40,0"},
		{"cheat-piece", TransportStdio, results.ReasonIllegalMove, "White may not place a Queen Bee now"},
		{"cheat-opponent", TransportTCP, results.ReasonIllegalMove, "is not White's"},
		{"forfeit", TransportIPC, results.ReasonIllegalPass, "passed although it had 7 legal moves"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.transport, func(t *testing.T) {
			white := fakeEngine(t, "cheater", tt.transport, tt.scenario)
			white.Time = driver.TimeControl{MoveTime: 500 * time.Millisecond}
			white.Margin = 100 * time.Millisecond
			rec := playGame(t, white, fakeEngine(t, "honest", TransportStdio, "random"))
			if rec.Culprit != "White" || rec.Reason != tt.reason || !strings.Contains(rec.Detail, tt.detail) {
				t.Fatalf("%s, culprit %q: %s: %s\nwant White to lose by %s, with %q in the detail", rec.Result, rec.Culprit, rec.Reason, rec.Detail, tt.reason, tt.detail)
			}
			t.Logf("%s: %s", rec.Reason, rec.Detail)
		})
	}
}

// TestModulesThatCannotStart checks the failures of the handshake.
func TestModulesThatCannotStart(t *testing.T) {
	tests := []struct {
		scenario, transport, want string
	}{
		{"inactive", TransportStdio, "says it is not active (active:false in its Greetings)"},
		{"inactive", TransportTCP, "not active"},
		{"never-listens", TransportTCP, "did not listen on"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.transport, func(t *testing.T) {
			e := fakeEngine(t, tt.scenario, tt.transport, tt.scenario)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			p, err := driver.Start(ctx, e, driver.StartEnv{Grace: testGrace})
			if err == nil {
				p.Close(ctx)
				t.Fatal("the module started")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("%v\nwant %q in it", err, tt.want)
			}
		})
	}
}

// TestMissingModuleProgram checks that a module program that is not there fails its start as
// a crash that names it, with nothing left running.
func TestMissingModuleProgram(t *testing.T) {
	for _, transport := range []string{TransportStdio, TransportIPC, TransportTCP} {
		t.Run(transport, func(t *testing.T) {
			e := fakeEngine(t, "missing", transport, "random")
			e.Command = []string{"./no-such-module"}
			goroutines := runtime.NumGoroutine()
			_, err := driver.Start(t.Context(), e, driver.StartEnv{Grace: testGrace})
			pe, ok := errors.AsType[*driver.PlayerError](err)
			if !ok || pe.Reason != results.ReasonCrash || !strings.Contains(err.Error(), "hiveapi: starting ./no-such-module: ") || !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("got %v; want a crash that says the program is not there", err)
			}
			if n := runtime.NumGoroutine(); n > goroutines {
				t.Errorf("%d goroutines after a failed start, %d before", n, goroutines)
			}
		})
	}
}

// TestLateReplyAfterTimeout checks what follows a request that timed out: over TCP the late
// reply is discarded by its id and the next request is answered; on a pipe the module is
// started again.
func TestLateReplyAfterTimeout(t *testing.T) {
	for _, transport := range []string{TransportTCP, TransportStdio} {
		t.Run(transport, func(t *testing.T) {
			p, err := startPlayer(t, fakeEngine(t, "slow", transport, "slow-first"))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := p.NewGame(ctx, "Base"); err != nil {
				t.Fatal(err)
			}
			short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			_, err = p.BestMove(short, driver.SearchLimit{Time: 100 * time.Millisecond})
			cancel()
			var pe *driver.PlayerError
			if !errors.As(err, &pe) || pe.Reason != results.ReasonTimeForfeit {
				t.Fatalf("a late answer gave %v, want a time forfeit", err)
			}
			long, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			move, err := p.BestMove(long, driver.SearchLimit{Time: 5 * time.Second})
			if err != nil {
				t.Fatalf("after the timeout: %v", err)
			}
			if _, err := p.Play(ctx, move); err != nil {
				t.Fatalf("the answer %q after the timeout: %v", move, err)
			}
		})
	}
}

// TestResponseDeadline checks the deadline a module is sent: its clock's time left, its time
// per move, or the watchdog's.
func TestResponseDeadline(t *testing.T) {
	now := time.Now()
	clock := &driver.ClockState{Remaining: [2]time.Duration{30 * time.Second, 40 * time.Second}, Plies: 3}
	ctx, cancel := context.WithDeadline(context.Background(), now.Add(7*time.Second))
	defer cancel()
	tests := []struct {
		limit driver.SearchLimit
		want  time.Duration
	}{
		{driver.SearchLimit{Time: 2 * time.Second}, 2 * time.Second},
		{driver.SearchLimit{Time: 2 * time.Second, Clock: clock}, 40 * time.Second},
		{driver.SearchLimit{}, 7 * time.Second},
	}
	for _, tt := range tests {
		if got := allowed(ctx, tt.limit, now); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.limit, got, tt.want)
		}
	}
}

func fakeCommand(e driver.EngineConfig) *exec.Cmd {
	c := exec.Command(e.Command[0], e.Command[1:]...)
	c.Env = append(os.Environ(), e.Env...)
	c.Stderr = os.Stderr
	return c
}

// TestCloseLeavesNothing checks that closing a player whose module hangs ends its process
// and every goroutine the player started, on each transport.
func TestCloseLeavesNothing(t *testing.T) {
	for _, transport := range []string{TransportStdio, TransportIPC, TransportTCP} {
		t.Run(transport, func(t *testing.T) {
			goroutines := runtime.NumGoroutine()
			ctx := context.Background()
			p, err := driver.Start(ctx, fakeEngine(t, "hang", transport, "hang"), driver.StartEnv{Grace: testGrace})
			if err != nil {
				t.Fatal(err)
			}
			pid := p.(*Player).mod.child.Pid()
			p.NewGame(ctx, "Base")
			short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			_, err = p.BestMove(short, driver.SearchLimit{Time: 50 * time.Millisecond})
			cancel()
			if err == nil {
				t.Fatal("a hung module answered")
			}
			start := time.Now()
			if err := p.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if err := p.Close(ctx); err != nil {
				t.Fatalf("closing twice: %v", err)
			}
			if d := time.Since(start); d > testGrace+time.Second {
				t.Errorf("Close took %s", d)
			}
			if err := syscall.Kill(pid, 0); err == nil {
				t.Errorf("process %d is still running", pid)
			}
			for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > goroutines; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d goroutines after Close, %d before Start", runtime.NumGoroutine(), goroutines)
				}
			}
		})
	}
}
