package proc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hivearbiter/internal/lines"
)

// ExitError is a player whose output ended while the arbiter waited for it: its program
// exited, crashed or was killed, or its connection closed. It is the one such error of
// every protocol; Child.ExitError fills in how the program ended, and the protocol says
// who it is and what it was waiting for.
type ExitError struct {
	Source   string // the package that reports it, which begins the message: "uhpclient"
	Engine   string // the player's name
	Command  string // the command whose reply was awaited, for a protocol of commands and replies
	When     string // when the output ended, as a phrase: `while waiting for "bestmove"`
	ExitCode int    // -1 when killed by a signal, unknown, or not a program
	Signal   string // the signal that ended the program, such as "killed", if any
	Stderr   []string
	Network  bool // the player is a connection, which closed
	// Interrupted, when not zero, is how long after the command was sent the program was
	// sent the SIGINT that stopped its search: it exited instead of answering.
	Interrupted time.Duration
	// Lines are what it printed of its reply before it exited, quoted (cut) in the message.
	Lines []string
}

// How says how the program ended, as "exit status 3" or "signal: killed".
func (e *ExitError) How() string {
	if e.Signal != "" {
		return "signal: " + e.Signal
	}
	return fmt.Sprintf("exit status %d", e.ExitCode)
}

// Error says who exited (or whose connection closed) and how, what it printed before and the
// last lines of its standard error.
func (e *ExitError) Error() string {
	var b strings.Builder
	b.WriteString(prefix(e.Source, e.Engine, e.Command))
	what := fmt.Sprintf("the engine exited (%s)", e.How())
	if e.Network {
		what = "the connection closed"
	}
	if e.Interrupted > 0 {
		fmt.Fprintf(&b, "interrupted with SIGINT at %s, %s instead of answering its best move so far", Seconds(e.Interrupted), what)
	} else {
		b.WriteString(what)
	}
	if e.When != "" {
		b.WriteString(" " + e.When)
	}
	if len(e.Lines) > 0 {
		b.WriteString("; before, " + lines.Printed(e.Lines))
	}
	if said := StderrExcerpt(e.Stderr); said != "" {
		b.WriteString("; stderr: " + said)
	}
	return b.String()
}

// StderrExcerpt is what a message quotes of a program's last lines of standard error: its
// last three lines, or, when they end a traceback (Python's) or a panic (Go's, Rust's), the
// traceback from its first line, with the frame that raised and the error whole: the file and
// line a crash names are the one thing its author needs. Frames in the middle of a long
// traceback give way to "...". Blank lines say nothing and are left out.
func StderrExcerpt(stderr []string) string {
	said := spoken(stderr)
	if len(said) == 0 {
		return ""
	}
	start := max(0, len(said)-3)
	for i := len(said) - 1; i >= 0; i-- {
		if tracebackStart(said[i]) {
			start = min(start, i)
			break
		}
	}
	excerpt := said[start:]
	const most = 8 // the first line, and the innermost frames with the error
	if len(excerpt) > most {
		excerpt = append([]string{excerpt[0], "..."}, excerpt[len(excerpt)-most+2:]...)
	}
	return strings.Join(excerpt, " | ")
}

// tracebackStart reports whether a line of standard error begins a traceback or a panic.
func tracebackStart(line string) bool {
	return strings.HasPrefix(line, "Traceback (most recent call last)") || strings.HasPrefix(line, "panic: ") ||
		strings.HasPrefix(line, "thread '") && strings.Contains(line, "panicked at") ||
		strings.HasPrefix(line, "Unhandled exception") || strings.HasPrefix(line, "Unhandled Exception")
}

