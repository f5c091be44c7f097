package proc

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const testGrace = 300 * time.Millisecond

// supervise starts the test binary as a scenario's program, its stdout handed to the test
// line by line. The test ends by checking that Kill leaves no goroutine of the Child's behind.
func supervise(t *testing.T, scenario string, configure ...func(*Config)) (*Child, <-chan string) {
	t.Helper()
	goroutines := runtime.NumGoroutine()
	out := make(chan string, 100)
	cfg := Config{
		Spec:  Spec{Command: []string{os.Args[0]}, Env: []string{scenarioEnv + "=" + scenario}},
		Grace: testGrace,
		Stdout: func(r io.Reader, killed <-chan struct{}) {
			defer close(out)
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				select {
				case out <- sc.Text():
				case <-killed:
					return
				}
			}
		},
	}
	for _, f := range configure {
		f(&cfg)
	}
	c, err := Supervise(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Kill(); err != nil {
			t.Errorf("Kill: %v", err)
		}
		// Every goroutine of the Child's has ended by the time Kill returns; the runtime may
		// take a moment to count them out.
		for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > goroutines; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Fatalf("%d goroutines after Kill, %d before Supervise:\n%s", runtime.NumGoroutine(), goroutines, buf[:runtime.Stack(buf, true)])
			}
		}
	})
	return c, out
}

// next returns the program's next line of stdout, or fails the test.
func next(t *testing.T, out <-chan string) string {
	t.Helper()
	select {
	case line, ok := <-out:
		if !ok {
			t.Fatal("the output ended")
		}
		return line
	case <-time.After(10 * time.Second):
		t.Fatal("no output in 10 s")
		return ""
	}
}

// Kill leaves no grandchild behind: on Unix the program's process group is killed, on
// Windows its job object.
func TestChildKillKillsGrandchild(t *testing.T) {
	needTreeKill(t)
	c, out := supervise(t, "parent")
	ids := strings.Fields(next(t, out))
	if len(ids) != 2 || ids[0] != strconv.Itoa(c.Pid()) {
		t.Fatalf("the program said %q; want its id %d and its child's", ids, c.Pid())
	}
	grandchild, _ := strconv.Atoi(ids[1])
	if gone(grandchild) {
		t.Fatal("the grandchild is gone before Kill: the test shows nothing")
	}
	if err := c.Kill(); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	for deadline := time.Now().Add(2 * time.Second); !gone(grandchild); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			kill(grandchild)
			t.Fatalf("the grandchild %d outlived Kill", grandchild)
		}
	}
	if ee := c.ExitError(); ee.Signal != killedSignal || ee.ExitCode != killedExitCode {
		t.Errorf("after Kill: %+v; want exit code %d, signal %q", ee, killedExitCode, killedSignal)
	}
}

func TestChildKillIsIdempotent(t *testing.T) {
	c, out := supervise(t, "until-eof")
	next(t, out)
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Go(func() { errs[i] = c.Kill() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Kill %d: %v", i, err)
		}
	}
	for _, ch := range []<-chan struct{}{c.Exited(), c.Done()} {
		select {
		case <-ch:
		default:
			t.Fatal("Kill returned before the program was reaped and its readers ended")
		}
	}
	if err := c.Kill(); err != nil {
		t.Errorf("Kill after the program is gone: %v", err)
	}
}

