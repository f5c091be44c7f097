package hiveapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/lines"
	"hivearbiter/internal/nodeipc"
	"hivearbiter/internal/proc"
	"hivearbiter/results/outcome"
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
	cfg        moduleConfig
	transcript *lines.Transcript // nil without moduleConfig.Transcript
	// child is the module's process, which owns its pipes and the goroutines that read them
	// (the reader of messages too, over stdio); nil for a TCP module the arbiter did not start.
	child    *proc.Child
	out      writeConn     // requests go here
	in       io.Closer     // a connection: closing it ends the reader
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
	m = &module{cfg: cfg, incoming: make(chan message), quit: make(chan struct{}), readDone: make(chan struct{}), transcript: lines.NewTranscript(cfg.Transcript)}
	defer func() {
		if err != nil {
			m.close(context.WithoutCancel(ctx))
			m = nil
		}
	}()
	switch {
	case cfg.Transport != TransportStdio && cfg.Transport != TransportIPC && cfg.Transport != TransportTCP:
		return m, fmt.Errorf("hiveapi: unknown transport %q", cfg.Transport)
	case len(cfg.Command) == 0 && cfg.Transport != TransportTCP:
		return m, fmt.Errorf("hiveapi: transport=%s needs a program to start", cfg.Transport)
	}
	var reader io.Reader
	spec := proc.Spec{Command: cfg.Command, Dir: cfg.Dir, Env: cfg.Env}
	if cfg.Transport == TransportIPC {
		conn, childEnd, err := nodeipc.Pair()
		if errors.Is(err, errors.ErrUnsupported) {
			return m, errors.New("hiveapi: transport=ipc needs Unix sockets")
		}
		if err != nil {
			return m, err
		}
		defer childEnd.Close() // the module has its own copy once started
		spec.ExtraFiles = []*os.File{childEnd}
		spec.Env = append(slices.Clip(cfg.Env), nodeipc.Env...)
		m.out, m.in, reader = conn.(writeConn), conn, conn
	}
	if len(cfg.Command) > 0 {
		// What a module prints to stderr, and to stdout when its messages go another way, is
		// kept for the error that reports its death.
		supervised := proc.Config{Spec: spec, Grace: max(cfg.Grace, 100*time.Millisecond)}
		if cfg.Transport == TransportStdio {
			supervised.Stdout = func(r io.Reader, killed <-chan struct{}) { m.readLoop(bufio.NewReader(r), ReadLine, killed) }
		}
		child, err := proc.Supervise(supervised)
		if err != nil {
			if _, ok := errors.AsType[*proc.StartError](err); ok {
				return m, &driver.PlayerError{Reason: outcome.ReasonCrash, Err: fmt.Errorf("hiveapi: starting %s: %w", cfg.Command[0], err)}
			}
			return m, err
		}
		m.child = child
		if cfg.Transport == TransportStdio {
			m.out, m.reading = child.Stdin(), true
		} else {
			child.Stdin().Close() // requests come another way
		}
	}
	if cfg.Transport == TransportTCP {
		conn, err := m.dial(ctx)
		if err != nil {
			return m, err
		}
		m.out, m.in, reader = conn.(writeConn), conn, conn
	}
	if cfg.Transport != TransportStdio {
		read := ReadLine
		if cfg.Transport == TransportTCP {
			read = ReadFrame
		}
		m.reading = true
		go m.readLoop(bufio.NewReader(reader), read, nil)
	}
	return m, nil
}

// gone is closed once the module's process is gone and its output read; at once when the
// arbiter started none.
func (m *module) gone() <-chan struct{} {
	if m.child == nil {
		return closed
	}
	return m.child.Done()
}