// spoken is the lines that are not blank.
func spoken(text []string) []string {
	var out []string
	for _, l := range text {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// TimeoutError is a wait for a player that ended with its context. It unwraps to the
// context's error, so errors.Is(err, context.DeadlineExceeded) (or context.Canceled) holds.
// It is the one such error of every protocol. Whether the player is still usable is the
// protocol's to say.
type TimeoutError struct {
	Source  string // the package that reports it, which begins the message
	Engine  string
	Command string // the command whose reply was awaited, for a protocol of commands and replies
	// Waiting is what would have ended the wait, quoted: `"ok"` ends a UHP reply, `"bestmove"`
	// a UGI search.
	Waiting string
	After   time.Duration // from sending the command (or starting the program) to giving up
	Cause   error         // the context's error; nil means context.DeadlineExceeded
	// Lines are what the player printed of its reply before it was given up on: a reply
	// without its end, or garbage. They are quoted, cut, in the message.
	Lines []string
	// Missing and Rule, when Missing is set, say what the player should have printed and
	// did not (a UHP engine's "info banner"), and the rule that asks for it.
	Missing, Rule string
	// Interrupt says what became of a search interrupted with SIGINT when its time was up.
	Interrupt *InterruptOutcome
	// Partial is the start of a line the player printed without ending it: output without
	// a newline, or flushed only in part.
	Partial string
	// Replied says the player had ended a reply to a command before this one: its output
	// reaches the arbiter, so a silence now is not output it never flushes.
	Replied bool
}

// InterruptOutcome is how a program took the SIGINT that stopped a search which outlived
// its deadline.
type InterruptOutcome struct {
	At     time.Duration // from sending the search to the signal
	Lines  []string      // what it printed after the signal
	Answer bool          // it ended its reply, but too late
	Exited *ExitError    // it exited instead
}

// Error says who did not answer what within how long, what it printed before it was given up on,
// and what became of the interrupt.
func (e *TimeoutError) Error() string {
	var b strings.Builder
	b.WriteString(prefix(e.Source, e.Engine, e.Command))
	after := Seconds(e.After)
	canceled := errors.Is(e.Unwrap(), context.Canceled)
	switch {
	case e.Missing != "":
		fmt.Fprintf(&b, "no %s after %s; %s: %s", e.Missing, after, lines.Printed(e.Lines), e.Rule)
	case e.Command == "" && canceled:
		// A conversation of lines, not of replies: what it waited for is all there is to say.
		fmt.Fprintf(&b, "stopped after %s while waiting for %s", after, e.Waiting)
	case e.Command == "":
		fmt.Fprintf(&b, "no %s within %s", e.Waiting, after)
	case canceled:
		fmt.Fprintf(&b, "stopped after %s, before its reply ended; %s", after, lines.Printed(e.Lines))
	case len(e.Lines) > 0:
		fmt.Fprintf(&b, "no %s after %s; %s", e.Waiting, after, lines.Printed(e.Lines))
	default:
		fmt.Fprintf(&b, "did not answer within %s", after)
	}
	if e.Partial != "" {
		fmt.Fprintf(&b, "; it printed %s without a line end", lines.QuoteText(lines.Cut(e.Partial, 200)))
	}
	if in := e.Interrupt; in != nil {
		fmt.Fprintf(&b, "; interrupted with SIGINT at %s", Seconds(in.At))
		switch {
		case in.Exited != nil:
			fmt.Fprintf(&b, ", it exited (%s)", in.Exited.How())
		case in.Answer:
			fmt.Fprintf(&b, ", it answered too late (%s)", lines.Quote(in.Lines))
		case len(in.Lines) > 0:
			fmt.Fprintf(&b, ", it printed %s but no %s", lines.Quote(in.Lines), e.Waiting)
		default:
			b.WriteString(", it did not answer")
		}
	}
	return b.String()
}

// Unwrap returns the context's error that ended the wait (context.DeadlineExceeded when none was
// given), for errors.Is.
func (e *TimeoutError) Unwrap() error {
	if e.Cause == nil {
		return context.DeadlineExceeded
	}
	return e.Cause
}

// prefix begins a message: "uhpclient: nokamute: bestmove depth 3: ".
func prefix(source, engine, command string) string {
	s := source + ": " + engine + ": "
	if command != "" {
		s += command + ": "
	}
	return s
}

// Seconds writes a duration as a user reads it: "1.953 s".
func Seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f s", d.Seconds())
}
