package rulestest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// fatalRecorder is a testing.TB whose Fatal ends only the goroutine of the call under test,
// so that a test can check that a helper fails, and why.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Fatal(args ...any) { r.msg = fmt.Sprint(args...); runtime.Goexit() }
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatalMessage runs f and returns the message of the Fatal that ended it, or "" if none did.
func fatalMessage(t *testing.T, f func(testing.TB)) string {
	r := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.msg
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.csv")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadCorpus(t *testing.T) {
	path := writeFile(t, "\ufeff# Base\r\n"+
		"Base\t0\t1\r\n"+
		"\r\n"+
		"  \r\n"+
		"#  Wins \r\n"+
		"Base;InProgress;White[2];wS1;bS1 wS1-\twS1;wQ\r\n"+
		"last line without an end")
	want := []CorpusLine{
		{Section: "Base", Fields: []string{"Base", "0", "1"}, Line: 2},
		{Section: "Wins", Fields: []string{"Base;InProgress;White[2];wS1;bS1 wS1-", "wS1;wQ"}, Line: 6},
		{Section: "Wins", Fields: []string{"last line without an end"}, Line: 7},
	}
	if got := ReadCorpus(t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v,\nwant %+v", got, want)
	}
}

func TestReadCorpusFailures(t *testing.T) {
	long := strings.Repeat("x", maxCorpusLine+1)
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(t.TempDir(), "missing.csv"), "no such file"},
		{"only headings", writeFile(t, "\ufeff# a\n\n# b\n"), "no data"},
		{"empty", writeFile(t, ""), "no data"},
		{"long line", writeFile(t, "# a\n"+long+"\n"), "too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := fatalMessage(t, func(tb testing.TB) { ReadCorpus(tb, tc.path) })
			if !strings.Contains(msg, tc.want) {
				t.Errorf("fatal %q, want one that says %q", msg, tc.want)
			}
		})
	}
}

func TestReadPuzzles(t *testing.T) {
	path := writeFile(t, "\ufeff# Win in one\nBase+M;InProgress;White[2];wQ;bQ wQ-\t2\twA1 -wQ\n")
	want := []Puzzle{{Section: "Win in one", GameString: "Base+M;InProgress;White[2];wQ;bQ wQ-", Depth: 2, BestMove: "wA1 -wQ", Line: 2}}
	if got := ReadPuzzles(t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, tc := range []struct{ content, want string }{
		{"Base\t2\n", ":1: want 3 tab-separated fields, got 2"},
		{"# x\nBase\ttwo\twS1\n", ":2: depth:"},
	} {
		msg := fatalMessage(t, func(tb testing.TB) { ReadPuzzles(tb, writeFile(t, tc.content)) })
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%q: fatal %q, want one that says %q", tc.content, msg, tc.want)
		}
	}
}

// TestReadsMzingaFiles reads every Mzinga file the referee keeps: each has a byte-order
// mark, headings and data, and the search files parse as puzzles.
func TestReadsMzingaFiles(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "*Test.csv"))
	if err != nil || len(paths) < 20 {
		t.Fatalf("%d Mzinga test files, %v", len(paths), err)
	}
	for _, path := range paths {
		lines := ReadCorpus(t, path)
		if lines[0].Section == "" || strings.ContainsRune(lines[0].Section, '\ufeff') || len(lines[0].Fields) < 2 {
			t.Errorf("%s: first data line %+v", path, lines[0])
		}
		if name := filepath.Base(path); strings.HasPrefix(name, "GameAI_") || strings.HasPrefix(name, "PuzzleCandidate_") {
			ReadPuzzles(t, path)
		}
	}
}
