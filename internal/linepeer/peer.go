package linepeer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hivearbiter/internal/proc"
	"hivearbiter/uhpclient"
)

// Config says how to reach a peer: a program (Command) or a TCP address (Addr), not both.
type Config struct {
	Command []string // program and arguments, never run through a shell
	Dir     string   // working directory of the program
	Env     []string // KEY=VALUE entries added to the arbiter's environment
	Addr    string   // HOST:PORT of a peer that listens for the arbiter
	// Name names the peer in errors and transcripts; default the program's base name or the
	// address.
	Name string
	// Grace is how long Close waits for the peer to leave after its farewell, and how long a
	// program's output may outlive its exit, before the next step is taken by force.
	// Default 1 s.
	Grace time.Duration
	// Transcript, if set, receives every line sent (">"), received ("<") and written to
	// standard error ("!"), each with the time, as in "15:04:05.000 > go depth 3".
	Transcript io.Writer
	// MaxLineBytes bounds one line from the peer (default uhpclient.DefaultMaxLineBytes).
	MaxLineBytes int
}

// ErrLineTooLong is a line from the peer longer than Config.MaxLineBytes.
var ErrLineTooLong = errors.New("line too long")

// ExitError is a peer whose output ended: the program exited, crashed or was killed, or the
// connection closed.
type ExitError struct {
	Peer     string
	Waiting  string // what the arbiter was waiting for, such as "bestmove"
	ExitCode int    // -1 when killed by a signal, unknown, or not a program
	Signal   string // the signal that ended the program, such as "killed", if any
	Stderr   []string
	Network  bool // the peer is a connection, which closed
}

func (e *ExitError) Error() string {
	how := fmt.Sprintf("the program exited (exit status %d)", e.ExitCode)
	switch {
	case e.Network:
		how = "the connection closed"
	case e.Signal != "":
		how = "the program exited (signal: " + e.Signal + ")"
	}
	s := fmt.Sprintf("linepeer: %s: %s while waiting for %s", e.Peer, how, e.Waiting)
	if len(e.Stderr) > 0 {
		tail := strings.Join(e.Stderr[max(0, len(e.Stderr)-3):], " | ")
		if len(tail) > 300 {
			tail = tail[:300] + "..."
		}
		s += "; stderr: " + tail
	}
	return s
}

// TimeoutError is a wait that ended with its context. It unwraps to the context's error. The
// peer stays usable: the caller decides whether to ask it to stop or to kill it.
type TimeoutError struct {
	Peer    string
	Waiting string
	After   time.Duration
	Cause   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("linepeer: %s: no %s, %v after %v", e.Peer, e.Waiting, e.Cause, e.After.Round(time.Millisecond))
}

func (e *TimeoutError) Unwrap() error { return e.Cause }

// Peer is a conversation in progress. Send may be called from any goroutine; Next from one at
// a time.
type Peer struct {
	cfg  Config
	proc *proc.Process // nil for a connection
	conn net.Conn      // nil for a program
	out  deadlineWriter

	lines chan lineResult // the output reader's lines; closed when it ends

	writeMu    sync.Mutex
	stderrTail ring
	logMu      sync.Mutex

	kill     chan struct{} // closed by Kill: the output reader stops delivering
	killOnce sync.Once
	killErr  error
	done     chan struct{} // closed once the peer is gone and every reader has ended
}

type deadlineWriter interface {
	io.WriteCloser
	SetWriteDeadline(time.Time) error
}

type lineResult struct {
	line string
	err  error
}

