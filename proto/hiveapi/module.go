package hiveapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/internal/proc"
	"hivearbiter/results"
)

// The transports, as transport= names them (TCP is chosen by addr=).
const (
	TransportStdio = "stdio"
	TransportIPC   = "ipc"
	TransportTCP   = "tcp"
)

// moduleConfig says how to reach one module.
type moduleConfig struct {
	Name      string
	Command   []string // the program and its arguments; empty for a TCP module already listening
	Dir       string
	Env       []string
	Addr      string // HOST:PORT for TCP
	Transport string
	Grace     time.Duration // how long a module is given to exit before it is killed
	// Transcript, if set, receives every message each way.
	Transcript io.Writer
}

// module is one running AI module: its process, if the arbiter started it, and the connection
// requests go through. One goroutine at a time talks to it; its reader goroutine hands over
// messages as they arrive, so that waiting for one can be bounded by a context.
type module struct {
	cfg      moduleConfig
	proc     *proc.Process // nil for a TCP module the arbiter did not start
	exited   chan struct{} // closed once the process has been waited for, and its output read
	waitErr  error
	stderr   *tail
	out      writeConn     // requests go here
	in       io.Closer     // closing it ends the reader
	incoming chan message  // from the reader goroutine
	quit     chan struct{} // closed by close: the reader stops handing over
	readDone chan struct{} // closed when the reader has returned
	reading  bool          // the reader was started
	closing  sync.Once
	seq      int
	stale    []string // ids of requests that timed out, oldest first, whose replies are still due
	broken   error    // set when the conversation cannot go on
}

// writeConn is a pipe or a socket: both take write deadlines, so a module that stops reading
// cannot block the arbiter.
type writeConn interface {
	io.WriteCloser
	SetWriteDeadline(time.Time) error
}

type message struct {
	data []byte
	err  error
}

// startModule starts (or, for TCP without a command, reaches) a module. ctx bounds the start.
func startModule(ctx context.Context, cfg moduleConfig) (m *module, err error) {
	m = &module{cfg: cfg, stderr: &tail{}, exited: make(chan struct{}),
		incoming: make(chan message), quit: make(chan struct{}), readDone: make(chan struct{})}
	defer func() {
		if err != nil {
			m.close(context.WithoutCancel(ctx))
			m = nil
		}
	}()
	if len(cfg.Command) == 0 {
		close(m.exited) // there is no process to wait for
	}
	switch {
	case cfg.Transport != TransportStdio && cfg.Transport != TransportIPC && cfg.Transport != TransportTCP:
		return m, fmt.Errorf("hiveapi: unknown transport %q", cfg.Transport)
	case len(cfg.Command) == 0 && cfg.Transport != TransportTCP:
		return m, fmt.Errorf("hiveapi: transport=%s needs a program to start", cfg.Transport)
	}
	var reader io.Reader
	spec := proc.Spec{Command: cfg.Command, Dir: cfg.Dir, Env: cfg.Env}
	if cfg.Transport == TransportIPC {
		conn, child, err := ipcPair()
		if err != nil {
			return m, err
		}
		defer child.Close() // the module has its own copy once started
		spec.ExtraFiles = []*os.File{child}
		spec.Env = append(slices.Clip(cfg.Env), "NODE_CHANNEL_FD=3", "NODE_CHANNEL_SERIALIZATION_MODE=json")
		m.out, m.in, reader = conn.(writeConn), conn, conn
	}
	if len(cfg.Command) > 0 {
		p, err := proc.Start(spec)
		if err != nil {
			close(m.exited)
			if _, ok := errors.AsType[*proc.StartError](err); ok {
				return m, &arbiter.PlayerError{Reason: results.ReasonCrash, Err: fmt.Errorf("hiveapi: starting %s: %w", cfg.Command[0], err)}
			}
			return m, err
		}
		m.proc = p
		output := []*os.File{p.Stderr}
		if cfg.Transport == TransportStdio {
			m.out, m.in, reader = p.Stdin, p.Stdout, p.Stdout
		} else {
			p.Stdin.Close()                   // requests come another way
			output = append(output, p.Stdout) // what a module prints is not a message
		}
		go m.wait(output)
	}
	if cfg.Transport == TransportTCP {
		conn, err := m.dial(ctx)
		if err != nil {
			return m, err
		}
		m.out, m.in, reader = conn.(writeConn), conn, conn
	}
	read := ReadLine
	if cfg.Transport == TransportTCP {
		read = ReadFrame
	}
	m.reading = true
	go m.readLoop(bufio.NewReader(reader), read)
	return m, nil
}

