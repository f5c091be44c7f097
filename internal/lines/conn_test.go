package lines

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// hiddenDeadline is a pipe's read end without SetReadDeadline, as a Windows pipe is to a
// Conn: its lines come from a goroutine.
type hiddenDeadline struct{ r io.Reader }

func (h hiddenDeadline) Read(p []byte) (int, error) { return h.r.Read(p) }

// program is the far side of a Conn: the pipes a program would hold, and the signals package
// proc gives Serve.
type program struct {
	conn           *Conn
	stdin, stdout  *os.File // the program's ends: it reads stdin, writes stdout
	killed, exited chan struct{}
	served         chan struct{} // closed when Serve returned
	mu             sync.Mutex
	logged         []string
}

func startProgram(t testing.TB, direct bool) *program {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &program{stdin: inR, stdout: outW, killed: make(chan struct{}), exited: make(chan struct{}),
		served: make(chan struct{})}
	p.conn = NewConn(inW, 16, func(line string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.logged = append(p.logged, line)
	})
	var out io.Reader = outR
	if !direct {
		out = hiddenDeadline{outR}
	}
	go func() {
		p.conn.Serve(out, p.killed, p.exited)
		close(p.served)
	}()
	t.Cleanup(func() {
		select {
		case <-p.killed:
		default:
			close(p.killed)
		}
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		<-p.served
	})
	return p
}

func (p *program) print(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(p.stdout, s); err != nil {
		t.Fatal(err)
	}
}

func (p *program) log() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.logged)
}

// readLines reads n lines in one exchange.
func readLines(t *testing.T, c *Conn, ctx context.Context, n int) []Line {
	t.Helper()
	c.Begin(ctx)
	defer c.End()
	var got []Line
	for range n {
		l, err := c.ReadLine()
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, l)
	}
	return got
}

// eachMode runs a test on a Conn that reads in the caller's goroutine, and on one whose
// lines come from a goroutine.
func eachMode(t *testing.T, test func(t *testing.T, p *program)) {
	for _, m := range []struct {
		name   string
		direct bool
	}{{"caller reads", true}, {"goroutine reads", false}} {
		t.Run(m.name, func(t *testing.T) { test(t, startProgram(t, m.direct)) })
	}
}

// TestConnExchange: lines come in order, a line over the bound comes cut and marked, every
// line reaches the log as it is read, and a command reaches the program.
func TestConnExchange(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		p.conn.Begin(t.Context())
		if _, err := p.conn.Write([]byte("play wS1\n")); err != nil {
			t.Fatal(err)
		}
		p.conn.End()
		buf := make([]byte, 9)
		if _, err := io.ReadFull(p.stdin, buf); err != nil || string(buf) != "play wS1\n" {
			t.Fatalf("the program read %q, %v", buf, err)
		}
		p.print(t, "a\n"+strings.Repeat("x", 20)+"\nok\n")
		got := readLines(t, p.conn, t.Context(), 3)
		want := []Line{{"a", nil}, {strings.Repeat("x", 16), ErrTooLong}, {"ok", nil}}
		if !slices.Equal(got, want) {
			t.Errorf("read %q; want %q", got, want)
		}
		if log, want := p.log(), []string{"a", strings.Repeat("x", 16) + " [line cut: over the length limit]", "ok"}; !slices.Equal(log, want) {
			t.Errorf("logged %q; want %q", log, want)
		}
	})
}

// TestConnContextEnds: a read waiting for a silent program returns once the exchange's
// context ends, by its deadline or by its cancellation, with the context's error; a line
// the program was half-way through is read whole by the next exchange, which no late
// cancellation cuts short.
func TestConnContextEnds(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		for _, end := range []string{"deadline", "cancel"} {
			p.print(t, "half")
			var ctx context.Context
			var cancel context.CancelFunc
			want := context.DeadlineExceeded
			if end == "deadline" {
				ctx, cancel = context.WithTimeout(t.Context(), 50*time.Millisecond)
			} else {
				ctx, cancel = context.WithCancel(t.Context())
				time.AfterFunc(50*time.Millisecond, cancel)
				want = context.Canceled
			}
			defer cancel()
			p.conn.Begin(ctx)
			began := time.Now()
			l, err := p.conn.ReadLine()
			p.conn.End()
			if !errors.Is(err, want) {
				t.Fatalf("%s: read %q, %v; want %v", end, l, err, want)
			}
			if waited := time.Since(began); waited > 5*time.Second {
				t.Errorf("%s: the read returned after %v", end, waited)
			}
			p.print(t, " line\n")
			ctx2, cancel2 := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel2()
			if got := readLines(t, p.conn, ctx2, 1); got[0] != (Line{Text: "half line"}) {
				t.Errorf("%s: the next exchange read %q; want the whole line", end, got)
			}
		}
	})
}

// TestConnWriteToAFullPipe: a program that stops reading fills its input; the exchange's
// context cuts the write short, and the next exchange writes again.
func TestConnWriteToAFullPipe(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		p.conn.Begin(ctx)
		_, err := p.conn.Write(make([]byte, 1<<22)) // more than any pipe holds
		p.conn.End()
		if !errors.Is(err, os.ErrDeadlineExceeded) || ctx.Err() == nil {
			t.Fatalf("a write to a full pipe ended with %v (context: %v)", err, ctx.Err())
		}
		go io.Copy(io.Discard, p.stdin)
		for range 100 {
			p.conn.Begin(t.Context())
			_, err := p.conn.Write([]byte("line\n"))
			p.conn.End()
			if err != nil {
				t.Fatalf("a write after a cancelled one: %v", err)
			}
		}
	})
}