// Start starts the program or dials the address. On error nothing of the peer is left.
func Start(ctx context.Context, cfg Config) (*Peer, error) {
	hasCommand := len(cfg.Command) > 0 && cfg.Command[0] != ""
	if hasCommand == (cfg.Addr != "") {
		return nil, errors.New("linepeer: give a program or an address, not both or neither")
	}
	if cfg.Name == "" {
		cfg.Name = cfg.Addr
		if hasCommand {
			cfg.Name = filepath.Base(cfg.Command[0])
		}
	}
	if cfg.Grace <= 0 {
		cfg.Grace = time.Second
	}
	if cfg.MaxLineBytes <= 0 {
		cfg.MaxLineBytes = uhpclient.DefaultMaxLineBytes
	}
	p := &Peer{cfg: cfg, lines: make(chan lineResult, 64), kill: make(chan struct{}), done: make(chan struct{})}
	if !hasCommand {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", cfg.Addr)
		if err != nil {
			return nil, fmt.Errorf("linepeer: %s: %w", cfg.Name, err)
		}
		p.conn, p.out = conn, conn.(*net.TCPConn)
		go func() {
			p.readLines(conn)
			conn.Close()
			close(p.done)
		}()
		return p, nil
	}

	child, err := proc.Start(proc.Spec{Command: cfg.Command, Dir: cfg.Dir, Env: cfg.Env})
	if err != nil {
		return nil, fmt.Errorf("linepeer: %s: %w", cfg.Name, err)
	}
	p.proc, p.out = child, child.Stdin
	stdout, stderr := child.Stdout, child.Stderr
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(outDone)
		p.readLines(stdout)
	}()
	go func() {
		defer close(errDone)
		r := uhpclient.NewReader(stderr, cfg.MaxLineBytes)
		for {
			line, err := r.ReadLine()
			if err != nil && !errors.Is(err, uhpclient.ErrLineTooLong) {
				return
			}
			p.log("!", line)
			p.stderrTail.add(line)
		}
	}()
	go func() {
		child.Cmd.Wait()
		child.KillGroup()
		grace := time.NewTimer(cfg.Grace)
		defer grace.Stop()
		for outDone != nil || errDone != nil {
			select {
			case <-outDone:
				outDone = nil
			case <-errDone:
				errDone = nil
			case <-grace.C:
				// A process outside the group still holds the output: stop reading it.
				stdout.Close()
				stderr.Close()
			}
		}
		p.out.Close()
		stdout.Close()
		stderr.Close()
		close(p.done)
	}()
	return p, nil
}

// readLines delivers the peer's output as lines until it ends or the peer is killed.
func (p *Peer) readLines(r io.Reader) {
	defer close(p.lines)
	lr := uhpclient.NewReader(r, p.cfg.MaxLineBytes)
	for {
		line, err := lr.ReadLine()
		if err != nil && !errors.Is(err, uhpclient.ErrLineTooLong) {
			return
		}
		res := lineResult{line: line}
		if err != nil {
			res.err = ErrLineTooLong
			p.log("<", line+" [line cut: over the length limit]")
		} else {
			p.log("<", line)
		}
		select {
		case p.lines <- res:
		case <-p.kill:
			return
		}
	}
}

// Name is the peer's name in errors.
func (p *Peer) Name() string { return p.cfg.Name }

// Stderr returns the last lines the program wrote to its standard error, oldest first.
func (p *Peer) Stderr() []string { return p.stderrTail.lines() }

// Send sends one line. A peer that stops reading fills its input: ctx's end unblocks the
// write, which then fails.
func (p *Peer) Send(ctx context.Context, line string) error {
	if strings.ContainsAny(line, "\r\n") {
		return fmt.Errorf("linepeer: %s: a line cannot contain a line break: %q", p.cfg.Name, line)
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.log(">", line)
	p.out.SetWriteDeadline(time.Time{})
	stop := context.AfterFunc(ctx, func() { p.out.SetWriteDeadline(time.Unix(1, 0)) })
	_, err := io.WriteString(p.out, line+"\n")
	stop()
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return &TimeoutError{Peer: p.cfg.Name, Waiting: "room to send " + firstWord(line), Cause: ctx.Err()}
	}
	return p.exitError(firstWord(line))
}

