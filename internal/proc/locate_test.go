package proc

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/testenv"
)

// locateCase is one program given to Locate from a directory of the case's files, and what
// Locate must say: nothing (want == "") or an error containing want that wraps cause.
type locateCase struct {
	name    string
	files   map[string]os.FileMode // made in the case's directory; a mode with fs.ModeDir is a directory
	program string                 // "{dir}" is replaced by the case's directory
	want    string
	cause   error
}

// The rules every platform shares: an empty name, a missing file, a directory, a name that is
// on no PATH.
func TestLocateEverywhere(t *testing.T) {
	runLocateCases(t, []locateCase{
		{name: "no program", program: "", want: "no engine program given"},
		{name: "missing, relative", program: "./engine", want: `the program "./engine" does not exist in {dir}`, cause: fs.ErrNotExist},
		{name: "missing, absolute", program: filepath.Join("{dir}", "engine"), want: `does not exist`, cause: fs.ErrNotExist},
		{name: "a directory", files: map[string]os.FileMode{"engine": fs.ModeDir | 0o755}, program: "./engine",
			want: `"./engine" in {dir} is a directory, not a program`, cause: fs.ErrPermission},
		{name: "not on the PATH", program: "no-such-engine-on-any-path", want: `no program "no-such-engine-on-any-path" on the PATH: give its path (./no-such-engine-on-any-path`,
			cause: exec.ErrNotFound},
	})
}

func runLocateCases(t *testing.T, cases []locateCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := testenv.TempDir(t) // these tests run under wine too
			for name, mode := range c.files {
				path := filepath.Join(dir, name)
				var err error
				if mode&fs.ModeDir != 0 {
					err = os.Mkdir(path, mode.Perm())
				} else {
					err = os.WriteFile(path, []byte("a program\n"), mode.Perm())
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			program := strings.ReplaceAll(c.program, "{dir}", dir)
			err := Locate(program, dir)
			if c.want == "" {
				if err != nil {
					t.Fatalf("Locate(%q) = %v, want it runnable", program, err)
				}
				return
			}
			want := strings.ReplaceAll(c.want, "{dir}", dir)
			var le *LocateError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), want) || le.Program != program {
				t.Fatalf("Locate(%q) = %v, want a *LocateError for it saying %q", program, err, want)
			}
			if c.cause != nil && !errors.Is(err, c.cause) {
				t.Errorf("Locate(%q) = %v, want it to wrap %v", program, err, c.cause)
			}
		})
	}
}
