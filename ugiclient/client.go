package ugiclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hivearbiter/internal/linepeer"
	"hivearbiter/internal/proc"
	"hivearbiter/results/outcome"
)

// Handshake is what the engine said of itself between "ugi" and "ugiok".
type Handshake struct {
	Name, Author string
	Options      []Option
}

// Engine is a UGI conversation: the client side, one command at a time (Stop excepted). A
// TimeoutError or an ExitError from the transport leaves it unusable; the caller kills it.
type Engine struct {
	peer      *linepeer.Peer
	grace     time.Duration
	hello     Handshake
	searching atomic.Bool
	stopOnce  sync.Mutex // guards stopSent
	stopSent  bool
}

// Config says how to reach a UGI engine.
type Config = linepeer.Config

// Start starts the engine and completes the handshake: "ugi", then the id and option lines up
// to "ugiok", within ctx. Lines it does not know before "ugiok" (a UHP banner, say) are
// skipped. On error nothing of the engine is left running.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	peer, err := linepeer.Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	e := &Engine{peer: peer, grace: cfg.Grace}
	if e.grace <= 0 {
		e.grace = time.Second
	}
	if err := e.handshake(ctx); err != nil {
		peer.Kill()
		return nil, err
	}
	return e, nil
}

func (e *Engine) handshake(ctx context.Context) error {
	if err := e.peer.Send(ctx, "ugi"); err != nil {
		return err
	}
	for {
		line, err := e.peer.Next(ctx, `"ugiok"`)
		if err != nil {
			return err
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "ugiok":
			return nil
		case strings.HasPrefix(line, "id name "):
			e.hello.Name = strings.TrimSpace(strings.TrimPrefix(line, "id name "))
		case strings.HasPrefix(line, "id author "):
			e.hello.Author = strings.TrimSpace(strings.TrimPrefix(line, "id author "))
		case strings.HasPrefix(line, "option "):
			if o, err := ParseOption(line); err == nil {
				e.hello.Options = append(e.hello.Options, o)
			}
		}
	}
}

// Hello returns what the engine said in the handshake.
func (e *Engine) Hello() Handshake { return e.hello }

// Name is the engine's name in errors: its configured name.
func (e *Engine) Name() string { return e.peer.Name() }

// Stderr returns the last lines the engine wrote to its standard error.
func (e *Engine) Stderr() []string { return e.peer.Stderr() }

// Send sends one command as it is.
func (e *Engine) Send(ctx context.Context, command string) error { return e.peer.Send(ctx, command) }

// Next returns the engine's next line, trimmed; waiting names what is awaited, for errors.
func (e *Engine) Next(ctx context.Context, waiting string) (string, error) {
	line, err := e.peer.Next(ctx, waiting)
	return strings.TrimSpace(line), err
}

// SetOption sends "setoption name N value V".
func (e *Engine) SetOption(ctx context.Context, name, value string) error {
	return e.peer.Send(ctx, fmt.Sprintf("setoption name %s value %s", name, value))
}

// RefusedError is an engine's "info error" answer to a command.
type RefusedError struct {
	Command string
	Message string
}

// Error names the command and the engine's "info error" message.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("ugi: %q was answered with \"info error %s\"", e.Command, e.Message)
}

// Sync sends the commands, then "isready", and waits for "readyok". An "info error" line
// before it is returned as a RefusedError naming the last command sent; other lines are
// skipped.
func (e *Engine) Sync(ctx context.Context, commands ...string) error {
	for _, c := range commands {
		if err := e.peer.Send(ctx, c); err != nil {
			return err
		}
	}
	if err := e.peer.Send(ctx, "isready"); err != nil {
		return err
	}
	var refused error
	for {
		line, err := e.Next(ctx, `"readyok"`)
		if err != nil {
			return err
		}
		switch {
		case line == "readyok":
			return refused
		case strings.HasPrefix(line, "info ") && refused == nil:
			if in, err := ParseInfo(line); err == nil && in.IsError {
				last := ""
				if len(commands) > 0 {
					last = commands[len(commands)-1]
				}
				refused = &RefusedError{Command: last, Message: in.Error}
			}
		}
	}
}

