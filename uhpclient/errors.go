package uhpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrClosed is returned, wrapped, by commands sent after Close.
var ErrClosed = errors.New("engine closed")

// EngineError is a well-formed "err" reply: the engine understood the conversation and
// refused the command. The engine stays usable.
type EngineError struct {
	Engine  string
	Command string
	// Message is the text of the err lines and of any lines after them up to "ok", joined
	// with spaces: Mzinga on mono splits one .NET exception message over several lines.
	Message string
}

func (e *EngineError) Error() string {
	return fmt.Sprintf("uhpclient: %s: %s: err %s", e.Engine, e.Command, e.Message)
}

// InvalidMoveError is an "invalidmove" reply: the engine refused a move. The engine stays
// usable.
type InvalidMoveError struct {
	Engine  string
	Command string
	Move    string // the argument of play, "pass", or the whole command for others
	Message string
}

func (e *InvalidMoveError) Error() string {
	return fmt.Sprintf("uhpclient: %s: %s: invalidmove %s", e.Engine, e.Command, e.Message)
}

// ProtocolError is a broken conversation: a line over the size limit, a reply without end,
// or output that cannot answer the command. The engine is killed.
type ProtocolError struct {
	Engine  string
	Command string
	Msg     string
	Line    string // the offending line, or its start, when there is one
}

func (e *ProtocolError) Error() string {
	s := fmt.Sprintf("uhpclient: %s: %s: %s", e.Engine, e.Command, e.Msg)
	if e.Line != "" {
		s += fmt.Sprintf(": %q", truncate(e.Line, 200))
	}
	return s
}

// TimeoutError is a command that did not finish before its context ended. It unwraps to the
// context's error, so errors.Is(err, context.DeadlineExceeded) (or context.Canceled) holds.
// The engine is killed.
type TimeoutError struct {
	Engine  string
	Command string
	After   time.Duration // from sending the command (or starting the engine) to giving up
	Cause   error         // the context's error; nil means context.DeadlineExceeded
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("uhpclient: %s: %s: no reply, %v after %v", e.Engine, e.Command, e.Unwrap(), e.After.Round(time.Millisecond))
}

func (e *TimeoutError) Unwrap() error {
	if e.Cause == nil {
		return context.DeadlineExceeded
	}
	return e.Cause
}

// ExitError is an engine whose output ended: it exited, crashed, or was killed.
type ExitError struct {
	Engine   string
	Command  string
	ExitCode int    // -1 when killed by a signal or unknown
	Signal   string // the signal that ended it, such as "killed", if any
	Stderr   []string
}

func (e *ExitError) Error() string {
	how := fmt.Sprintf("exit status %d", e.ExitCode)
	if e.Signal != "" {
		how = "signal: " + e.Signal
	}
	s := fmt.Sprintf("uhpclient: %s: %s: the engine exited (%s)", e.Engine, e.Command, how)
	if len(e.Stderr) > 0 {
		tail := e.Stderr[max(0, len(e.Stderr)-3):]
		s += "; stderr: " + truncate(strings.Join(tail, " | "), 300)
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
