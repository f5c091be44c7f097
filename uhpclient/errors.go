package uhpclient

import (
	"context"
	"errors"
	"fmt"
	"hivearbiter/internal/proc"
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
	// Lines are what the engine printed of its reply before it was given up on: a reply
	// without its "ok", or garbage. They are quoted, cut, in the message.
	Lines []string
	// Interrupt says what became of a search interrupted with SIGINT when its time was up.
	Interrupt *InterruptOutcome
}

// InterruptOutcome is how an engine took the SIGINT that stopped a search which outlived its
// deadline.
type InterruptOutcome struct {
	At     time.Duration // from sending bestmove to the signal
	Lines  []string      // what it printed after the signal
	Answer bool          // it ended its reply with "ok", but too late
	Exited *ExitError    // it exited instead
}

func (e *TimeoutError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "uhpclient: %s: %s: ", e.Engine, e.Command)
	after := seconds(e.After)
	start := e.Command == "start"
	switch {
	case start && !hasIDLine(e.Lines):
		fmt.Fprintf(&b, "no info banner after %s; %s: %s", after, printed(e.Lines), bannerRule)
	case errors.Is(e.Unwrap(), context.Canceled):
		fmt.Fprintf(&b, "stopped after %s, before its reply ended; %s", after, printed(e.Lines))
	case len(e.Lines) > 0:
		fmt.Fprintf(&b, `no "ok" after %s; %s`, after, printed(e.Lines))
	default:
		fmt.Fprintf(&b, "did not answer within %s", after)
	}
	if in := e.Interrupt; in != nil {
		fmt.Fprintf(&b, "; interrupted with SIGINT at %s", seconds(in.At))
		switch {
		case in.Exited != nil:
			fmt.Fprintf(&b, ", it exited (%s)", in.Exited.how())
		case in.Answer:
			fmt.Fprintf(&b, ", it answered too late (%s)", quoteLines(in.Lines))
		case len(in.Lines) > 0:
			fmt.Fprintf(&b, ", it printed %s but no \"ok\"", quoteLines(in.Lines))
		default:
			b.WriteString(", it did not answer")
		}
	}
	return b.String()
}

func (e *TimeoutError) Unwrap() error {
	if e.Cause == nil {
		return context.DeadlineExceeded
	}
	return e.Cause
}

// bannerRule is what UHP asks of an engine at start-up.
const bannerRule = `a UHP engine must print its info banner ("id NAME VERSION", a line of the expansions it plays, then "ok") at start-up`

// ExitError is an engine whose output ended: it exited, crashed, or was killed.
type ExitError struct {
	Engine   string
	Command  string
	ExitCode int    // -1 when killed by a signal or unknown
	Signal   string // the signal that ended it, such as "killed", if any
	Stderr   []string
	// Interrupted, when not zero, is how long after the command was sent the engine was sent
	// the SIGINT that stopped its search (Engine.Interrupt): it exited instead of answering.
	Interrupted time.Duration
	// Lines are what it printed of its reply before it exited, quoted (cut) in the message.
	Lines []string
}

func (e *ExitError) how() string {
	if e.Signal != "" {
		return "signal: " + e.Signal
	}
	return fmt.Sprintf("exit status %d", e.ExitCode)
}

func (e *ExitError) Error() string {
	s := fmt.Sprintf("uhpclient: %s: %s: the engine exited (%s)", e.Engine, e.Command, e.how())
	if e.Interrupted > 0 {
		s = fmt.Sprintf("uhpclient: %s: %s: interrupted with SIGINT at %s, the engine exited (%s) instead of answering its best move so far",
			e.Engine, e.Command, seconds(e.Interrupted), e.how())
	}
	if len(e.Lines) > 0 {
		s += "; before, " + printed(e.Lines)
	}
	if len(e.Stderr) > 0 {
		tail := e.Stderr[max(0, len(e.Stderr)-3):]
		s += "; stderr: " + truncate(strings.Join(tail, " | "), 300)
	}
	return s
}

// ProgramError is an engine program that cannot be run: missing, a directory, or not
// executable. It says so in words, not in the system call's.
type ProgramError struct {
	Engine  string // empty when not known
	Program string
	Problem string // what is wrong, as a sentence
	Err     error  // the system's error, when there is one, such as fs.ErrNotExist
}

func (e *ProgramError) Unwrap() error { return e.Err }

func (e *ProgramError) Error() string {
	if e.Engine == "" {
		return fmt.Sprintf("uhpclient: %s", e.Problem)
	}
	return fmt.Sprintf("uhpclient: %s: %s", e.Engine, e.Problem)
}

// CheckProgram says whether a program can be run from dir (empty: the current directory) as
// exec would run it (see proc.Locate). It returns a *ProgramError that says what is wrong,
// or nil.
func CheckProgram(program, dir string) error {
	if le, ok := errors.AsType[*proc.LocateError](proc.Locate(program, dir)); ok {
		return &ProgramError{Program: program, Problem: le.Problem, Err: le.Err}
	}
	return nil
}

// hasIDLine reports whether the lines hold the "id" line of a banner.
func hasIDLine(lines []string) bool {
	_, ok := parseInfo(lines)
	return ok
}

// printed says what the engine printed, quoted and cut.
func printed(lines []string) string {
	if len(lines) == 0 {
		return "it printed nothing"
	}
	return "it printed " + quoteLines(lines)
}

// quoteLines quotes the first lines an engine printed, each cut, so that garbage is shown as
// it is without flooding a message; a line repeated is shown once, with its count.
func quoteLines(lines []string) string {
	const shown = 4
	var parts []string
	rest := 0
	for i := 0; i < len(lines); {
		n := 1
		for i+n < len(lines) && lines[i+n] == lines[i] {
			n++
		}
		switch {
		case len(parts) == shown:
			rest += n
		case n > 1:
			parts = append(parts, fmt.Sprintf("%q (%d times)", truncate(lines[i], 100), n))
		default:
			parts = append(parts, fmt.Sprintf("%q", truncate(lines[i], 100)))
		}
		i += n
	}
	s := strings.Join(parts, " | ")
	if rest > 0 {
		s += fmt.Sprintf(" and %d more lines", rest)
	}
	return s
}

// seconds writes a duration as a user reads it: "1.953 s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f s", d.Seconds())
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