// Search is the outcome of a go command.
type Search struct {
	Move  string             // the bestmove token, as the engine wrote it
	Info  outcome.SearchInfo // the info lines' fields, merged
	Error *RefusedError      // the first "info error" line of the search, if any
}

// StoppedError is a search that outlived its context: "stop" was sent, and the engine either
// answered within the grace period (Answered) or was not waited for any longer.
type StoppedError struct {
	Err      error // the transport's TimeoutError
	Answered bool
}

// Error is the transport's timeout, and whether the engine answered the stop.
func (e *StoppedError) Error() string {
	if e.Answered {
		return fmt.Sprintf("%v; it answered \"stop\"", e.Err)
	}
	return fmt.Sprintf("%v; it ignored \"stop\"", e.Err)
}

// Unwrap returns the transport's TimeoutError, for errors.As and the context's error in it.
func (e *StoppedError) Unwrap() error { return e.Err }

// Go sends a go command and reads the info lines up to "bestmove". When ctx ends first, the
// engine is sent "stop" and given the grace period to answer; the error is then a
// StoppedError. A malformed bestmove line is a ProtocolError.
func (e *Engine) Go(ctx context.Context, command string) (Search, error) {
	var s Search
	e.stopOnce.Lock()
	e.stopSent = false
	e.stopOnce.Unlock()
	if err := e.peer.Send(ctx, command); err != nil {
		return s, err
	}
	e.searching.Store(true)
	defer e.searching.Store(false)
	for {
		line, err := e.Next(ctx, `"bestmove"`)
		var timeout *proc.TimeoutError
		if errors.As(err, &timeout) {
			return s, e.stopLate(ctx, timeout)
		}
		if err != nil {
			return s, err
		}
		switch word, _, _ := strings.Cut(line, " "); word {
		case "bestmove":
			s.Move, err = ParseBestMove(line)
			return s, err
		case "info":
			in, err := ParseInfo(line)
			if err != nil {
				continue // a report is a courtesy: one that does not parse is not worth a game
			}
			merge(&s.Info, in.Search)
			if in.IsError && s.Error == nil {
				s.Error = &RefusedError{Command: command, Message: in.Error}
			}
		}
	}
}

// stopLate sends "stop" to a search that outlived its context and waits the grace period for
// its bestmove, so that the engine's last word reaches the transcript.
func (e *Engine) stopLate(ctx context.Context, timeout *proc.TimeoutError) error {
	grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.grace)
	defer cancel()
	e.Stop()
	for {
		line, err := e.Next(grace, `"bestmove" after "stop"`)
		if err != nil {
			return &StoppedError{Err: timeout}
		}
		if strings.HasPrefix(line, "bestmove") {
			return &StoppedError{Err: timeout, Answered: true}
		}
	}
}

// Stop sends "stop" to a running search, once: its bestmove then ends Go as usual. Between
// searches it does nothing. It is safe to call from any goroutine while Go runs.
func (e *Engine) Stop() error {
	if !e.searching.Load() {
		return nil
	}
	e.stopOnce.Lock()
	defer e.stopOnce.Unlock()
	if e.stopSent {
		return nil
	}
	e.stopSent = true
	return e.peer.SendWithin("stop", e.grace)
}

// Query sends "query Q" and returns the value of its "response" line; other lines before it
// are skipped.
func (e *Engine) Query(ctx context.Context, question string) (string, error) {
	if err := e.peer.Send(ctx, "query "+question); err != nil {
		return "", err
	}
	for {
		line, err := e.Next(ctx, `"response" to "query `+question+`"`)
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(line, "response") {
			return ParseResponse(line)
		}
		if in, err := ParseInfo(line); err == nil && in.IsError {
			return "", &RefusedError{Command: "query " + question, Message: in.Error}
		}
	}
}

// Kill ends the engine at once.
func (e *Engine) Kill() error { return e.peer.Kill() }

// Close sends "quit", waits the grace period, then kills what is left. It is safe to call
// more than once.
func (e *Engine) Close(ctx context.Context) error { return e.peer.Close(ctx, "quit") }
