package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files with what the tests produce")

// maxShown bounds the differing lines a report shows.
const maxShown = 10

// Check compares got with the golden file at path. With -update it writes got to the file
// (creating its directory) and the test passes.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if d := Diff(string(want), string(got)); d != "" {
		t.Errorf("output differs from %s (run the test with -update to accept it):\n%s", path, d)
	}
}

// Diff shows the first lines (up to ten) where got differs from want, numbered and quoted, or
// returns "" when the texts are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < maxShown; i++ {
		wl, wok := line(w, i)
		gl, gok := line(g, i)
		if wl == gl && wok == gok {
			continue
		}
		fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, quote(wl, wok), quote(gl, gok))
		shown++
	}
	return b.String()
}

func line(lines []string, i int) (string, bool) {
	if i < len(lines) {
		return lines[i], true
	}
	return "", false
}

func quote(s string, ok bool) string {
	if !ok {
		return "(no line)"
	}
	return fmt.Sprintf("%q", s)
}