var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// dial connects to a TCP module, waiting for a server the arbiter started to listen.
func (m *module) dial(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", m.cfg.Addr)
		if err == nil {
			return conn, nil
		}
		if m.child == nil {
			return nil, &driver.PlayerError{Reason: outcome.ReasonCrash, Err: fmt.Errorf("hiveapi: connecting to %s: %w", m.cfg.Addr, err)}
		}
		select {
		case <-m.gone():
			return nil, m.exitError("before it listened on " + m.cfg.Addr)
		case <-ctx.Done():
			return nil, &driver.PlayerError{Reason: outcome.ReasonStall, Err: fmt.Errorf("hiveapi: %s did not listen on %s in time: %w", m.cfg.Command[0], m.cfg.Addr, err)}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// readLoop hands over the module's messages until their stream ends, close is called, or
// (over stdio, where the process's supervisor runs it) the module is killed.
func (m *module) readLoop(r *bufio.Reader, read func(*bufio.Reader) ([]byte, error), killed <-chan struct{}) {
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
		case <-killed:
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
	sent := time.Now()
	_, err = lines.Write(ctx, m.out, msg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, m.timedOut(ctx, requestType, id, sent, true)
		}
		return nil, nil, m.fail(m.exitError(fmt.Sprintf("when sent %s (%v)", requestType, err)))
	}
	for {
		select {
		case <-ctx.Done():
			return nil, nil, m.timedOut(ctx, requestType, id, sent, false)
		case in := <-m.incoming:
			if in.err != nil {
				var fe *FrameError
				if errors.As(in.err, &fe) {
					return nil, nil, m.fail(&driver.PlayerError{Reason: outcome.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered %s: %w", m.cfg.Name, requestType, in.err)})
				}
				return nil, nil, m.fail(m.exitError("instead of answering " + requestType))
			}
			if m.cfg.Transport == TransportIPC && nodeipc.Internal(in.data) {
				continue // Node's own messages on the channel
			}
			resp, err := ParseResponse(in.data)
			if err != nil {
				var re *ReplyError
				errors.As(err, &re)
				return nil, in.data, m.fail(&driver.PlayerError{Reason: outcome.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered %s with %s, which is %s", m.cfg.Name, requestType, re.Text, re.Why)})
			}
			if got := resp.ID(); got != id {
				if i := slices.Index(m.stale, got); i >= 0 || (got == "" && len(m.stale) > 0) {
					m.stale = slices.Delete(m.stale, max(i, 0), max(i, 0)+1)
					continue // the late answer to a request that timed out
				}
				if got != "" {
					return nil, in.data, m.fail(&driver.PlayerError{Reason: outcome.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered request %q while %q was the one outstanding: %s", m.cfg.Name, got, id, quote(in.data))})
				}
			}
			if resp.Success != nil && !*resp.Success {
				return nil, in.data, m.fail(&driver.PlayerError{Reason: outcome.ReasonCrash, Err: fmt.Errorf("hiveapi: %s failed on %s (success:false): error %s", m.cfg.Name, requestType, thrown(resp.Error))})
			}
			if resp.ResponseType != "" && resp.ResponseType != requestType {
				return nil, in.data, m.fail(&driver.PlayerError{Reason: outcome.ReasonProtocol, Err: fmt.Errorf("hiveapi: %s answered %s with response_type %q: %s", m.cfg.Name, requestType, resp.ResponseType, quote(in.data))})
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
func (m *module) timedOut(ctx context.Context, requestType, id string, sent time.Time, sending bool) error {
	waiting := "answer to " + requestType
	if sending {
		waiting = "room to send " + requestType
	}
	err := &driver.PlayerError{Reason: outcome.ReasonTimeForfeit, Err: &proc.TimeoutError{Source: "hiveapi", Engine: m.cfg.Name,
		Waiting: waiting, After: time.Since(sent), Cause: context.Cause(ctx)}}
	if m.cfg.Transport == TransportTCP && !sending {
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
// it wrote to stderr. A module on a connection may have closed it and live on: that is all
// that is said of it then.
func (m *module) exitError(when string) error {
	ee := &proc.ExitError{ExitCode: -1, Network: true}
	switch {
	case m.child == nil:
	case m.cfg.Transport == TransportStdio:
		ee = m.child.ExitError() // its output ended: it is exiting, or is killed after the grace
	default:
		select {
		case <-m.child.Done():
			ee = m.child.ExitError()
		case <-time.After(m.cfg.Grace):
			ee.Stderr = m.child.Stderr()
		}
	}
	ee.Source, ee.Engine, ee.When = "hiveapi", m.cfg.Name, when
	return driver.ClassifyError(ee, false)
}

// close ends the conversation: the module is told by the end of its input (a TCP server the
// arbiter started, which outlives its connections, by SIGTERM), given the grace period to
// exit, then killed with its process group. Every goroutine has ended when it returns.
func (m *module) close(ctx context.Context) error {
	var err error
	m.closing.Do(func() {
		ask := func() {
			if m.out != nil {
				m.out.Close()
			}
			if m.child != nil && m.cfg.Transport == TransportTCP {
				m.child.Terminate()
			}
		}
		if m.child == nil {
			ask()
		} else if err = m.child.Stop(ctx, ask); errors.As(err, new(*proc.StopError)) {
			err = nil // a module killed after the grace period is no failure of closing it
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
	if m.transcript != nil { // spares the conversion when there is no transcript
		m.transcript.Line(dir, string(data))
	}
}
