package uhpclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the fake engines: FAKE_UHP names the scenario.
func TestMain(m *testing.M) {
	if s := os.Getenv("FAKE_UHP"); s != "" {
		fakeEngine(s)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine is a tiny scripted UHP engine that misbehaves as the scenario says.
func fakeEngine(scenario string) {
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	interrupted := make(chan os.Signal, 1)
	switch scenario {
	case "hang-ignore-int", "spin-no-exit":
		signal.Ignore(os.Interrupt)
	default:
		signal.Notify(interrupted, os.Interrupt)
	}
	switch scenario {
	case "slow-start":
		time.Sleep(5 * time.Second)
	case "bom-crlf":
		out.WriteString("\ufeffid Fake v1\r\nMosquito;Ladybug;Pillbug\r\nok\r\n")
		out.Flush()
	case "no-banner":
		say("hello", "ok")
	case "crash-start":
		fmt.Fprintln(os.Stderr, "fatal: cannot load weights")
		os.Exit(3)
	default:
		say("id Fake v1", "Mosquito;Ladybug;Pillbug", "ok")
	}
	switch scenario {
	case "exits-on-own":
		return
	case "stderr-flood":
		line := strings.Repeat("e", 1000) + "\n"
		for range 20000 { // 20 MB: more than any pipe buffer
			os.Stderr.WriteString(line)
		}
	}
	if scenario == "child" {
		// A child that would outlive the engine if only the engine were killed.
		c := exec.Command("sleep", "300")
		c.Start()
		fmt.Fprintf(os.Stderr, "child %d\n", c.Process.Pid)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		cmd := strings.TrimSpace(in.Text())
		switch {
		case cmd == "exit":
			if scenario == "spin-no-exit" {
				for {
					runtime.Gosched()
				}
			}
			return
		case cmd == "newgame":
			say("Base;NotStarted;White[1]", "ok")
		case strings.HasPrefix(cmd, "newgame "):
			say(strings.TrimPrefix(cmd, "newgame ")+";NotStarted;White[1]", "ok")
		case cmd == "play wQ":
			say("invalidmove You can't play your Queen Bee on your first turn.", "ok")
		case strings.HasPrefix(cmd, "play "):
			if scenario == "hang-play" {
				time.Sleep(time.Hour)
			}
			if scenario == "crash-play" {
				fmt.Fprintln(os.Stderr, "panic: index out of range")
				os.Exit(2)
			}
			say("Base;InProgress;Black[1];"+strings.TrimPrefix(cmd, "play "), "ok")
		case cmd == "validmoves":
			say("wS1;wB1;wG1;wA1", "ok")
		case cmd == "options":
			say("MaxBranchingFactor;int;256;256;1;512", "PonderDuringIdle;enum;SingleThreaded;SingleThreaded;Disabled;SingleThreaded;MultiThreaded", "ok")
		case strings.HasPrefix(cmd, "options set "):
			f := strings.Fields(cmd)
			say(f[2]+";int;"+f[3]+";32;0;1024", "ok")
		case strings.HasPrefix(cmd, "bestmove"):
			switch scenario {
			case "hang-ignore-int":
				time.Sleep(time.Hour)
			case "honour-int":
				<-interrupted
				say("wA1", "ok")
			case "intermediate":
				say("wS1;1;0.5;wS1", "wB1;2;1.0;wB1 bS1", "wG1;3;2.5;wG1 bS1 wA1", "ok")
			case "no-ok":
				say("wS1")
				os.Exit(0)
			case "garbage":
				for {
					out.WriteString("\x00\x07 garbage \xff\n")
					out.Flush()
					time.Sleep(time.Millisecond)
				}
			case "long-line":
				out.WriteString(strings.Repeat("x", 10<<20))
				out.Flush()
				time.Sleep(time.Hour)
			default:
				say("wS1", "ok")
			}
		case cmd == "multi-err":
			say("err Something failed.", "err Inner exception text.", "ok")
		default:
			say("err Invalid command. Try 'help' to see a list of valid commands.", "ok")
		}
	}
}

func start(t *testing.T, scenario string, mod ...func(*Config)) (*Engine, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Command: []string{exe}, Env: []string{"FAKE_UHP=" + scenario}, Name: scenario,
		StartTimeout: 2 * time.Second, GraceTimeout: 300 * time.Millisecond}
	for _, m := range mod {
		m(&cfg)
	}
	e, err := Start(context.Background(), cfg)
	if e != nil {
		t.Cleanup(func() { e.Close(context.Background()) })
	}
	return e, err
}

func TestNormalConversation(t *testing.T) {
	var transcript bytes.Buffer
	e, err := start(t, "normal", func(c *Config) { c.Transcript = &transcript })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if e.Info().ID != "Fake v1" || !e.Info().Supports("Base+MLP") || e.Info().Supports("Base+X") {
		t.Errorf("info %+v", e.Info())
	}
	if gs, err := e.NewGame(ctx, "Base"); err != nil || gs != "Base;NotStarted;White[1]" {
		t.Errorf("newgame: %q %v", gs, err)
	}
	if gs, err := e.Play(ctx, "wS1"); err != nil || gs != "Base;InProgress;Black[1];wS1" {
		t.Errorf("play: %q %v", gs, err)
	}
	if moves, err := e.ValidMoves(ctx); err != nil || len(moves) != 4 {
		t.Errorf("validmoves: %v %v", moves, err)
	}
	if m, err := e.BestMove(ctx, Limit{Depth: 2}); err != nil || m != "wS1" {
		t.Errorf("bestmove: %q %v", m, err)
	}
	opts, err := e.Options(ctx)
	if err != nil || len(opts) != 2 || opts[1].Type != "enum" || len(opts[1].Extra) != 3 {
		t.Errorf("options: %+v %v", opts, err)
	}
	if o, err := e.SetOption(ctx, "TranspositionTableSizeMB", "64"); err != nil || o.Value != "64" {
		t.Errorf("options set: %+v %v", o, err)
	}
	_, err = e.Play(ctx, "wQ")
	var ime *InvalidMoveError
	if !errors.As(err, &ime) || ime.Move != "wQ" || !strings.Contains(ime.Message, "first turn") {
		t.Errorf("illegal move: %v", err)
	}
	_, err = e.Send(ctx, "frobnicate")
	var ee *EngineError
	if !errors.As(err, &ee) || !strings.HasPrefix(ee.Message, "Invalid command") {
		t.Errorf("unknown command: %v", err)
	}
	// After an err reply the engine is still usable.
	if _, err := e.NewGame(ctx, "Base"); err != nil {
		t.Errorf("newgame after err: %v", err)
	}
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	log := transcript.String()
	for _, want := range []string{"> newgame Base", "< Base;NotStarted;White[1]", "> exit"} {
		if !strings.Contains(log, want) {
			t.Errorf("transcript lacks %q:\n%s", want, log)
		}
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		scenario string
		check    func(error) bool
	}{
		{"slow-start", func(err error) bool {
			var te *TimeoutError
			return errors.As(err, &te) && errors.Is(err, context.DeadlineExceeded)
		}},
		{"no-banner", func(err error) bool { var pe *ProtocolError; return errors.As(err, &pe) }},
		{"crash-start", func(err error) bool {
			var ee *ExitError
			return errors.As(err, &ee) && ee.ExitCode == 3 && len(ee.Stderr) == 1 && strings.Contains(ee.Error(), "cannot load weights")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.scenario, func(t *testing.T) {
			begin := time.Now()
			_, err := start(t, tc.scenario, func(c *Config) { c.StartTimeout = 500 * time.Millisecond })
			if !tc.check(err) {
				t.Fatalf("got %v", err)
			}
			if time.Since(begin) > 3*time.Second {
				t.Errorf("took %v", time.Since(begin))
			}
		})
	}
	if _, err := Start(context.Background(), Config{Command: []string{"/nonexistent/engine"}}); err == nil {
		t.Error("a missing program started")
	}
}

func TestBOMAndCRLF(t *testing.T) {
	e, err := start(t, "bom-crlf")
	if err != nil {
		t.Fatal(err)
	}
	if e.Info().ID != "Fake v1" || len(e.Info().Capabilities) != 3 {
		t.Fatalf("info %+v", e.Info())
	}
}

func TestMultiLineErr(t *testing.T) {
	e, err := start(t, "normal")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Send(context.Background(), "multi-err")
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Message != "Something failed.; Inner exception text." {
		t.Fatalf("got %v", err)
	}
}

func TestIntermediateBestMoveLines(t *testing.T) {
	e, err := start(t, "intermediate")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := e.BestMove(context.Background(), Limit{Time: time.Second}); err != nil || m != "wG1" {
		t.Fatalf("got %q %v, want the last line's move wG1", m, err)
	}
}

func TestExitWithoutOK(t *testing.T) {
	e, err := start(t, "no-ok")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.BestMove(context.Background(), Limit{Depth: 1})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 0 {
		t.Fatalf("got %v", err)
	}
	// Broken engines fail fast.
	if _, err := e.NewGame(context.Background(), "Base"); !errors.As(err, &ee) {
		t.Fatalf("after exit: %v", err)
	}
}

func TestCrashMidCommand(t *testing.T) {
	e, err := start(t, "crash-play")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Play(context.Background(), "wS1")
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 2 || !strings.Contains(strings.Join(ee.Stderr, "\n"), "index out of range") {
		t.Fatalf("got %v", err)
	}
}

func TestOverLongLine(t *testing.T) {
	e, err := start(t, "long-line", func(c *Config) { c.MaxLineBytes = 4096 })
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = e.BestMove(context.Background(), Limit{Depth: 1})
	runtime.ReadMemStats(&after)
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "longer than 4096") {
		t.Fatalf("got %v", err)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 512<<10 {
		t.Errorf("heap grew by %d bytes reading a 10 MiB line with a 4 KiB limit", grew)
	}
}

func TestBestMoveTimeoutInterruptsThenKills(t *testing.T) {
	e, err := start(t, "hang-ignore-int")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err = e.BestMove(ctx, Limit{Time: time.Second})
	var te *TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(begin); took > 200*time.Millisecond+e.cfg.GraceTimeout+time.Second {
		t.Errorf("took %v", took)
	}
	select {
	case <-e.exited:
	case <-time.After(2 * time.Second):
		t.Fatal("the hung engine was not killed")
	}
}

func TestBestMoveInterruptHonoured(t *testing.T) {
	var transcript bytes.Buffer
	e, err := start(t, "honour-int", func(c *Config) { c.Transcript = &transcript })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = e.BestMove(ctx, Limit{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	e.Close(context.Background())
	if !strings.Contains(transcript.String(), "< wA1") {
		t.Errorf("the engine's answer to SIGINT is not in the transcript:\n%s", transcript.String())
	}
}

func TestCloseKillsAnEngineThatIgnoresExit(t *testing.T) {
	e, err := start(t, "spin-no-exit")
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	e.Close(context.Background())
	if took := time.Since(begin); took > 2*time.Second {
		t.Errorf("close took %v", took)
	}
	if e.cmd.ProcessState == nil {
		t.Fatal("the process was not reaped")
	}
}

func TestCloseKillsChildren(t *testing.T) {
	e, err := start(t, "child")
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for range 50 {
		for _, l := range e.Stderr() {
			fmt.Sscanf(l, "child %d", &pid)
		}
		if pid != 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the fake engine did not report its child")
	}
	e.Close(context.Background())
	for range 50 {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		// A zombie still answers kill 0 until reaped by init; check its state.
		if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(data), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("child %d outlived its engine", pid)
}

func TestNoGoroutineOutlivesItsEngine(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, s := range []string{"normal", "crash-play", "spin-no-exit"} {
		e, err := Start(context.Background(), Config{Command: []string{os.Args[0]}, Env: []string{"FAKE_UHP=" + s}, GraceTimeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		e.Play(context.Background(), "wS1")
		e.Close(context.Background())
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d goroutines before, %d after", before, runtime.NumGoroutine())
}

func TestHangDuringPlay(t *testing.T) {
	e, err := start(t, "hang-play")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err = e.Play(ctx, "wS1")
	var te *TimeoutError
	if !errors.As(err, &te) || te.Command != "play wS1" {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(begin); took > 200*time.Millisecond+e.cfg.GraceTimeout {
		t.Errorf("took %v", took)
	}
	select {
	case <-e.exited:
	case <-time.After(2 * time.Second):
		t.Fatal("the hung engine was not killed")
	}
}

func TestGarbageLinesWithoutOK(t *testing.T) {
	e, err := start(t, "garbage")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = e.BestMove(ctx, Limit{Time: time.Second})
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("got %v", err)
	}
}

func TestStderrFloodDoesNotBlock(t *testing.T) {
	e, err := start(t, "stderr-flood", func(c *Config) { c.StartTimeout = 10 * time.Second })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := e.NewGame(ctx, "Base"); err != nil {
		t.Fatal(err)
	}
	if n := len(e.Stderr()); n == 0 || n > stderrLines {
		t.Errorf("kept %d stderr lines, want between 1 and %d", n, stderrLines)
	}
}

func TestEngineExitsOnItsOwn(t *testing.T) {
	e, err := start(t, "exits-on-own")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.NewGame(context.Background(), "Base")
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 0 {
		t.Fatalf("got %v", err)
	}
}
