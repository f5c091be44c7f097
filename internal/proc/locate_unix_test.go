//go:build unix

package proc

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// On Unix a file runs by its execute bits, whatever its name.
func TestLocateUnix(t *testing.T) {
	exe := map[string]os.FileMode{"engine": 0o755}
	runLocateCases(t, []locateCase{
		{name: "executable, relative", files: exe, program: "./engine"},
		{name: "executable, absolute", files: exe, program: "{dir}/engine"},
		{name: "owner may run it", files: map[string]os.FileMode{"engine": 0o700}, program: "./engine"},
		{name: "no execute bit", files: map[string]os.FileMode{"engine": 0o644}, program: "./engine",
			want: `the program "./engine" in {dir} is not executable (chmod +x {dir}/engine)`, cause: fs.ErrPermission},
		{name: "an .exe is no program by its name", files: map[string]os.FileMode{"engine.exe": 0o644}, program: "./engine.exe",
			want: "is not executable (chmod +x", cause: fs.ErrPermission},
		{name: "no extension is added", files: map[string]os.FileMode{"engine.exe": 0o755}, program: "./engine",
			want: `the program "./engine" does not exist in {dir}`, cause: fs.ErrNotExist},
	})
}

// A name without a slash is looked up on the PATH, which the test makes itself: the suite also
// runs with a PATH that holds only go.
func TestLocateOnThePath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "path-engine"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if err := Locate("path-engine", ""); err != nil {
		t.Errorf("Locate(%q) = %v, want it runnable from the PATH", "path-engine", err)
	}
	if err := Locate("no-such-engine-on-any-path", ""); err == nil {
		t.Error("a name on no PATH directory was found")
	}
}
