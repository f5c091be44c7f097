package uhpclient

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// EngineError is a well-formed "err ..." reply: the engine refused the command.
type EngineError struct {
	Engine  string
	Command string
	Message string // every err line of the reply, joined with "; "
}

func (e *EngineError) Error() string {
	return fmt.Sprintf("uhpclient: %s: %s: err %s", e.Engine, e.Command, e.Message)
}

// InvalidMoveError is an "invalidmove ..." reply.
type InvalidMoveError struct {
	Engine  string
	Move    string
	Message string
}

func (e *InvalidMoveError) Error() string {
	return fmt.Sprintf("uhpclient: %s: play %s: invalidmove %s", e.Engine, e.Move, e.Message)
}

// ProtocolError is a conversation that broke: a reply that cannot answer the command, a line
// over the size limit, output without an "ok".
type ProtocolError struct {
	Engine  string
	Command string
	Msg     string
	Line    string // the offending line, if there is one
}

func (e *ProtocolError) Error() string {
	s := fmt.Sprintf("uhpclient: %s: %s: %s", e.Engine, e.Command, e.Msg)
	if e.Line != "" {
		s += fmt.Sprintf(" (line %q)", truncate(e.Line, 200))
	}
	return s
}

// TimeoutError is a command that did not finish before its context's deadline. It matches
// context.DeadlineExceeded (or context.Canceled) with errors.Is.
type TimeoutError struct {
	Engine  string
	Command string
	After   time.Duration
	Cause   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("uhpclient: %s: %s: no answer after %v", e.Engine, e.Command, e.After.Round(time.Millisecond))
}

func (e *TimeoutError) Unwrap() error {
	if e.Cause == nil {
		return context.DeadlineExceeded
	}
	return e.Cause
}

// ExitError is an engine that exited or crashed.
type ExitError struct {
	Engine   string
	Command  string
	ExitCode int    // -1 when killed by a signal or unknown
	Signal   string // the signal that killed it, if any
	Stderr   []string
}

func (e *ExitError) Error() string {
	how := fmt.Sprintf("exit status %d", e.ExitCode)
	if e.Signal != "" {
		how = "killed by " + e.Signal
	}
	s := fmt.Sprintf("uhpclient: %s: %s: the engine exited (%s)", e.Engine, e.Command, how)
	if len(e.Stderr) > 0 {
		s += "; last stderr: " + truncate(strings.Join(e.Stderr[max(0, len(e.Stderr)-3):], " | "), 300)
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
