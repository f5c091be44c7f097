//go:build unix

package uhpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/proc"
	"hivearbiter/internal/syncbuf"
)

func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see proc.Main).
	proc.Main()
	uhpfake.Main()
	os.Exit(m.Run())
}

const testGrace = 300 * time.Millisecond

// startFake starts the test binary as the fake engine of a scenario. Whether or not Start
// succeeds, the test ends by closing the engine and checking that its process is gone and
// that no goroutine outlived it.
func startFake(t *testing.T, ctx context.Context, name string, configure ...func(*Config)) (*Engine, error) {
	t.Helper()
	goroutines := runtime.NumGoroutine()
	pidFile := filepath.Join(t.TempDir(), "pid")
	fake := scenario(name)
	fake.PidFile = pidFile
	command, env := uhpfake.Command(fake)
	cfg := Config{
		Command:      command,
		Env:          env,
		Name:         name,
		StartTimeout: 5 * time.Second,
		GraceTimeout: testGrace,
	}
	for _, f := range configure {
		f(&cfg)
	}
	e, err := Start(ctx, cfg)
	t.Cleanup(func() {
		if e != nil {
			e.Close(context.Background())
			select {
			case <-e.child.Done():
			default:
				t.Error("Close returned before the engine's goroutines ended")
			}
		}
		checkEngineGone(t, pidFile)
		checkGoroutines(t, goroutines)
	})
	return e, err
}

// mustStartFake is startFake for the tests of a running engine: a failed Start ends the
// test.
func mustStartFake(t *testing.T, scenario string, configure ...func(*Config)) *Engine {
	t.Helper()
	e, err := startFake(t, t.Context(), scenario, configure...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkTimesOut runs a command that the fake engine does not answer in time, under a context
// that ends after deadline. The command must fail with a TimeoutError for that deadline that
// names the engine and the command, and not before the deadline. It returns the error and
// how long the command took.
func checkTimesOut(t *testing.T, e *Engine, deadline time.Duration, command string, run func(context.Context) error) (*TimeoutError, time.Duration) {
	t.Helper()
	begin := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	err := run(ctx)
	took := time.Since(begin)
	var te *TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) || te.Command != command {
		t.Fatalf("got %.300v; want a TimeoutError for %.100q after %v", err, command, deadline)
	}
	checkNamesEngine(t, err, e.cfg.Name)
	if took < deadline {
		t.Errorf("%.100s gave up after %v, before its deadline %v", command, took, deadline)
	}
	return te, took
}

// checkStaysBroken checks the promise that after a TimeoutError, ExitError or
// ProtocolError the engine is dead: a later command returns that same error, at once.
func checkStaysBroken(t *testing.T, e *Engine, broke error, command string) {
	t.Helper()
	begin := time.Now()
	_, err := e.Send(t.Context(), command)
	if took := time.Since(begin); !errors.Is(err, broke) || took > 100*time.Millisecond {
		t.Errorf("%s after %.300v: got %.300v after %v; want the same error at once", command, broke, err, took)
	}
}

// checkEngineGone checks that the fake engine's process no longer exists. The engine is
// our child and Close or a failed Start reaps it, so it must be gone at once.
func checkEngineGone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Errorf("the fake engine did not write its pid: %v", err)
		return
	}
	pid, _ := strconv.Atoi(string(data))
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("engine process %d is still there after the engine was closed (kill 0: %v)", pid, err)
	}
}

func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines before the engine, %d after it:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// gone reports whether a process that is not our child has ended. It stays a zombie until
// whoever inherited it reaps it, which may be never in a container.
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err != nil || bytes.Contains(stat, []byte(") Z "))
}

func checkNamesEngine(t *testing.T, err error, name string) {
	t.Helper()
	if prefix := "uhpclient: " + name + ": "; !strings.HasPrefix(err.Error(), prefix) {
		t.Errorf("error %q does not start with %q", err, prefix)
	}
}