// SendWithin sends one line, giving up after d: for callers with no context of their own, such
// as a stop sent from a signal handler.
func (p *Peer) SendWithin(line string, d time.Duration) error {
	if strings.ContainsAny(line, "\r\n") {
		return fmt.Errorf("linepeer: %s: a line cannot contain a line break: %q", p.cfg.Name, line)
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.log(">", line)
	p.out.SetWriteDeadline(time.Now().Add(d))
	if _, err := io.WriteString(p.out, line+"\n"); err != nil {
		return fmt.Errorf("linepeer: %s: sending %s: %w", p.cfg.Name, firstWord(line), err)
	}
	return nil
}

func firstWord(line string) string {
	w, _, _ := strings.Cut(line, " ")
	return fmt.Sprintf("%q", w)
}

// Next returns the next line from the peer, without its line end. waiting names what is
// awaited, for errors. A line over the limit comes cut, with an error wrapping
// ErrLineTooLong.
func (p *Peer) Next(ctx context.Context, waiting string) (string, error) {
	start := time.Now()
	select {
	case r, ok := <-p.lines:
		if !ok {
			return "", p.exitError(waiting)
		}
		if r.err != nil {
			return r.line, fmt.Errorf("linepeer: %s: a line longer than %d bytes while waiting for %s: %w", p.cfg.Name, p.cfg.MaxLineBytes, waiting, r.err)
		}
		return r.line, nil
	case <-ctx.Done():
		return "", &TimeoutError{Peer: p.cfg.Name, Waiting: waiting, After: time.Since(start), Cause: ctx.Err()}
	}
}

// exitError describes a peer whose output has ended, once it is gone (or killed after the
// grace period).
func (p *Peer) exitError(waiting string) *ExitError {
	grace := time.NewTimer(p.cfg.Grace)
	select {
	case <-p.done:
	case <-grace.C:
		p.Kill()
	}
	grace.Stop()
	ee := &ExitError{Peer: p.cfg.Name, Waiting: waiting, ExitCode: -1, Stderr: p.Stderr(), Network: p.proc == nil}
	if p.proc != nil && p.proc.Cmd.ProcessState != nil {
		ee.ExitCode = p.proc.Cmd.ProcessState.ExitCode()
		if sig, ok := strings.CutPrefix(p.proc.Cmd.ProcessState.String(), "signal: "); ok && ee.ExitCode == -1 {
			ee.Signal = sig
		}
	}
	return ee
}

// Kill ends the peer at once (the program's whole process group, or the connection) and
// returns once every goroutine reading from it has ended. It is safe to call more than once
// and from any goroutine.
func (p *Peer) Kill() error {
	p.killOnce.Do(func() {
		close(p.kill)
		if p.conn != nil {
			p.conn.Close()
			return
		}
		if err := p.proc.KillGroup(); err != nil {
			p.killErr = fmt.Errorf("linepeer: %s: kill: %w", p.cfg.Name, err)
		}
	})
	<-p.done
	return p.killErr
}

// Close sends farewell (unless it is empty), closes the peer's input, waits the grace period
// (or ctx) for the peer to leave, and then kills what is left. It returns an error when the
// peer had to be killed. It is safe to call more than once.
func (p *Peer) Close(ctx context.Context, farewell string) error {
	select {
	case <-p.done:
		return p.Kill()
	default:
	}
	if farewell != "" {
		p.writeMu.Lock()
		p.log(">", farewell)
		p.out.SetWriteDeadline(time.Now().Add(p.cfg.Grace))
		io.WriteString(p.out, farewell+"\n")
		p.writeMu.Unlock()
	}
	if p.conn != nil {
		p.conn.(*net.TCPConn).CloseWrite()
	} else {
		p.out.Close()
	}
	// Whatever the peer still says is of no interest now; draining it lets it finish.
	go func() {
		for range p.lines {
		}
	}()
	grace := time.NewTimer(p.cfg.Grace)
	defer grace.Stop()
	var err error
	select {
	case <-p.done:
	case <-grace.C:
		err = fmt.Errorf("linepeer: %s: still there %v after %q; killed", p.cfg.Name, p.cfg.Grace, farewell)
	case <-ctx.Done():
		err = fmt.Errorf("linepeer: %s: closing: %w; killed", p.cfg.Name, ctx.Err())
	}
	if kerr := p.Kill(); err == nil {
		err = kerr
	}
	return err
}

func (p *Peer) log(direction, line string) {
	if p.cfg.Transcript == nil {
		return
	}
	p.logMu.Lock()
	defer p.logMu.Unlock()
	fmt.Fprintf(p.cfg.Transcript, "%s %s %s\n", time.Now().Format("15:04:05.000"), direction, line)
}

// ring keeps the last lines of a stream.
type ring struct {
	mu  sync.Mutex
	buf []string
}

const (
	stderrLines    = 20
	stderrLineSize = 500
)

func (r *ring) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(line) > stderrLineSize {
		line = line[:stderrLineSize] + "..."
	}
	if len(r.buf) == stderrLines {
		r.buf = append(r.buf[:0], r.buf[1:]...)
	}
	r.buf = append(r.buf, line)
}

func (r *ring) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.buf...)
}
