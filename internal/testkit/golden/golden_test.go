package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line", "a\nb\nc", "a\nB\nc", "line 2:\n  want \"b\"\n  got  \"B\"\n"},
		{"missing line", "a\nb", "a", "line 2:\n  want \"b\"\n  got  (no line)\n"},
		{"extra line", "a", "a\n", "line 2:\n  want (no line)\n  got  \"\"\n"},
		{"trailing space shows", "a", "a ", "line 1:\n  want \"a\"\n  got  \"a \"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff(tt.want, tt.got); got != tt.diff {
				t.Errorf("Diff = %q, want %q", got, tt.diff)
			}
		})
	}
	many := Diff(strings.Repeat("x\n", 50), strings.Repeat("y\n", 50))
	if n := strings.Count(many, "line "); n != maxShown {
		t.Errorf("a report of 50 differing lines shows %d, want %d", n, maxShown)
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, path, []byte("same\n"))
	if r.failed {
		t.Error("Check failed on equal output")
	}
	Check(r, path, []byte("other\n"))
	if !r.failed || !strings.Contains(r.msg, "differs") {
		t.Errorf("Check passed different output (failed %v, %q)", r.failed, r.msg)
	}
}
