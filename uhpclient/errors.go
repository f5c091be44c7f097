package uhpclient

import (
	"errors"
	"fmt"
	"time"

	"hivearbiter/internal/lines"
	"hivearbiter/internal/proc"
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

// Error names the engine, the command and the engine's err message.
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

// Error names the engine, the command and the engine's invalidmove message.
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
	// Fault, when not zero, names a fault that the arbiter explains with its cause and fix:
	// a reply without its "ok", a banner printed only when asked "info".
	Fault Fault
}

// Error names the engine, the command and what broke the conversation, quoting the line that
// broke it (cut at 200 bytes).
func (e *ProtocolError) Error() string {
	s := fmt.Sprintf("uhpclient: %s: %s: %s", e.Engine, e.Command, e.Msg)
	if e.Line != "" {
		s += ": " + lines.QuoteText(truncate(e.Line, 200))
	}
	return s
}

// Fault names a broken conversation that has a known cause and fix.
type Fault int

// The faults a ProtocolError names.
const (
	// NoFault is any other broken conversation.
	NoFault Fault = iota
	// MissingOK is a reply that was whole (a move, a GameString, a banner) but never ended
	// with "ok" before its time was up.
	MissingOK
	// BannerOnInfo is an engine that printed no banner at start-up, but printed one when it
	// was asked "info".
	BannerOnInfo
	// NotAMoveString is an answer to bestmove that is no MoveString at all.
	NotAMoveString
)

// TimeoutError is a command that did not finish before its context ended. It unwraps to the
// context's error, so errors.Is(err, context.DeadlineExceeded) (or context.Canceled) holds.
// The engine is killed. It quotes what the engine printed of its reply before it was given up
// on (Lines), and says what became of the SIGINT that stopped a search (Interrupt). It is
// the arbiter's one timeout error, shared by every protocol.
type TimeoutError = proc.TimeoutError

// InterruptOutcome is how an engine took the SIGINT that stopped a search which outlived its
// deadline.
type InterruptOutcome = proc.InterruptOutcome

// ExitError is an engine whose output ended: it exited, crashed, or was killed. It gives the
// exit status and the last lines of stderr. It is the arbiter's one exit error, shared by
// every protocol.
type ExitError = proc.ExitError

// timeoutError is a TimeoutError of a UHP engine: the reply it gave up on ends with "ok", and
// at start-up, a reply without an "id" line is no info banner.
func timeoutError(engine, command string, after time.Duration, cause error, printed []string) *TimeoutError {
	te := &TimeoutError{Source: "uhpclient", Engine: engine, Command: command, Waiting: `"ok"`,
		After: after, Cause: cause, Lines: printed}
	if command == "start" && !hasIDLine(printed) {
		te.Missing, te.Rule = "info banner", bannerRule
	}
	return te
}

// bannerRule is what UHP asks of an engine at start-up.
const bannerRule = `a UHP engine must print its info banner ("id NAME VERSION", a line of the expansions it plays, then "ok") at start-up`

// ProgramError is an engine program that cannot be run: missing, a directory, or not
// executable. It says so in words, not in the system call's.
type ProgramError struct {
	Engine  string // empty when not known
	Program string
	Problem string // what is wrong, as a sentence
	Err     error  // the system's error, when there is one, such as fs.ErrNotExist
}

// Unwrap returns the system's error, if there is one (fs.ErrNotExist, fs.ErrPermission).
func (e *ProgramError) Unwrap() error { return e.Err }

// Error names the engine, if it has a name, and the Problem.
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

// quoteLines quotes the first lines an engine printed, each cut (see lines.Quote).
func quoteLines(printed []string) string { return lines.Quote(printed) }

// quoteText quotes a text of the engine's as it printed it (see lines.QuoteText).
func quoteText(s string) string { return lines.QuoteText(s) }

// seconds writes a duration as a user reads it: "1.953 s".
func seconds(d time.Duration) string { return proc.Seconds(d) }

func truncate(s string, n int) string { return lines.Cut(s, n) }