func TestNormalConversation(t *testing.T) {
	var transcript bytes.Buffer
	e := mustStartFake(t, "normal", func(c *Config) { c.Transcript = &transcript })
	ctx := t.Context()
	info := e.Info()
	if info.ID != "Fake v1" || !slices.Equal(info.Capabilities, []string{"Mosquito", "Ladybug", "Pillbug"}) || !info.Supports("Base+MLP") {
		t.Errorf("info %+v", info)
	}

	for _, step := range []struct {
		name string
		run  func() (string, error)
		want string
	}{
		{"newgame", func() (string, error) { return e.NewGame(ctx, "Base+MLP") }, "Base+MLP;NotStarted;White[1]"},
		{"newgame default", func() (string, error) { return e.NewGame(ctx, "") }, "Base;NotStarted;White[1]"},
		{"play", func() (string, error) { return e.Play(ctx, "wS1") }, "Base;InProgress;Black[1];wS1"},
		{"undo", func() (string, error) { return e.Undo(ctx, 1) }, "Base;NotStarted;White[1]"},
		{"bestmove depth", func() (string, error) { return e.BestMove(ctx, BestMoveArgs{Depth: 3}) }, "wS1"},
		{"bestmove time", func() (string, error) { return e.BestMove(ctx, BestMoveArgs{Time: 1500 * time.Millisecond}) }, "wS1"},
		{"bestmove fractional", func() (string, error) {
			return e.BestMove(ctx, BestMoveArgs{Time: 1500 * time.Millisecond, FractionalSeconds: true})
		}, "wS1"},
	} {
		if got, err := step.run(); err != nil || got != step.want {
			t.Errorf("%s: got %q, %v; want %q", step.name, got, err, step.want)
		}
	}
	if moves, err := e.ValidMoves(ctx); err != nil || !slices.Equal(moves, []string{"wS1", "wB1", "wG1", "wA1"}) {
		t.Errorf("validmoves: %q, %v", moves, err)
	}
	opts, err := e.Options(ctx)
	if err != nil || len(opts) != 2 || opts[1].Name != "PonderDuringIdle" || !slices.Equal(opts[1].Extra, []string{"Disabled", "SingleThreaded", "MultiThreaded"}) {
		t.Errorf("options: %+v, %v", opts, err)
	}
	if o, err := e.GetOption(ctx, "MaxBranchingFactor"); err != nil || o.Value != "500" || o.Type != "int" {
		t.Errorf("options get: %+v, %v", o, err)
	}
	if o, err := e.SetOption(ctx, "MaxBranchingFactor", "250"); err != nil || o.Value != "250" || o.Default != "500" {
		t.Errorf("options set: %+v, %v", o, err)
	}

	// Refusals leave the engine usable.
	lines, err := e.Send(ctx, "frobnicate")
	var engErr *EngineError
	if !errors.As(err, &engErr) || engErr.Command != "frobnicate" || !strings.HasPrefix(engErr.Message, "Invalid command.") || len(lines) != 1 {
		t.Errorf("unknown command: %q, %v", lines, err)
	} else {
		checkNamesEngine(t, err, "normal")
	}
	_, err = e.Pass(ctx)
	var invalid *InvalidMoveError
	if !errors.As(err, &invalid) || invalid.Move != "pass" || !strings.Contains(invalid.Message, "can't pass") {
		t.Errorf("pass: %v", err)
	}
	// A search without limit is the caller's mistake, and is never sent: Mzinga would
	// search forever.
	if _, err := e.BestMove(ctx, BestMoveArgs{}); err == nil || errors.As(err, new(*ProtocolError)) {
		t.Errorf("bestmove without a limit: %v", err)
	}
	if _, err := e.Undo(ctx, 0); err == nil {
		t.Error("undo 0 was accepted")
	}
	if gs, err := e.NewGame(ctx, "Base"); err != nil || gs != "Base;NotStarted;White[1]" {
		t.Errorf("newgame after refusals: %q, %v", gs, err)
	}

	if err := e.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := e.Close(ctx); err != nil {
		t.Errorf("second close: %v", err)
	}
	if _, err := e.ValidMoves(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("validmoves after close: %v", err)
	}

	log := transcript.String()
	for _, want := range []string{"> newgame Base+MLP", "< Base+MLP;NotStarted;White[1]", "< ok",
		"> bestmove depth 3", "> bestmove time 00:00:01", "> bestmove time 00:00:01.500", "> exit"} {
		if !regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d\d\d ` + regexp.QuoteMeta(want) + `$`).MatchString(log) {
			t.Errorf("the transcript has no line %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "> bestmove\n") {
		t.Errorf("a bare bestmove was sent:\n%s", log)
	}
}

func TestStartFailures(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		ctx      func(context.Context) (context.Context, context.CancelFunc)
		timeout  time.Duration // StartTimeout
		check    func(error) bool
	}{
		{"slow-start", nil, 300 * time.Millisecond, func(err error) bool {
			var te *TimeoutError
			return errors.As(err, &te) && te.Command == "start" && errors.Is(err, context.DeadlineExceeded)
		}},
		{"slow-start", func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 300*time.Millisecond)
		}, time.Minute, func(err error) bool {
			return errors.As(err, new(*TimeoutError)) && errors.Is(err, context.DeadlineExceeded)
		}},
		{"slow-start", func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(300*time.Millisecond, cancel)
			return ctx, cancel
		}, time.Minute, func(err error) bool {
			return errors.As(err, new(*TimeoutError)) && errors.Is(err, context.Canceled)
		}},
		{"no-banner", nil, 0, func(err error) bool {
			var pe *ProtocolError
			return errors.As(err, &pe) && strings.Contains(pe.Msg, `no "id" line`)
		}},
		{"crash-start", nil, 0, func(err error) bool {
			var ee *ExitError
			return errors.As(err, &ee) && ee.ExitCode == 3 && slices.Equal(ee.Stderr, []string{"fatal: cannot load weights"})
		}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			ctx, cancel := t.Context(), context.CancelFunc(func() {})
			if tc.ctx != nil {
				ctx, cancel = tc.ctx(ctx)
			}
			defer cancel()
			begin := time.Now()
			e, err := startFake(t, ctx, tc.scenario, func(c *Config) { c.StartTimeout = tc.timeout })
			if e != nil || err == nil || !tc.check(err) {
				t.Fatalf("got %v, %v", e, err)
			}
			checkNamesEngine(t, err, tc.scenario)
			if took := time.Since(begin); took > 300*time.Millisecond+2*time.Second {
				t.Errorf("Start took %v", took)
			}
		})
	}
}

func TestStartWithoutAProgram(t *testing.T) {
	if _, err := Start(t.Context(), Config{}); err == nil {
		t.Error("an empty command started")
	}
	_, err := Start(t.Context(), Config{Command: []string{"/nonexistent/hive-engine"}})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
	checkNamesEngine(t, err, "hive-engine")
}

func TestBOMAndCRLF(t *testing.T) {
	e := mustStartFake(t, "bom-crlf")
	if info := e.Info(); info.ID != "Fake v1" || !slices.Equal(info.Capabilities, []string{"Mosquito", "Ladybug", "Pillbug"}) {
		t.Errorf("info %+v", info)
	}
	if gs, err := e.NewGame(t.Context(), "Base"); err != nil || gs != "Base;NotStarted;White[1]" {
		t.Errorf("newgame: %q, %v", gs, err)
	}
	if moves, err := e.ValidMoves(t.Context()); err != nil || !slices.Equal(moves, []string{"wS1", "wB1", "wG1", "wA1"}) {
		t.Errorf("validmoves: %q, %v", moves, err)
	}
	e.Close(t.Context())
	if stderr := e.Stderr(); !slices.Equal(stderr, []string{"mono: starting"}) {
		t.Errorf("stderr %q: the byte-order mark or CR was kept", stderr)
	}
}

func TestMultiLineErr(t *testing.T) {
	e := mustStartFake(t, "normal")
	// Mzinga on mono: "err Couldn't parse expansion pieces." then "Parameter name: boardString".
	_, err := e.NewGame(t.Context(), "Foo")
	var engErr *EngineError
	if !errors.As(err, &engErr) || engErr.Command != "newgame Foo" ||
		engErr.Message != "Couldn't parse expansion pieces. Parameter name: boardString" {
		t.Fatalf("got %v", err)
	}
	if _, err := e.NewGame(t.Context(), "Base"); err != nil {
		t.Errorf("an err reply left the engine unusable: %v", err)
	}
}

func TestInvalidMove(t *testing.T) {
	e := mustStartFake(t, "normal")
	_, err := e.Play(t.Context(), "wQ")
	var invalid *InvalidMoveError
	if !errors.As(err, &invalid) || invalid.Move != "wQ" || invalid.Message != "You can't play your Queen Bee on your first turn." {
		t.Fatalf("got %v", err)
	}
	checkNamesEngine(t, err, "normal")
	if _, err := e.Play(t.Context(), "wS1"); err != nil {
		t.Errorf("an invalidmove reply left the engine unusable: %v", err)
	}
}

func TestIntermediateBestMoveLines(t *testing.T) {
	e := mustStartFake(t, "intermediate")
	if m, err := e.BestMove(t.Context(), BestMoveArgs{Time: time.Second}); err != nil || m != "wG1" {
		t.Fatalf("got %q, %v; want wG1, the first field of the last line", m, err)
	}
}

func TestMissingOKThenExit(t *testing.T) {
	e := mustStartFake(t, "no-ok-exit")
	_, err := e.BestMove(t.Context(), BestMoveArgs{Depth: 1})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 0 || ee.Command != "bestmove depth 1" || !slices.Contains(ee.Stderr, "fatal: search thread died") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), `it printed "wS1"`) {
		t.Errorf("%q does not quote what the engine printed before it exited", err)
	}
	checkStaysBroken(t, e, err, "newgame Base")
}

func TestEngineExitsOnItsOwn(t *testing.T) {
	e := mustStartFake(t, "exits-on-own")
	_, err := e.NewGame(t.Context(), "Base")
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 0 || ee.Signal != "" {
		t.Fatalf("got %v", err)
	}
}

func TestCrashMidCommand(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		run      func(*Engine) error
		check    func(*ExitError) bool
	}{
		{"crash-bestmove", func(e *Engine) error { _, err := e.BestMove(t.Context(), BestMoveArgs{Depth: 1}); return err },
			func(ee *ExitError) bool {
				return ee.ExitCode == 101 && ee.Command == "bestmove depth 1" &&
					strings.Contains(ee.Error(), "exit status 101") && strings.Contains(ee.Error(), "Option::unwrap()")
			}},
		{"self-kill", func(e *Engine) error { _, err := e.Play(t.Context(), "wS1"); return err },
			func(ee *ExitError) bool { return ee.ExitCode == -1 && ee.Signal == "killed" }},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			e := mustStartFake(t, tc.scenario)
			err := tc.run(e)
			var ee *ExitError
			if !errors.As(err, &ee) || !tc.check(ee) {
				t.Fatalf("got %v (%+v)", err, ee)
			}
			checkNamesEngine(t, err, tc.scenario)
			checkStaysBroken(t, e, err, "validmoves")
		})
	}
}

func TestOverLongLine(t *testing.T) {
	const limit = 64 << 10
	e := mustStartFake(t, "long-line", func(c *Config) { c.MaxLineBytes = limit })
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := e.BestMove(t.Context(), BestMoveArgs{Depth: 1})
	runtime.ReadMemStats(&after)
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, fmt.Sprint(limit)) || !strings.HasPrefix(pe.Line, "xxxx") {
		t.Fatalf("got %v", err)
	}
	// The engine wrote 10 MiB on one line; reading it must cost about one line limit.
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 2<<20 {
		t.Errorf("%d bytes allocated while reading a 10 MiB line with a 64 KiB limit", allocated)
	}
	checkStaysBroken(t, e, err, "validmoves")
}

func TestFloodWithoutOK(t *testing.T) {
	e := mustStartFake(t, "flood", func(c *Config) { c.MaxLineBytes = 1024 })
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err := e.BestMove(ctx, BestMoveArgs{Depth: 1})
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "without ok") {
		t.Fatalf("got %v; want a ProtocolError long before the deadline", err)
	}
}

func TestGarbageWithoutOK(t *testing.T) {
	e := mustStartFake(t, "garbage")
	checkTimesOut(t, e, 300*time.Millisecond, "bestmove depth 1", func(ctx context.Context) error {
		_, err := e.Send(ctx, "bestmove depth 1")
		return err
	})
}

func TestWriteToAnEngineThatStoppedReading(t *testing.T) {
	e := mustStartFake(t, "deaf")
	const deadline = 200 * time.Millisecond
	// Far more than a pipe holds: the write itself blocks.
	game := "Base;InProgress;White[2];" + strings.Repeat("wS1;", 1<<18)
	_, took := checkTimesOut(t, e, deadline, "newgame "+game, func(ctx context.Context) error {
		_, err := e.NewGame(ctx, game)
		return err
	})
	if took > deadline+time.Second {
		t.Errorf("took %v", took)
	}
}

func TestBestMoveHangIgnoringSIGINT(t *testing.T) {
	e := mustStartFake(t, "hang-ignore-int")
	const deadline = 200 * time.Millisecond
	te, took := checkTimesOut(t, e, deadline, "bestmove time 00:00:05", func(ctx context.Context) error {
		_, err := e.BestMove(ctx, BestMoveArgs{Time: 5 * time.Second})
		return err
	})
	if te.After < deadline || te.After > deadline+testGrace {
		t.Errorf("gave up %v after sending, want the deadline %v", te.After, deadline)
	}
	// Interrupted, given the whole grace period, then killed.
	if took < deadline+testGrace || took > deadline+testGrace+time.Second {
		t.Errorf("took %v, want the deadline %v plus the grace %v", took, deadline, testGrace)
	}
	if !slices.Contains(e.Stderr(), "SIGINT received and ignored") {
		t.Errorf("no SIGINT reached the engine: stderr %q", e.Stderr())
	}
	checkStaysBroken(t, e, te, "bestmove depth 1")
}

func TestBestMoveInterruptHonoured(t *testing.T) {
	var transcript bytes.Buffer
	const grace = 3 * time.Second
	e := mustStartFake(t, "honour-int", func(c *Config) {
		c.Transcript = &transcript
		c.GraceTimeout = grace
	})
	_, took := checkTimesOut(t, e, 200*time.Millisecond, "bestmove time 00:01:00", func(ctx context.Context) error {
		_, err := e.BestMove(ctx, BestMoveArgs{Time: time.Minute})
		return err
	})
	// The engine answered the SIGINT at once, so the grace period was not waited out.
	if took > grace/2 {
		t.Errorf("took %v", took)
	}
	e.Close(t.Context())
	if !regexp.MustCompile(`(?m)< wA1\n.* < ok$`).MatchString(transcript.String()) {
		t.Errorf("the engine's answer to SIGINT is not in the transcript:\n%s", transcript.String())
	}
}

func TestHangDuringPlay(t *testing.T) {
	const grace = time.Second
	e := mustStartFake(t, "hang-play", func(c *Config) { c.GraceTimeout = grace })
	const deadline = 200 * time.Millisecond
	_, took := checkTimesOut(t, e, deadline, "play wS1", func(ctx context.Context) error {
		_, err := e.Play(ctx, "wS1")
		return err
	})
	// Only a search is interrupted first; anything else is killed on the spot.
	if took > deadline+grace/2 {
		t.Errorf("took %v", took)
	}
	if slices.Contains(e.Stderr(), "SIGINT received and ignored") {
		t.Error("a play was interrupted with SIGINT")
	}
}

func TestCloseKillsAnEngineThatIgnoresExit(t *testing.T) {
	for _, scenario := range []string{"ignore-exit-spin", "ignore-exit-flood"} {
		t.Run(scenario, func(t *testing.T) {
			e := mustStartFake(t, scenario)
			begin := time.Now()
			err := e.Close(t.Context())
			if took := time.Since(begin); took < testGrace || took > testGrace+time.Second {
				t.Errorf("Close took %v, want the grace %v and little more", took, testGrace)
			}
			if err == nil || !strings.Contains(err.Error(), "killed") {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

func TestStderrFlood(t *testing.T) {
	e := mustStartFake(t, "stderr-flood", func(c *Config) { c.StartTimeout = 10 * time.Second })
	if _, err := e.NewGame(t.Context(), "Base"); err != nil {
		t.Fatal(err)
	}
	stderr := e.Stderr()
	if len(stderr) != proc.TailLines || len(stderr[0]) > proc.TailLineBytes+3 {
		t.Errorf("kept %d stderr lines of %d bytes, want %d of at most %d", len(stderr), len(stderr[0]), proc.TailLines, proc.TailLineBytes)
	}
}

func TestProtocolErrorsBreakTheEngine(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		run      func(*Engine) error
		msg      string
	}{
		{"bad-gamestring", func(e *Engine) error { _, err := e.Play(t.Context(), "wS1"); return err }, "not a GameString"},
		{"normal", func(e *Engine) error { _, err := e.GetOption(t.Context(), "Foo"); return err }, `no line for option "Foo"`},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			e := mustStartFake(t, tc.scenario)
			err := tc.run(e)
			var pe *ProtocolError
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, tc.msg) {
				t.Fatalf("got %v", err)
			}
			checkStaysBroken(t, e, err, "newgame Base")
		})
	}
}

func TestChildKilledWithTheGroup(t *testing.T) {
	e := mustStartFake(t, "child")
	var child int
	if _, err := fmt.Sscanf(e.Info().Lines[0], "child %d", &child); err != nil {
		t.Fatalf("info %q: %v", e.Info().Lines, err)
	}
	if err := e.Close(t.Context()); err != nil {
		t.Errorf("close: %v", err)
	}
	for range 100 {
		if gone(child) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(child, syscall.SIGKILL)
	t.Fatalf("child %d outlived its engine", child)
}

func TestEscapedChildDoesNotHoldTheEngine(t *testing.T) {
	e := mustStartFake(t, "escaped-child")
	var child int
	if _, err := fmt.Sscanf(e.Info().Lines[0], "child %d", &child); err != nil {
		t.Fatalf("info %q: %v", e.Info().Lines, err)
	}
	// Out of the group, the child cannot be killed with it; the test cleans up after it.
	t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) })
	begin := time.Now()
	e.Close(t.Context())
	// The readers give up on the pipes the child holds one grace period after the exit.
	if took := time.Since(begin); took > 2*testGrace+time.Second {
		t.Errorf("Close took %v", took)
	}
	if gone(child) {
		t.Error("the escaped child was killed: the test shows nothing")
	}
}

func TestKillEndsARunningCommand(t *testing.T) {
	e, result := hungBestMove(t)
	// A second caller waits its turn only as long as its context allows, and is never sent.
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	var te *TimeoutError
	if _, err := e.ValidMoves(ctx); !errors.As(err, &te) || te.Command != "validmoves" {
		t.Errorf("a caller waiting its turn got %v", err)
	}
	select {
	case err := <-result:
		t.Fatalf("the running bestmove ended early: %v", err)
	default:
	}
	if err := e.Kill(); err != nil {
		t.Errorf("kill: %v", err)
	}
	select {
	case err := <-result:
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Signal != "killed" {
			t.Errorf("the running bestmove returned %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the running bestmove did not return after Kill")
	}
	if err := e.Kill(); err != nil {
		t.Errorf("second kill: %v", err)
	}
}

func TestCloseEndsARunningCommandWhenItsContextEnds(t *testing.T) {
	e, result := hungBestMove(t)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	begin := time.Now()
	e.Close(ctx)
	if took := time.Since(begin); took > 200*time.Millisecond+time.Second {
		t.Errorf("Close took %v", took)
	}
	if err := <-result; !errors.As(err, new(*ExitError)) {
		t.Errorf("the running bestmove returned %v", err)
	}
}

func TestConcurrentCallersTakeTurns(t *testing.T) {
	e := mustStartFake(t, "normal")
	var wg sync.WaitGroup
	errs := make(chan error, 8*20)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if moves, err := e.ValidMoves(t.Context()); err != nil || len(moves) != 4 {
					errs <- fmt.Errorf("%q, %v", moves, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// hungBestMove starts an engine that hangs in bestmove, ignoring SIGINT, and a bestmove running
// on it; the channel receives the command's error.
func hungBestMove(t *testing.T) (*Engine, chan error) {
	t.Helper()
	e := mustStartFake(t, "hang-ignore-int")
	result := make(chan error, 1)
	go func() {
		_, err := e.BestMove(t.Context(), BestMoveArgs{Time: time.Minute})
		result <- err
	}()
	time.Sleep(100 * time.Millisecond)
	return e, result
}

// TestInterruptReturnsTheEnginesMove: a viewer's interrupt (Engine.Interrupt, from another
// goroutine) stops the search, BestMove returns the move the engine then answers, and the
// engine stays usable. Between searches Interrupt does nothing.
func TestInterruptReturnsTheEnginesMove(t *testing.T) {
	// An engine that reports every SIGINT on stderr gets none between searches, nor after a
	// search it answered.
	normal := mustStartFake(t, "normal")
	if err := normal.Interrupt(); err != nil {
		t.Fatalf("Interrupt between searches: %v", err)
	}
	if _, err := normal.BestMove(t.Context(), BestMoveArgs{Depth: 1}); err != nil {
		t.Fatal(err)
	}
	if err := normal.Interrupt(); err != nil {
		t.Fatalf("Interrupt after a search: %v", err)
	}
	if _, err := normal.NewGame(t.Context(), "Base"); err != nil {
		t.Fatal(err)
	}
	normal.Close(t.Context())
	if slices.Contains(normal.Stderr(), "SIGINT received and ignored") {
		t.Error("Interrupt signalled an engine that was not searching")
	}

	e := mustStartFake(t, "honour-int")
	go func() {
		time.Sleep(100 * time.Millisecond)
		if err := e.Interrupt(); err != nil {
			t.Errorf("Interrupt: %v", err)
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	begin := time.Now()
	move, err := e.BestMove(ctx, BestMoveArgs{Time: time.Minute})
	if err != nil || move != "wA1" {
		t.Fatalf("BestMove = %q, %v; want the engine's answer to the interrupt, wA1", move, err)
	}
	if took := time.Since(begin); took > 10*time.Second {
		t.Errorf("the interrupted search took %v", took)
	}
	if _, err := e.NewGame(t.Context(), "Base"); err != nil {
		t.Errorf("the engine is not usable after an interrupted search: %v", err)
	}
}

// A long game's GameString is one line far over 64 KiB: the default limit must hold it, or
// the engine that reports it forfeits a game it did nothing wrong in.
func TestLongGameStringFitsTheDefaultLimit(t *testing.T) {
	e := mustStartFake(t, "long-game")
	gs, err := e.NewGame(t.Context(), "Base")
	if err != nil {
		t.Fatalf("newgame: %v", err)
	}
	if len(gs) < 75_000 {
		t.Errorf("got a GameString of %d bytes; the fake sends about 80,000", len(gs))
	}
}

// What an engine printed before a timeout is what tells a user why it timed out: it is kept
// and quoted, and an engine that never printed its banner is told what UHP asks for.
func TestTimeoutsQuoteWhatTheEnginePrinted(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		run      func(context.Context, *Engine) error
		want     []string
	}{
		{"not-uhp", nil, []string{`"HELLO I AM NOT UHP"`, "info banner", "at start-up"}},
		{"slow-start", nil, []string{"printed nothing", "info banner", "at start-up"}},
		{"partial", func(ctx context.Context, e *Engine) error { _, err := e.ValidMoves(ctx); return err },
			[]string{`"wS1;wB1"`, `"thinking about the rest"`, `no "ok"`}},
		{"garbage", func(ctx context.Context, e *Engine) error {
			_, err := e.BestMove(ctx, BestMoveArgs{Depth: 1})
			return err
		},
			[]string{`"\x00\a garbage \xff"`}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			e, err := startFake(t, ctx, tc.scenario, func(c *Config) { c.StartTimeout = 300 * time.Millisecond })
			if tc.run != nil {
				if err != nil {
					t.Fatal(err)
				}
				cctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
				defer cancel()
				err = tc.run(cctx, e)
			}
			var te *TimeoutError
			if !errors.As(err, &te) {
				t.Fatalf("got %v; want a TimeoutError", err)
			}
			t.Log(err)
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q does not say %s", err, want)
				}
			}
			if strings.Contains(err.Error(), "context deadline exceeded") {
				t.Errorf("%q speaks Go, not to a user", err)
			}
		})
	}
}

func TestNoBannerSaysWhatUHPAsks(t *testing.T) {
	_, err := startFake(t, t.Context(), "no-banner")
	if err == nil || !strings.Contains(err.Error(), `"hello"`) || !strings.Contains(err.Error(), "must print its info banner") {
		t.Fatalf("got %v", err)
	}
}

// A program that cannot be run is said in one sentence, without Go's fork/exec.
func TestStartAProgramThatCannotRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		command string
		dir     string
		want    string
	}{
		{"missing", "./nope", "", `"./nope" does not exist`},
		{"missing in dir", "./nope", dir, `"./nope" does not exist in ` + dir},
		{"not on the PATH", "no-such-hive-engine", "", `no program "no-such-hive-engine" on the PATH`},
		{"a directory", dir, "", "is a directory, not a program"},
		{"not executable", script, "", "is not executable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(t.Context(), Config{Command: []string{tc.command}, Dir: tc.dir, Name: "a"})
			var pe *ProgramError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v; want a ProgramError saying %s", err, tc.want)
			}
			t.Log(err)
			if strings.Contains(err.Error(), "fork/exec") || strings.Contains(err.Error(), "permission denied") {
				t.Errorf("%q speaks Go, not to a user", err)
			}
			if CheckProgram(tc.command, tc.dir) == nil {
				t.Errorf("CheckProgram(%q) found nothing wrong", tc.command)
			}
		})
	}
	if err := CheckProgram(os.Args[0], ""); err != nil {
		t.Errorf("CheckProgram of the test binary: %v", err)
	}
}

// A program CheckProgram passes but the system refuses (built for another system) is a
// ProgramError with the system's reason.
func TestStartAProgramTheSystemRefuses(t *testing.T) {
	program := filepath.Join(t.TempDir(), "engine")
	if err := os.WriteFile(program, []byte("\x7fELF, but not for this machine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckProgram(program, ""); err != nil {
		t.Fatalf("CheckProgram: %v", err)
	}
	_, err := Start(t.Context(), Config{Command: []string{program}, Name: "a"})
	pe, ok := errors.AsType[*ProgramError](err)
	if !ok || !strings.Contains(err.Error(), "uhpclient: a: the program") || !strings.Contains(err.Error(), "cannot be run: exec format error") {
		t.Fatalf("got %v; want a ProgramError with the system's reason", err)
	}
	if !errors.Is(pe, syscall.ENOEXEC) || strings.Contains(err.Error(), "fork/exec") {
		t.Errorf("%q: want the bare reason, which unwraps to ENOEXEC", err)
	}
}

// An engine that reads whole seconds and survives SIGINT is sent a budget under one second as
// one second, and stopped with SIGINT when the budget is up: it answers its best move so far,
// in time.
func TestOverrunBudgetIsStoppedWithSIGINT(t *testing.T) {
	var transcript bytes.Buffer
	e := mustStartFake(t, "honour-int", func(c *Config) { c.Transcript = &transcript })
	l := BestMoveArgs{Time: 300 * time.Millisecond, Interruptible: true}
	if !l.Overrun() {
		t.Error("a 0.3 s budget in whole seconds is not an Overrun")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	begin := time.Now()
	move, err := e.BestMove(ctx, l)
	took := time.Since(begin)
	if err != nil || move != "wA1" {
		t.Fatalf("got %q, %v; want the answer to SIGINT, wA1", move, err)
	}
	// The order of events is the point: answered after the budget, before the second sent.
	if took < l.Time || took >= time.Second {
		t.Errorf("took %v; want the budget, %v, and less than the second it was sent", took, l.Time)
	}
	if _, err := e.NewGame(t.Context(), "Base"); err != nil {
		t.Errorf("the engine is not usable after its budget was stopped: %v", err)
	}
	e.Close(t.Context())
	log := transcript.String()
	if !strings.Contains(log, "> bestmove time 00:00:01\n") || !regexp.MustCompile(`(?m)^\S+ \* SIGINT after 0\.\d\d\d s: the budget of 0\.300 s is up`).MatchString(log) {
		t.Errorf("the transcript lacks the rounded command or the interrupt:\n%s", log)
	}
	for _, l := range []BestMoveArgs{{Time: time.Second}, {Time: 2 * time.Second}, {Time: 1500 * time.Millisecond, Interruptible: true},
		{Time: 300 * time.Millisecond, FractionalSeconds: true}, {Depth: 2}} {
		if l.Overrun() || l.stopsAt() != 0 {
			t.Errorf("%+v is an Overrun, or stopped", l)
		}
	}
}

// An engine that dies of SIGINT is never interrupted at its budget: a budget under one second
// is sent as one second, and the engine answers it by itself.
func TestOverrunBudgetOfAnEngineThatDiesOfSIGINT(t *testing.T) {
	var transcript bytes.Buffer
	e := mustStartFake(t, "nokamute", func(c *Config) { c.Transcript = &transcript })
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	move, err := e.BestMove(ctx, BestMoveArgs{Time: 300 * time.Millisecond})
	if err != nil || move == "" {
		t.Fatalf("got %q, %v; want its answer after the second it was sent", move, err)
	}
	e.Close(t.Context())
	if log := transcript.String(); strings.Contains(log, "SIGINT") || !strings.Contains(log, "> bestmove time 00:00:01\n") {
		t.Errorf("want one second sent and no SIGINT:\n%s", log)
	}
}

// An engine that dies of the SIGINT that stops its search is told so: interrupted at what
// time (no sooner than its time was up; on a loaded machine, later), and exited. The grace
// for its exit is wide: a race-built fake on a loaded machine may take over a second to die.
func TestDeathOnSIGINTIsExplained(t *testing.T) {
	wideGrace := func(c *Config) { c.GraceTimeout = 10 * time.Second }
	t.Run("budget", func(t *testing.T) {
		e := mustStartFake(t, "die-on-int", wideGrace)
		_, err := e.BestMove(t.Context(), BestMoveArgs{Time: 300 * time.Millisecond, Interruptible: true})
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Interrupted < 300*time.Millisecond || !strings.Contains(err.Error(), "interrupted with SIGINT at "+seconds(ee.Interrupted)) {
			t.Fatalf("got %v", err)
		}
		t.Log(err)
	})
	t.Run("deadline", func(t *testing.T) {
		e := mustStartFake(t, "die-on-int", wideGrace)
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		_, err := e.BestMove(ctx, BestMoveArgs{Depth: 1})
		var te *TimeoutError
		if !errors.As(err, &te) || te.Interrupt == nil || te.Interrupt.At < 300*time.Millisecond {
			t.Fatalf("got %v, want a timeout interrupted at 0.3 s or later", err)
		}
		t.Log(err)
		for _, want := range []string{"did not answer", "interrupted with SIGINT at " + seconds(te.Interrupt.At), "exited"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q does not say %s", err, want)
			}
		}
	})
}

func TestNoteMarksTheTranscript(t *testing.T) {
	var transcript bytes.Buffer
	e := mustStartFake(t, "normal", func(c *Config) { c.Transcript = &transcript })
	e.Note("game 3 begins")
	e.Close(t.Context())
	if !regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d\d\d \* game 3 begins$`).MatchString(transcript.String()) {
		t.Errorf("no note in the transcript:\n%s", transcript.String())
	}
}

