package cli

import (
	"fmt"
	"io"
	"strings"
)

// UsageError marks a mistake in the command line or configuration: the user's to fix, not
// the program's failure.
type UsageError struct{ Err error }

// Usage marks err as a mistake in the command line or configuration.
func Usage(err error) error { return UsageError{Err: err} }

// Error is the mistake's own text: marking it changes only the exit status.
func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the mistake, for errors.As on what it is.
func (e UsageError) Unwrap() error { return e.Err }

// ExitError ends the process with Code after printing Msg, if there is one.
type ExitError struct {
	Code int
	Msg  string
}

// Error is Msg, or "exit status Code" for an error that prints nothing.
func (e *ExitError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Msg
}

// Exit builds an ExitError whose message is format and args; an empty format prints nothing.
// An error among args is given by its message (see Message).
func Exit(code int, format string, args ...any) error {
	msg := ""
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = Message(err)
		}
	}
	if format != "" {
		msg = fmt.Sprintf(format, args...)
	}
	return &ExitError{Code: code, Msg: msg}
}

// Message is an error as a user reads it, one problem a line (an errors.Join, each of its
// errors). An error that can say itself without its package's name (a Message method, as
// configs.Error, driver.ConfigError and results.LockedError have) is shown so: a package's
// name tells a programmer where an error came from, and only stutters after the program's.
// It is the arbiter's one error convention (docs/architecture.md, "One error convention") on
// the command's side; a library's is driver.Message.
func Message(err error) string {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range joined.Unwrap() {
			lines = append(lines, Message(e))
		}
		return strings.Join(lines, "\n")
	}
	switch e := err.(type) {
	case UsageError:
		return Message(e.Err)
	case interface{ Message() string }:
		return e.Message()
	}
	return err.Error()
}

// PrintError prints a message, each of its lines after the program's name and a colon.
func PrintError(w io.Writer, program, msg string) {
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintln(w, program+":", line)
	}
}
