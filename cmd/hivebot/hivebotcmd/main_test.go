package hivebotcmd

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestMainFlags: hivebot's flags set the engine up, and a mistake in them exits with 2 and
// says what is wrong.
func TestMainFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-h"}, 0, "usage: hivebot"},
		{[]string{"-profile", "grandmaster"}, 2, "unknown profile"},
		{[]string{"-depth", "-1"}, 2, "must not be negative"},
		{[]string{"-threads", "0"}, 2, "at least 1"},
		{[]string{"-bogus"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"-profile", "random", "-depth", "3", "-hash", "8", "-threads", "2", "-seed", "5"}, 0, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), tc.args, strings.NewReader("exit\n"), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("%q: status %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.err)
		}
		if code == 0 && tc.err == "" && !strings.HasPrefix(stdout.String(), "id hivebot v0.1.0\nMosquito;Ladybug;Pillbug\nok\n") {
			t.Errorf("%q: banner %q", tc.args, stdout.String())
		}
	}
	// A broken output is a broken conversation: status 1.
	if code := Main(context.Background(), nil, strings.NewReader("info\n"), failingWriter{}, io.Discard); code != 1 {
		t.Errorf("failing stdout: status %d, want 1", code)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }
