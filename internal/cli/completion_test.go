package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/internal/testkit/testenv"
)

// completionProgram is a program of two commands with flags, one without (which stops at -h
// without Parse) and a hidden one, whose -engine takes key=value words.
func completionProgram() *Program {
	play := func(_ context.Context, args []string, _, stderr io.Writer) error {
		fs := NewFlagSet("prog", "play", "play [flags]", stderr)
		fs.Func("engine", "an engine (key=value words)", func(string) error { return nil })
		fs.Int("rounds", 1, "rounds to play")
		fs.String("out", "", "write the records to this `file`\nsecond line")
		return Parse(fs, args)
	}
	stats := func(_ context.Context, args []string, _, stderr io.Writer) error {
		fs := NewFlagSet("prog", "stats", "stats FILE...", stderr)
		fs.String("json", "", "also write JSON to this `file`")
		return Parse(fs, args)
	}
	none := func(context.Context, []string, io.Writer, io.Writer) error { return nil }
	secret := func(context.Context, []string, io.Writer, io.Writer) error { return errors.New("a hidden command ran") }
	return &Program{Name: "prog", Version: "Prog 1.0", About: "Prog plays.", Default: "play",
		Commands: []Command{
			{Name: "play", Summary: "play games", Run: play},
			{Name: "stats", Summary: "recompute a file's tables", Run: stats},
			{Name: "about", Summary: "say what prog's for", Run: none},
			{Name: "secret", Summary: "not listed", Hidden: true, Run: secret},
		},
		CompletionWords: func() map[string][]string {
			words := []string{"cmd=", "name=", "option.", "proto=uhp", "proto=ugi"}
			return map[string][]string{"engine": words, "each": words}
		},
	}
}

// TestCompletionScripts: "prog completion SHELL" writes the script of each shell (golden
// files), made from the commands' own flag sets; another shell, or none, is a usage error.
func TestCompletionScripts(t *testing.T) {
	p := completionProgram()
	for _, shell := range Shells {
		t.Run(shell, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := p.Run(context.Background(), []string{"completion", shell}, &stdout, &stderr); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			golden.Check(t, filepath.Join("testdata", "completion."+shell), stdout.Bytes())
		})
	}
	for _, args := range [][]string{{"completion", "tcsh"}, {"completion"}, {"completion", "bash", "zsh"}} {
		var ue UsageError
		if err := p.Run(context.Background(), args, io.Discard, io.Discard); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a UsageError", args, err)
		}
	}
	var usage bytes.Buffer
	p.WriteUsage(&usage)
	if !strings.Contains(usage.String(), "\n  completion write a script that completes") {
		t.Errorf("the usage text does not list the completion command:\n%s", usage.String())
	}
}

// TestBashCompletion runs the bash script on command lines as bash would complete them, "="
// splitting words as it does by default.
func TestBashCompletion(t *testing.T) {
	bash := testenv.NeedProgram(t, "bash", "apt-get install bash")
	var script bytes.Buffer
	if err := completionProgram().Run(context.Background(), []string{"completion", "bash"}, &script, io.Discard); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ line, want string }{
		{"prog ", "play stats about completion -h -version"},
		{"prog st", "stats"},
		{"prog play -", "-engine -out -rounds"},
		{"prog play -r", "-rounds"},
		{"prog stats -", "-json"},
		{"prog about -", ""},
		{"prog play -engine ", "cmd= name= option. proto=uhp proto=ugi"},
		{"prog play -each na", "name="},
		{"prog play -engine cmd=./e pro", "proto=uhp proto=ugi"},
		{"prog play -engine cmd=./e proto=ug", "ugi"}, // bash's word is what follows "="
		{"prog play -engine cmd=./e -", "-engine -out -rounds"},
		{"prog play -rounds 3 pro", ""},
		{"prog play games.j", ""},
	}
	for _, tt := range tests {
		cmd := exec.CommandContext(t.Context(), bash, "--norc", "-c", `source /dev/stdin
COMP_LINE=$1 COMP_POINT=${#1}
_prog
printf '%s\n' "${COMPREPLY[@]}"`, "bash", tt.line)
		cmd.Stdin = bytes.NewReader(script.Bytes())
		cmd.Stderr = io.Discard // compopt complains outside a real completion
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", tt.line, err)
		}
		if got := strings.Join(strings.Fields(string(out)), " "); got != tt.want {
			t.Errorf("%q completes to %q, want %q", tt.line, got, tt.want)
		}
	}
}
