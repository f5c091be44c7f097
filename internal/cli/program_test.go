package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

func testProgram(ran *[]string) *Program {
	cmd := func(name string) func(context.Context, []string, io.Writer, io.Writer) error {
		return func(_ context.Context, args []string, _, _ io.Writer) error {
			*ran = append(*ran, name+" "+strings.Join(args, " "))
			return nil
		}
	}
	return &Program{Name: "prog", Version: "Prog 1.0", About: "Prog does things.", Default: "first",
		Commands: []Command{
			{Name: "first", Summary: "the first", Run: cmd("first")},
			{Name: "second", Summary: "the second", Run: cmd("second")},
			{Name: "secret", Summary: "not listed", Hidden: true, Run: cmd("secret")},
		}}
}

// TestProgramRun: a command gets the words after its name; none runs the default; -h and
// -version print; an unknown command is a usage error after the usage text on stderr.
func TestProgramRun(t *testing.T) {
	var ran []string
	p := testProgram(&ran)
	ctx := context.Background()
	for _, args := range [][]string{{"second", "-x", "y"}, nil, {"secret"}} {
		if err := p.Run(ctx, args, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"second -x y", "first ", "secret "}; strings.Join(ran, "|") != strings.Join(want, "|") {
		t.Errorf("ran %q, want %q", ran, want)
	}
	var stdout, stderr bytes.Buffer
	_ = p.Run(ctx, []string{"-version"}, &stdout, &stderr)
	if stdout.String() != "Prog 1.0\n" {
		t.Errorf("-version printed %q", stdout.String())
	}
	stdout.Reset()
	_ = p.Run(ctx, []string{"-h"}, &stdout, &stderr)
	want := "Usage: prog [command] [flags]\n\nProg does things.\n\nCommands:\n  first      the first\n  second     the second\n\n" +
		"Run \"prog <command> -h\" for the flags of a command, \"prog -version\" for the version.\n"
	if stdout.String() != want {
		t.Errorf("-h printed\n%s\nwant\n%s", stdout.String(), want)
	}
	err := p.Run(ctx, []string{"third"}, io.Discard, &stderr)
	var ue UsageError
	if !errors.As(err, &ue) || err.Error() != `unknown command "third"` || stderr.String() != want {
		t.Errorf("unknown command: %v, stderr %q", err, stderr.String())
	}
}