func TestChildStop(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		ctx      time.Duration // how long Stop's context lasts; 0: longer than the grace
		killed   bool          // the program had to be killed
		cause    error         // the StopError's cause
		took     [2]time.Duration
	}{
		// A program that leaves when asked is not killed, and is not waited for longer.
		{"until-eof", 0, false, nil, [2]time.Duration{0, testGrace}},
		// One that stays is killed after the grace period.
		{"stubborn", 0, true, nil, [2]time.Duration{testGrace, testGrace + time.Second}},
		// Or sooner, if the context ends first.
		{"stubborn", testGrace / 3, true, context.DeadlineExceeded, [2]time.Duration{testGrace / 3, testGrace}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			c, out := supervise(t, tc.scenario)
			next(t, out)
			ctx := t.Context()
			if tc.ctx > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.ctx)
				defer cancel()
			}
			asked := false
			begin := time.Now()
			err := c.Stop(ctx, func() {
				asked = true
				c.Stdin().Close()
				c.Terminate()
			})
			took := time.Since(begin)
			if !asked {
				t.Error("Stop did not ask")
			}
			se, ok := errors.AsType[*StopError](err)
			if ok != tc.killed || (ok && !errors.Is(se.Cause, tc.cause)) {
				t.Errorf("Stop: %v; want killed %v with cause %v", err, tc.killed, tc.cause)
			}
			if took < tc.took[0] || took > tc.took[1] {
				t.Errorf("Stop took %v; want %v to %v", took, tc.took[0], tc.took[1])
			}
			select {
			case <-c.Done():
			default:
				t.Error("Stop returned before the program was gone")
			}
			ee := c.ExitError()
			if killed := ee.Signal == killedSignal && ee.ExitCode == killedExitCode; killed != tc.killed {
				t.Errorf("the program ended with %s; killed %v, want %v", ee.How(), killed, tc.killed)
			}
		})
	}
}

func TestChildExitError(t *testing.T) {
	c, _ := supervise(t, "crash")
	<-c.Done()
	ee := c.ExitError()
	if ee.ExitCode != 7 || ee.Signal != "" || len(ee.Stderr) != 1 || ee.Stderr[0] != "fatal: no luck" {
		t.Errorf("got %+v; want exit status 7 and the stderr line", ee)
	}
}

func TestChildStderrTailIsBounded(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	c, out := supervise(t, "stderr-flood", func(cfg *Config) {
		cfg.Stderr = func(line string) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, line)
		}
	})
	if line := next(t, out); line != "flooded" {
		t.Fatalf("read %q", line)
	}
	// stderr is read apart from stdout: wait for its last line.
	last := strconv.Itoa(5*TailLines-1) + " e"
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		tail := c.Stderr()
		if len(tail) > 0 && strings.HasPrefix(tail[len(tail)-1], last) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tail ends %q", tail[max(0, len(tail)-1):])
		}
	}
	tail := c.Stderr()
	if len(tail) != TailLines {
		t.Errorf("kept %d lines; want %d", len(tail), TailLines)
	}
	for i, line := range tail {
		if want := strconv.Itoa(4*TailLines+i) + " e"; !strings.HasPrefix(line, want) || len(line) != TailLineBytes {
			t.Errorf("line %d of the tail: %.20q... of %d bytes; want %q... of %d", i, line, len(line), want, TailLineBytes)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 5*TailLines {
		t.Errorf("Config.Stderr was given %d lines; want every one of %d", len(seen), 5*TailLines)
	}
}

func TestChildDoesNotWaitForAnEscapedChild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no child can leave the job object, and so hold the output past the kill")
	}
	c, out := supervise(t, "escaped")
	grandchild, err := strconv.Atoi(next(t, out))
	if err != nil {
		t.Fatal(err)
	}
	// Out of the group, it cannot be killed with it; the test cleans up after it.
	defer kill(grandchild)
	<-c.Exited()
	begin := time.Now()
	select {
	case <-c.Done():
	case <-time.After(testGrace + time.Second):
		t.Fatal("the output held by the escaped child kept the Child from its end")
	}
	// The readers are given the grace period, not less: output may still be on its way.
	if took := time.Since(begin); took < testGrace*2/3 {
		t.Errorf("the pipes were closed %v after the exit; want the grace period, %v", took, testGrace)
	}
	if gone(grandchild) {
		t.Error("the escaped child was killed: the test shows nothing")
	}
	if ee := c.ExitError(); ee.ExitCode != 0 {
		t.Errorf("got %v; want exit status 0", ee)
	}
}
