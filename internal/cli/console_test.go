package cli

import (
	"errors"
	"os"
	"testing"
)

// The live line is drawn only on a character device that takes ANSI codes: enable is not
// even tried elsewhere, and a device that refuses gets the plain lines.
func TestLiveLineDecision(t *testing.T) {
	for _, tc := range []struct {
		name       string
		charDevice bool
		enableErr  error
		want       bool
		tried      bool
	}{
		{"a file or a pipe", false, nil, false, false},
		{"a terminal", true, nil, true, true},
		{"a console that refuses ANSI codes, or NUL", true, errors.New("not a console"), false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tried := false
			got := liveLine(tc.charDevice, func() error { tried = true; return tc.enableErr })
			if got != tc.want || tried != tc.tried {
				t.Errorf("liveLine = %v, enable tried %v; want %v, %v", got, tried, tc.want, tc.tried)
			}
		})
	}
}

// A file is no terminal.
func TestIsTerminalNotOnAFile(t *testing.T) {
	// Not in t.TempDir: under wine Go cannot remove a folder (wine 8 lacks the call).
	f, err := os.CreateTemp("", "console-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if IsTerminal(f) {
		t.Errorf("%s is taken for a terminal", f.Name())
	}
}
