package main

import (
	"errors"
	"fmt"
)

// Exit codes. They are stable and documented in the README: CI jobs gate on them.
const (
	exitOK           = 0   // finished; with -sprt: H1 accepted (the patch is good)
	exitFailure      = 1   // the arbiter itself failed (I/O, internal error)
	exitUsage        = 2   // bad command line or configuration
	exitH0           = 3   // SPRT accepted H0: the regression signal CI gates on
	exitInconclusive = 4   // SPRT reached its game cap without a decision
	exitEngines      = 5   // aborted by engine failures, or -strict saw engine misbehaviour
	exitInterrupted  = 130 // stopped by Ctrl-C or SIGTERM; run the same command to resume
)

// exitError ends the process with a given code after printing its message (if any).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.msg
}

// exitWith builds an exitError; an empty message prints nothing. An error among args is
// given by its message (see message).
func exitWith(code int, format string, args ...any) error {
	msg := ""
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = message(err)
		}
	}
	if format != "" {
		msg = fmt.Sprintf(format, args...)
	}
	return &exitError{code: code, msg: msg}
}

func asExitError(err error) (*exitError, bool) {
	var ee *exitError
	ok := errors.As(err, &ee)
	return ee, ok
}