// TestConnEndOfOutput: the end of the output is io.EOF, then and ever after, and Serve
// returns.
func TestConnEndOfOutput(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		p.print(t, "last\n")
		p.stdout.Close()
		p.conn.Begin(t.Context())
		defer p.conn.End()
		var got []string
		var err error
		for range 3 {
			var l Line
			if l, err = p.conn.ReadLine(); err == nil {
				got = append(got, l.Text)
			}
		}
		if !slices.Equal(got, []string{"last"}) || err != io.EOF {
			t.Errorf("read %q, then %v; want the last line, then io.EOF", got, err)
		}
		<-p.served
	})
}

// TestConnReadsWhatAnExitedProgramLeft: output left by a program that exits while no
// exchange reads is read at its exit, so that it reaches the log at once, and the next
// exchange gets it before the end of the output.
func TestConnReadsWhatAnExitedProgramLeft(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		p.print(t, "last words\n")
		p.stdout.Close()
		close(p.exited)
		deadline := time.Now().Add(10 * time.Second)
		for !slices.Equal(p.log(), []string{"last words"}) {
			if time.Now().After(deadline) {
				t.Fatalf("logged %q; want the last words", p.log())
			}
			time.Sleep(time.Millisecond)
		}
		p.conn.Begin(t.Context())
		defer p.conn.End()
		l, err := p.conn.ReadLine()
		if l.Text != "last words" || err != nil {
			t.Fatalf("read %q, %v", l.Text, err)
		}
		if _, err := p.conn.ReadLine(); err != io.EOF {
			t.Fatalf("then %v; want io.EOF", err)
		}
	})
}

// TestConnKilled: Serve returns once the program is killed, though no one reads what it
// printed, more than a reading goroutine queues.
func TestConnKilled(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		p.print(t, strings.Repeat("unread\n", 2*queued))
		close(p.killed)
		p.stdout.Close()
		select {
		case <-p.served:
		case <-time.After(10 * time.Second):
			t.Fatal("Serve still runs after the kill")
		}
	})
}

// TestConnQuickExchangeAllocatesNothing: an exchange that ends before Serve watches it, as
// most do, sets no hook on its context: reading the caller's way, it allocates nothing.
func TestConnQuickExchangeAllocatesNothing(t *testing.T) {
	p := startProgram(t, true)
	go io.Copy(io.Discard, p.stdin)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	command := []byte("play wS1\n")
	allocs := testing.AllocsPerRun(100, func() {
		p.print(t, "ok\n")
		p.conn.Begin(ctx)
		if _, err := p.conn.Write(command); err != nil {
			t.Fatal(err)
		}
		if l, err := p.conn.ReadLine(); err != nil || l.Text != "ok" {
			t.Fatalf("read %q, %v", l.Text, err)
		}
		p.conn.End()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per exchange; want none", allocs)
	}
}

// TestConnContextEndedBeforeTheExchange: a context that ended before its exchange began still
// ends the exchange's waits, within watchDelay.
func TestConnContextEndedBeforeTheExchange(t *testing.T) {
	eachMode(t, func(t *testing.T, p *program) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		p.conn.Begin(ctx)
		defer p.conn.End()
		began := time.Now()
		if l, err := p.conn.ReadLine(); !errors.Is(err, context.Canceled) {
			t.Fatalf("read %q, %v; want context.Canceled", l.Text, err)
		}
		if waited := time.Since(began); waited > time.Second {
			t.Errorf("the read returned after %v", waited)
		}
	})
}

// BenchmarkConnExchange is one exchange of a command and its one-line reply through pipes,
// under a context with a deadline, as the arbiter's commands run: what the Conn adds to the
// system calls is its watch over the context.
func BenchmarkConnExchange(b *testing.B) {
	p := startProgram(b, true)
	go func() { // the program: an "ok" for every line
		buf := make([]byte, 64)
		for {
			if _, err := p.stdin.Read(buf); err != nil {
				return
			}
			p.stdout.Write([]byte("ok\n"))
		}
	}()
	c := p.conn
	command := []byte("play wS1\n")
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(b.Context(), time.Minute)
		c.Begin(ctx)
		if _, err := c.Write(command); err != nil {
			b.Fatal(err)
		}
		if _, err := c.ReadLine(); err != nil {
			b.Fatal(err)
		}
		c.End()
		cancel()
	}
}

// TestConnWriteAfterTheOutputEnded: once the output has ended Serve no longer watches, and an
// exchange's context still cuts short a write to a program that does not read.
func TestConnWriteAfterTheOutputEnded(t *testing.T) {
	p := startProgram(t, true)
	p.stdout.Close()
	p.conn.Begin(t.Context())
	if _, err := p.conn.ReadLine(); err != io.EOF {
		t.Fatalf("read %v; want io.EOF", err)
	}
	p.conn.End()
	<-p.served
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		p.conn.Begin(ctx)
		defer p.conn.End()
		_, err := p.conn.Write(make([]byte, 1<<22)) // more than any pipe holds
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("the write ended with %v; want os.ErrDeadlineExceeded", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write still blocks 10 s after its context ended")
	}
}
