package proc

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/golden"
)

// TestErrorTextsGolden keeps the texts of the errors every transport shares, as the
// protocols other than UHP fill them in (package uhpclient keeps its own), one per line.
func TestErrorTextsGolden(t *testing.T) {
	ms := time.Millisecond
	var b strings.Builder
	for _, err := range []error{
		&ExitError{Source: "linepeer", Engine: "bot", When: `while waiting for "bestmove"`, ExitCode: 7,
			Stderr: []string{"a", "b", "fatal: no luck"}},
		&ExitError{Source: "linepeer", Engine: "bot", When: "while waiting for a move", ExitCode: -1, Signal: "killed"},
		&ExitError{Source: "linepeer", Engine: "127.0.0.1:9000", When: "while waiting for a move", ExitCode: -1, Network: true},
		&ExitError{Source: "hiveapi", Engine: "forager", When: "instead of answering chooseTurn", ExitCode: 1,
			Stderr: []string{strings.Repeat("x", 400)}},
		// Only blank lines on stderr: nothing to quote (it read "stderr: " and nothing).
		&ExitError{Source: "uhpclient", Engine: "py", Command: "bestmove time 00:00:04", Interrupted: time.Second, ExitCode: 1,
			Stderr: []string{"", "  "}},
		&TimeoutError{Source: "linepeer", Engine: "bot", Waiting: `"bestmove"`, After: 1200 * ms},
		&TimeoutError{Source: "linepeer", Engine: "bot", Waiting: "a move", After: 2 * ms, Cause: context.Canceled},
		&TimeoutError{Source: "hiveapi", Engine: "forager", Waiting: "answer to chooseTurn", After: 1005 * ms},
		&StopError{Grace: time.Second},
		&StopError{Grace: time.Second, Cause: context.Canceled},
	} {
		if strings.Contains(err.Error(), "deadline exceeded") {
			t.Errorf("%q speaks Go, not to a user", err)
		}
		b.WriteString(err.Error() + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "errors.golden"), []byte(b.String()))
}