// wait copies the module's output (stderr, and stdout when it carries no messages) into the
// tail, reaps the module, and then gives the copies the grace period (as exec.Cmd's WaitDelay
// does) to reach the end of the output: a process that left the module's group with a copy
// of it must not hold the module's exit back.
func (m *module) wait(output []*os.File) {
	var copying sync.WaitGroup
	for _, f := range output {
		copying.Go(func() { io.Copy(m.stderr, f) })
	}
	m.waitErr = m.proc.Cmd.Wait()
	copied := make(chan struct{})
	go func() {
		copying.Wait()
		close(copied)
	}()
	grace := time.NewTimer(max(m.cfg.Grace, 100*time.Millisecond))
	defer grace.Stop()
	select {
	case <-copied:
	case <-grace.C:
		for _, f := range output {
			f.Close()
		}
		<-copied
		if m.waitErr == nil {
			m.waitErr = exec.ErrWaitDelay
		}
	}
	for _, f := range output {
		f.Close()
	}
	close(m.exited)
}

// dial connects to a TCP module, waiting for a server the arbiter started to listen.
func (m *module) dial(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", m.cfg.Addr)
		if err == nil {
			return conn, nil
		}
		if m.proc == nil {
			return nil, &arbiter.PlayerError{Reason: results.ReasonCrash, Err: fmt.Errorf("hiveapi: connecting to %s: %w", m.cfg.Addr, err)}
		}
		select {
		case <-m.exited:
			return nil, m.exitError("before it listened on " + m.cfg.Addr)
		case <-ctx.Done():
			return nil, &arbiter.PlayerError{Reason: results.ReasonStall, Err: fmt.Errorf("hiveapi: %s did not listen on %s in time: %w", m.cfg.Command[0], m.cfg.Addr, err)}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (m *module) readLoop(r *bufio.Reader, read func(*bufio.Reader) ([]byte, error)) {
	defer close(m.readDone)
	for {
		data, err := read(r)
		if err == nil {
			m.log("<", data)
		}
		select {
		case m.incoming <- message{data, err}:
		case <-m.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// request sends a request and waits for its reply, until ctx ends.
func (m *module) request(ctx context.Context, requestType string, build func(id string) any) (*Response, []byte, error) {
	if m.broken != nil {
		return nil, nil, m.broken
	}
	m.seq++
	id := "r" + strconv.Itoa(m.seq)
	msg, err := encode(build(id))
	if err != nil {
		return nil, nil, fmt.Errorf("hiveapi: encoding the request: %w", err)
	}
	if m.cfg.Transport == TransportTCP {
		msg = AppendFrame(nil, msg)
	} else {
		msg = append(msg, '\n')
	}
	m.log(">", msg)
	stop := context.AfterFunc(ctx, func() { m.out.SetWriteDeadline(time.Unix(1, 0)) })
	_, err = m.out.Write(msg)
	stop()
	m.out.SetWriteDeadline(time.Time{})
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, m.timedOut(ctx, requestType, id, "while it was being sent the request")
		}
		return nil, nil, m.fail(m.exitError(fmt.Sprintf("when sent %s (%v)", requestType, err)))
	}
	for {
		select {
		case <-ctx.Done():
			return nil, nil, m.timedOut(ctx, requestType, id, "")
		case in := <-m.incoming:
			if in.err != nil {
				var fe *FrameError
				if errors.As(in.err, &fe) {
					return nil, nil, m.fail(&arbiter.PlayerError{Reason: results.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered %s: %w", m.cfg.Name, requestType, in.err)})
				}
				return nil, nil, m.fail(m.exitError("instead of answering " + requestType))
			}
			if m.cfg.Transport == TransportIPC && bytes.HasPrefix(in.data, []byte(`{"cmd":"NODE_`)) {
				continue // Node's own messages on the channel
			}
			resp, err := ParseResponse(in.data)
			if err != nil {
				var re *ReplyError
				errors.As(err, &re)
				return nil, in.data, m.fail(&arbiter.PlayerError{Reason: results.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered %s with %s, which is %s", m.cfg.Name, requestType, re.Text, re.Why)})
			}
			if got := resp.ID(); got != id {
				if i := slices.Index(m.stale, got); i >= 0 || (got == "" && len(m.stale) > 0) {
					m.stale = slices.Delete(m.stale, max(i, 0), max(i, 0)+1)
					continue // the late answer to a request that timed out
				}
				if got != "" {
					return nil, in.data, m.fail(&arbiter.PlayerError{Reason: results.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered request %q while %q was the one outstanding: %s", m.cfg.Name, got, id, quote(in.data))})
				}
			}
			if resp.Success != nil && !*resp.Success {
				return nil, in.data, m.fail(&arbiter.PlayerError{Reason: results.ReasonCrash, Err: fmt.Errorf("hiveapi: %s failed on %s (success:false): error %s", m.cfg.Name, requestType, thrown(resp.Error))})
			}
			if resp.ResponseType != "" && resp.ResponseType != requestType {
				return nil, in.data, m.fail(&arbiter.PlayerError{Reason: results.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered %s with response_type %q: %s", m.cfg.Name, requestType, resp.ResponseType, quote(in.data))})
			}
			return resp, in.data, nil
		}
	}
}

// thrown quotes the error a module reports it threw: a JSON string as its text.
func thrown(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return quote([]byte(text))
	}
	return quote(raw)
}

// timedOut records a request whose reply did not come in time. Over TCP its late reply is
// discarded when it comes; a process on a pipe or a channel is out of step and is restarted.
func (m *module) timedOut(ctx context.Context, requestType, id, when string) error {
	err := &arbiter.PlayerError{Reason: results.ReasonTimeForfeit, Err: fmt.Errorf("hiveapi: %s did not answer %s in time%s: %w", m.cfg.Name, requestType, when, context.Cause(ctx))}
	if m.cfg.Transport == TransportTCP && when == "" {
		m.stale = append(m.stale, id)
		return err
	}
	return m.fail(err)
}

// fail marks the conversation broken: the player starts the module again before its next
// request.
func (m *module) fail(err error) error {
	if m.broken == nil {
		m.broken = err
	}
	return err
}

// exitError describes a module that went away: how it exited if it did, and the end of what
// it wrote to stderr.
func (m *module) exitError(when string) error {
	what := fmt.Sprintf("%s closed the connection %s", m.cfg.Name, when)
	if m.proc != nil {
		select {
		case <-m.exited:
			status := "exited"
			if m.waitErr != nil {
				status = m.waitErr.Error()
			}
			what = fmt.Sprintf("%s ended (%s) %s", m.cfg.Name, status, when)
		case <-time.After(m.cfg.Grace):
		}
	}
	if s := m.stderr.String(); s != "" {
		what += "; it wrote: " + quote([]byte(s))
	}
	return &arbiter.PlayerError{Reason: results.ReasonCrash, Err: errors.New("hiveapi: " + what)}
}

// close ends the conversation: the module is told by the end of its input (a TCP server the
// arbiter started, which outlives its connections, by SIGTERM), given the grace period to
// exit, then killed with its process group. Every goroutine has ended when it returns.
func (m *module) close(ctx context.Context) error {
	var err error
	m.closing.Do(func() {
		if m.out != nil {
			m.out.Close()
		}
		if m.proc != nil {
			if m.cfg.Transport == TransportTCP {
				m.proc.TerminateGroup()
			}
			select {
			case <-m.exited:
			case <-time.After(m.cfg.Grace):
				err = m.proc.KillGroup()
				<-m.exited
			case <-ctx.Done():
				err = m.proc.KillGroup()
				<-m.exited
			}
			// A child the module left behind in its group goes too.
			m.proc.KillGroup()
		}
		close(m.quit)
		if m.in != nil {
			m.in.Close()
		}
		if m.reading {
			<-m.readDone
		}
	})
	return err
}

func (m *module) log(dir string, data []byte) {
	if m.cfg.Transcript != nil {
		fmt.Fprintf(m.cfg.Transcript, "%s %s %s\n", time.Now().UTC().Format("15:04:05.000"), dir, bytes.TrimRight(data, "\n"))
	}
}

// tail keeps the end of what a module writes to stderr (and, when stdout carries no messages,
// to stdout), for the error that reports its death.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}
