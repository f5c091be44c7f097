package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TempDir is t.TempDir for the tests that .ci/wine-smoke also runs under wine: wine 8.0
// refuses the call Go's os.RemoveAll makes on Windows ("unlinkat ...: Invalid function"), so
// there the folder is removed file by file at the end of the test. It must then hold files
// only, no folders.
func TempDir(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "windows" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			os.Remove(filepath.Join(dir, e.Name()))
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("removing %s: %v", dir, err)
		}
	})
	return dir
}
