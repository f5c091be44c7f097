package uhpclient

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/golden"
)

// TestErrorTextsGolden keeps every error text a user reads in a record's detail, on the
// console or in arbiter check, one per line.
func TestErrorTextsGolden(t *testing.T) {
	ms := time.Millisecond
	var b strings.Builder
	exited := &ExitError{Engine: "py", Command: "bestmove time 00:00:01", ExitCode: -1, Signal: "interrupt"}
	for _, err := range []error{
		&TimeoutError{Engine: "x", Command: "start", After: 10007 * ms},
		&TimeoutError{Engine: "x", Command: "start", After: 10007 * ms, Lines: []string{"HELLO I AM NOT UHP"}},
		&TimeoutError{Engine: "x", Command: "start", After: 10007 * ms, Lines: []string{"id X 1.0", "Mosquito"}},
		&TimeoutError{Engine: "x", Command: "validmoves", After: 10005 * ms, Lines: []string{"wS1;wB1", "wG1"}},
		&TimeoutError{Engine: "x", Command: "play wS1", After: 10005 * ms},
		&TimeoutError{Engine: "x", Command: "play wS1", After: 2 * ms, Cause: context.Canceled},
		&TimeoutError{Engine: "py", Command: "bestmove time 00:00:01", After: 1200 * ms,
			Interrupt: &InterruptOutcome{At: 1200 * ms, Exited: exited}},
		&TimeoutError{Engine: "x", Command: "bestmove depth 9", After: 300 * time.Second, Lines: []string{"\x00\x01 not a move", "still searching"},
			Interrupt: &InterruptOutcome{At: 300 * time.Second}},
		&TimeoutError{Engine: "x", Command: "bestmove time 00:00:01", After: 1200 * ms,
			Interrupt: &InterruptOutcome{At: 1200 * ms, Lines: []string{"wS1"}, Answer: true}},
		&ExitError{Engine: "py", Command: "bestmove time 00:00:01", ExitCode: 130, Interrupted: 475 * ms,
			Stderr: []string{"Traceback (most recent call last):", "KeyboardInterrupt"}},
		&ExitError{Engine: "x", Command: "bestmove time 00:00:01", ExitCode: -1, Signal: "interrupt", Interrupted: 300 * ms,
			Lines: []string{"\x00\x01 not a move", "still searching"}},
		&ExitError{Engine: "nokamute", Command: "bestmove time 00:00:01", ExitCode: 101,
			Stderr: []string{"thread 'main' panicked at src/player.rs:168:50:", "called `Option::unwrap()` on a `None` value"}},
		&ProtocolError{Engine: "x", Command: "bestmove time 00:00:01", Msg: NotAMove("FPwB2 wB1")},
		&ProtocolError{Engine: "x", Command: "bestmove time 00:00:01", Msg: NotAMove("")},
		&ProtocolError{Engine: "x", Command: "start", Msg: `it printed "hello", then "ok", with no "id" line: ` + bannerRule},
		&ProgramError{Engine: "a", Program: "./nope", Problem: `the program "./nope" does not exist`, Err: fs.ErrNotExist},
	} {
		if strings.Contains(err.Error(), "deadline exceeded") || strings.Contains(err.Error(), "fork/exec") {
			t.Errorf("%q speaks Go, not to a user", err)
		}
		b.WriteString(err.Error() + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "errors.golden"), []byte(b.String()))
}
