package uhpclient

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/golden"
)

// TestErrorTextsGolden keeps every error text a user reads in a record's detail, on the
// console or in arbiter check, one per line.
func TestErrorTextsGolden(t *testing.T) {
	ms := time.Millisecond
	var b strings.Builder
	// timeout is a TimeoutError as Engine makes it, with what became of a SIGINT.
	timeout := func(engine, command string, after time.Duration, cause error, printed []string, in *InterruptOutcome) error {
		te := timeoutError(engine, command, after, cause, printed)
		te.Interrupt = in
		return te
	}
	exited := &ExitError{Source: "uhpclient", Engine: "py", Command: "bestmove time 00:00:01", ExitCode: -1, Signal: "interrupt"}
	for _, err := range []error{
		timeout("x", "start", 10007*ms, nil, nil, nil),
		timeout("x", "start", 10007*ms, nil, []string{"HELLO I AM NOT UHP"}, nil),
		timeout("x", "start", 10007*ms, nil, []string{"id X 1.0", "Mosquito"}, nil),
		timeout("x", "validmoves", 10005*ms, nil, []string{"wS1;wB1", "wG1"}, nil),
		timeout("x", "play wS1", 10005*ms, nil, nil, nil),
		timeout("x", "play wS1", 2*ms, context.Canceled, nil, nil),
		timeout("py", "bestmove time 00:00:01", 1200*ms, nil, nil, &InterruptOutcome{At: 1200 * ms, Exited: exited}),
		timeout("x", "bestmove depth 9", 300*time.Second, nil, []string{"\x00\x01 not a move", "still searching"},
			&InterruptOutcome{At: 300 * time.Second}),
		timeout("x", "bestmove time 00:00:01", 1200*ms, nil, nil, &InterruptOutcome{At: 1200 * ms, Lines: []string{"wS1"}, Answer: true}),
		&ExitError{Source: "uhpclient", Engine: "py", Command: "bestmove time 00:00:01", ExitCode: 130, Interrupted: 475 * ms,
			Stderr: []string{"Traceback (most recent call last):", "KeyboardInterrupt"}},
		&ExitError{Source: "uhpclient", Engine: "x", Command: "bestmove time 00:00:01", ExitCode: -1, Signal: "interrupt", Interrupted: 300 * ms,
			Lines: []string{"\x00\x01 not a move", "still searching"}},
		&ExitError{Source: "uhpclient", Engine: "nokamute", Command: "bestmove time 00:00:01", ExitCode: 101,
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
