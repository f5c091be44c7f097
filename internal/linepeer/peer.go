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

	"hivearbiter/internal/lines"
	"hivearbiter/internal/proc"
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
	// MaxLineBytes bounds one line from the peer (default lines.DefaultMaxBytes).
	MaxLineBytes int
}

// Peer is a conversation in progress. Send may be called from any goroutine; Next from one at
// a time.
type Peer struct {
	cfg   Config
	child *proc.Child // the program, which owns its pipes and their readers; nil for a connection
	conn  net.Conn    // nil for a program
	out   deadlineWriter

	lines chan lines.Line // the output reader's lines; closed when it ends

	writeMu    sync.Mutex
	transcript *lines.Transcript // nil without Config.Transcript

	// A connection's own: a program's are its Child's.
	kill     chan struct{} // closed by Kill: the reader stops delivering
	killOnce sync.Once
	done     chan struct{} // closed once the connection is closed and the reader has ended
}

type deadlineWriter interface {
	io.WriteCloser
	SetWriteDeadline(time.Time) error
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
		cfg.MaxLineBytes = lines.DefaultMaxBytes
	}
	p := &Peer{cfg: cfg, lines: make(chan lines.Line, 64), transcript: lines.NewTranscript(cfg.Transcript)}
	received := func(line string) { p.log("<", line) }
	if !hasCommand {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", cfg.Addr)
		if err != nil {
			return nil, fmt.Errorf("linepeer: %s: %w", cfg.Name, err)
		}
		p.conn, p.out = conn, conn.(*net.TCPConn)
		p.kill, p.done = make(chan struct{}), make(chan struct{})
		go func() {
			lines.Send(conn, cfg.MaxLineBytes, p.lines, p.kill, received)
			conn.Close()
			close(p.done)
		}()
		return p, nil
	}
	child, err := proc.Supervise(proc.Config{
		Spec:  proc.Spec{Command: cfg.Command, Dir: cfg.Dir, Env: cfg.Env},
		Grace: cfg.Grace,
		Stdout: func(r io.Reader, killed <-chan struct{}) {
			lines.Send(r, cfg.MaxLineBytes, p.lines, killed, received)
		},
		Stderr: func(line string) { p.log("!", line) },
	})
	if err != nil {
		return nil, fmt.Errorf("linepeer: %s: %w", cfg.Name, err)
	}
	p.child, p.out = child, child.Stdin()
	return p, nil
}

// gone is closed once the peer is gone and every reader has ended.
func (p *Peer) gone() <-chan struct{} {
	if p.child != nil {
		return p.child.Done()
	}
	return p.done
}

// Name is the peer's name in errors.
func (p *Peer) Name() string { return p.cfg.Name }

// Stderr returns the last lines the program wrote to its standard error, oldest first.
func (p *Peer) Stderr() []string {
	if p.child == nil {
		return nil
	}
	return p.child.Stderr()
}

// Send sends one line. A peer that stops reading fills its input: ctx's end unblocks the
// write, which then fails.
func (p *Peer) Send(ctx context.Context, line string) error {
	if strings.ContainsAny(line, "\r\n") {
		return fmt.Errorf("linepeer: %s: a line cannot contain a line break: %q", p.cfg.Name, line)
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.log(">", line)
	start := time.Now()
	_, err := lines.Write(ctx, p.out, []byte(line+"\n"))
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return p.timeout("room to send "+firstWord(line), time.Since(start), ctx.Err())
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
// lines.ErrTooLong. A wait that ends with ctx is a *proc.TimeoutError, which leaves the peer
// usable: the caller decides whether to ask it to stop or to kill it. A peer whose output
// ended is a *proc.ExitError.
func (p *Peer) Next(ctx context.Context, waiting string) (string, error) {
	start := time.Now()
	select {
	case r, ok := <-p.lines:
		if !ok {
			return "", p.exitError(waiting)
		}
		if r.Err != nil {
			return r.Text, fmt.Errorf("linepeer: %s: a line longer than %d bytes while waiting for %s: %w", p.cfg.Name, p.cfg.MaxLineBytes, waiting, r.Err)
		}
		return r.Text, nil
	case <-ctx.Done():
		return "", p.timeout(waiting, time.Since(start), ctx.Err())
	}
}

func (p *Peer) timeout(waiting string, after time.Duration, cause error) *proc.TimeoutError {
	return &proc.TimeoutError{Source: "linepeer", Engine: p.cfg.Name, Waiting: waiting, After: after, Cause: cause}
}

// exitError describes a peer whose output has ended, once it is gone (or killed after the
// grace period).
func (p *Peer) exitError(waiting string) *proc.ExitError {
	var ee *proc.ExitError
	if p.child != nil {
		ee = p.child.ExitError()
	} else {
		grace := time.NewTimer(p.cfg.Grace)
		select {
		case <-p.done:
		case <-grace.C:
			p.Kill()
		}
		grace.Stop()
		ee = &proc.ExitError{ExitCode: -1, Network: true}
	}
	ee.Source, ee.Engine, ee.When = "linepeer", p.cfg.Name, "while waiting for "+waiting
	return ee
}

// Kill ends the peer at once (the program's whole process group, or the connection) and
// returns once every goroutine reading from it has ended. It is safe to call more than once
// and from any goroutine.
func (p *Peer) Kill() error {
	if p.child != nil {
		if err := p.child.Kill(); err != nil {
			return fmt.Errorf("linepeer: %s: kill: %w", p.cfg.Name, err)
		}
		return nil
	}
	p.killOnce.Do(func() {
		close(p.kill)
		p.conn.Close()
	})
	<-p.done
	return nil
}

// Close sends farewell (unless it is empty), closes the peer's input, waits the grace period
// (or ctx) for the peer to leave, and then kills what is left. It returns an error when the
// peer had to be killed. It is safe to call more than once.
func (p *Peer) Close(ctx context.Context, farewell string) error {
	select {
	case <-p.gone():
		return p.Kill()
	default:
	}
	ask := func() {
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
	}
	var err error
	if p.child != nil {
		err = p.child.Stop(ctx, ask)
	} else {
		ask()
		err = proc.AwaitExit(ctx, p.done, p.cfg.Grace)
		if kerr := p.Kill(); err == nil {
			err = kerr
		}
	}
	if se, ok := errors.AsType[*proc.StopError](err); ok {
		if se.Cause != nil {
			return fmt.Errorf("linepeer: %s: closing: %w; killed", p.cfg.Name, se.Cause)
		}
		return fmt.Errorf("linepeer: %s: still there %v after %q; killed", p.cfg.Name, p.cfg.Grace, farewell)
	}
	if err != nil {
		return fmt.Errorf("linepeer: %s: kill: %w", p.cfg.Name, err)
	}
	return nil
}

func (p *Peer) log(direction, line string) { p.transcript.Line(direction, line) }
