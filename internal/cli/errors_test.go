package cli

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// sayable is an error that can say itself without its package's name.
type sayable struct{}

func (sayable) Error() string   { return "pkg: the problem" }
func (sayable) Message() string { return "the problem" }

// TestMessage: an error is shown in its own words (a Message method), a joined one a
// problem a line, a usage error as what it marks; a wrapped one whole.
func TestMessage(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"plain", errors.New("x"), "x"},
		{"its own words", sayable{}, "the problem"},
		{"a usage error", Usage(sayable{}), "the problem"},
		{"joined, a line each", Usage(errors.Join(sayable{}, errors.New("y"), Usage(errors.Join(errors.New("z"), sayable{})))), "the problem\ny\nz\nthe problem"},
		{"wrapped: shown whole", fmt.Errorf("reading: %w", sayable{}), "reading: pkg: the problem"},
	}
	for _, tc := range tests {
		if got := Message(tc.err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestExit: an exit error carries its code, its message says an error argument in its own
// words, and an empty format prints nothing.
func TestExit(t *testing.T) {
	var ee *ExitError
	if err := fmt.Errorf("ctx: %w", Exit(5, "failed: %v", sayable{})); !errors.As(err, &ee) || ee.Code != 5 || ee.Msg != "failed: the problem" {
		t.Errorf("Exit: %#v", ee)
	}
	if err := Exit(130, ""); err.Error() != "exit status 130" || err.(*ExitError).Msg != "" {
		t.Errorf("Exit with no message: %q", err)
	}
	var out bytes.Buffer
	PrintError(&out, "prog", "a\nb")
	if out.String() != "prog: a\nprog: b\n" {
		t.Errorf("PrintError printed %q", out.String())
	}
}