// An overrun budget is counted from when its bestmove is sent, not from when BestMove was
// called: a caller that waits for its turn neither stops another caller's search early nor
// goes unstopped itself.
func TestOverrunBudgetCountsFromTheCommand(t *testing.T) {
	e := mustStartFake(t, "honour-int")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	first := make(chan time.Duration)
	go func() {
		begin := time.Now()
		if _, err := e.BestMove(ctx, BestMoveArgs{Time: 600 * time.Millisecond, Interruptible: true}); err != nil {
			t.Error(err)
		}
		first <- time.Since(begin)
	}()
	time.Sleep(50 * time.Millisecond)
	begin := time.Now()
	move, err := e.BestMove(ctx, BestMoveArgs{Time: 300 * time.Millisecond, Interruptible: true})
	took := time.Since(begin)
	if err != nil || move != "wA1" {
		t.Fatalf("the second search: %q, %v", move, err)
	}
	if d := <-first; d < 600*time.Millisecond {
		t.Errorf("the first search was stopped after %v, before its budget of 0.6 s", d)
	}
	if took > 550*time.Millisecond+300*time.Millisecond+200*time.Millisecond {
		t.Errorf("the second search took %v: it was not stopped 0.3 s after it was sent", took)
	}
}

// TestLastWordsBetweenCommands: what an engine prints on stdout as it exits between commands
// reaches the transcript at once, though no command reads it (the commands read stdout
// themselves), and the next command finds the engine gone.
func TestLastWordsBetweenCommands(t *testing.T) {
	var transcript syncbuf.Buffer
	e := mustStartFake(t, "last-words", func(c *Config) { c.Transcript = &transcript })
	if _, err := e.Play(t.Context(), "wS1"); err != nil {
		t.Fatal(err)
	}
	goodbye := regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d\d\d < goodbye$`)
	for deadline := time.Now().Add(10 * time.Second); !goodbye.MatchString(transcript.String()); {
		if time.Now().After(deadline) {
			t.Fatalf("no last words in the transcript:\n%s", transcript.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, err := e.ValidMoves(t.Context())
	if _, ok := errors.AsType[*ExitError](err); !ok {
		t.Fatalf("a command after the exit: %v; want an ExitError", err)
	}
}
