package rulestest

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// CorpusLine is one data line of a Mzinga test file.
type CorpusLine struct {
	Section string   // the text of the last "# heading" line above it; "" before any
	Fields  []string // the line split at tabs
	Line    int      // its line number in the file, from 1
}

// maxCorpusLine bounds a line of a test file: a GameString with its valid moves runs to a
// few kilobytes.
const maxCorpusLine = 1 << 20

// ReadCorpus reads one of Mzinga's tab-separated test files: "# heading" lines name the
// section of the data lines below them, blank lines are skipped, and the file may start
// with a byte-order mark and end its lines with CRLF, as Mzinga's do. A file that cannot be
// read or holds no data ends the test.
func ReadCorpus(t testing.TB, path string) []CorpusLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []CorpusLine
	section := ""
	sc := bufio.NewScanner(f) // which drops the CR of a CRLF
	sc.Buffer(make([]byte, 0, 64<<10), maxCorpusLine)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "#"):
			section = strings.TrimSpace(strings.TrimPrefix(line, "#"))
		default:
			out = append(out, CorpusLine{Section: section, Fields: strings.Split(line, "\t"), Line: n})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no data", path)
	}
	return out
}

// Puzzle is a data line of Mzinga's search test files (GameAI_*Test.csv,
// PuzzleCandidate_*Test.csv): a position, a search depth, and the move a search to that
// depth must find.
type Puzzle struct {
	Section    string
	GameString string
	Depth      int
	BestMove   string // a MoveString, as Mzinga writes it
	Line       int
}

// ReadPuzzles reads a Mzinga search test file, as ReadCorpus does, and ends the test on a
// line that is not GameString<TAB>depth<TAB>MoveString.
func ReadPuzzles(t testing.TB, path string) []Puzzle {
	t.Helper()
	lines := ReadCorpus(t, path)
	out := make([]Puzzle, 0, len(lines))
	for _, l := range lines {
		if len(l.Fields) != 3 {
			t.Fatalf("%s:%d: want 3 tab-separated fields, got %d", path, l.Line, len(l.Fields))
		}
		depth, err := strconv.Atoi(l.Fields[1])
		if err != nil {
			t.Fatalf("%s:%d: depth: %v", path, l.Line, err)
		}
		out = append(out, Puzzle{Section: l.Section, GameString: l.Fields[0], Depth: depth, BestMove: l.Fields[2], Line: l.Line})
	}
	return out
}
