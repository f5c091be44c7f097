package driver

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestIsLocalPath is the definition of a local path, case by case.
func TestIsLocalPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // bot.py exists here, and is still no local path
	for _, tc := range []struct {
		arg  string
		want bool
	}{
		{"/opt/nets/big.nnue", true},         // absolute
		{`C:\nets\big.nnue`, true},           // a Windows path holds a separator
		{"nets/big.nnue", true},              // a relative path with a directory, existing or not
		{"./bot.py", true},                   //
		{`..\elsewhere\bot.py`, true},        //
		{"1/2", true},                        // a separator makes a path, whatever it means
		{"bot.py", false},                    // a bare name, even of a file that exists here
		{"medium", false},                    // a word
		{"-profile", false},                  // a flag
		{"--threads=2", false},               // a flag with a value that is no path
		{"--weights=/opt/w.bin", true},       // a flag whose value is a path
		{"-weights=nets/w.bin", true},        //
		{"book=/opt/book.txt", true},         // a NAME=VALUE word whose value is a path
		{"blunder=40", false},                // ...and one whose value is not
		{"/opt/a=b", true},                   // a path with = in it
		{"--url=http://host/net", false},     // a URL is not local
		{"https://host/nets/big", false},     //
		{"", false},                          //
		{"-", false},                         // standard input, as many programs read it
		{"--book=", false},                   // a flag with an empty value
		{"-/opt/odd", false},                 // a flag, whatever follows the dash
		{"hivebot", false},                   // the bundled engine's subcommand
		{filepath.Join(dir, "bot.py"), true}, // absolute and existing
	} {
		if got := IsLocalPath(tc.arg); got != tc.want {
			t.Errorf("IsLocalPath(%q) = %v, want %v", tc.arg, got, tc.want)
		}
	}
}

func TestRunArgs(t *testing.T) {
	e := EngineConfig{Command: []string{"/usr/bin/prog", "-profile", "medium", "--weights=/opt/w.bin", "/opt/book", "--threads=2", "book=nets/b.txt", "bot.py"}}
	want := []string{"-profile", "medium", "--weights=" + LocalPathMark, LocalPathMark, "--threads=2", "book=" + LocalPathMark, "bot.py"}
	if got := e.RunArgs(); !slices.Equal(got, want) {
		t.Errorf("RunArgs = %q, want %q", got, want)
	}
	if got := (EngineConfig{Command: []string{"prog"}}).RunArgs(); got != nil {
		t.Errorf("RunArgs of an engine without arguments = %q, want none", got)
	}
}

// An interpreter's engine is its script: python3 names no engine (check's verdict and the
// pasted match line name it otherwise).
func TestInterpreted(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    bool
		script  string
	}{
		{[]string{"python3", "engine.py"}, true, "engine.py"},
		{[]string{"/usr/bin/python3.12", "-u", "/home/me/engine.py", "fast"}, true, "engine.py"},
		{[]string{"node", "bot.js"}, true, "bot.js"},
		{[]string{"Rscript", "bot.R"}, true, "bot.R"},
		{[]string{"./nokamute", "uhp"}, false, ""},
		{[]string{"python3"}, false, ""}, // no script: the name is all there is
		{[]string{"python3", "-u"}, true, ""},
		{[]string{"./pythonic-engine", "x"}, false, ""},
	} {
		e := EngineConfig{Command: tc.command}
		if got := e.Interpreted(); got != tc.want {
			t.Errorf("%q: Interpreted() = %v, want %v", tc.command, got, tc.want)
		}
		if got := e.Script(); got != tc.script {
			t.Errorf("%q: Script() = %q, want %q", tc.command, got, tc.script)
		}
	}
}
