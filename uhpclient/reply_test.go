package uhpclient

import (
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"hivearbiter/internal/lines"
)

// replyReader reads replies as an Engine does (its lines from a lines.Reader, each reply
// gathered by reply within replyBound), from any reader: the tests' plain strings.
type replyReader struct {
	lines    *lines.Reader
	maxReply int
}

// newReplyReader returns a replyReader of r whose lines are at most maxLineBytes long; zero
// or less means DefaultMaxLineBytes.
func newReplyReader(r io.Reader, maxLineBytes int) *replyReader {
	lr := lines.NewReader(r, maxLineBytes)
	return &replyReader{lines: lr, maxReply: replyBound(lr.MaxBytes())}
}

func (r *replyReader) ReadLine() (string, error) { return r.lines.ReadLine() }

// ReadReply reads one reply and returns its lines without the final "ok". An input that
// ends before the "ok" returns the lines read so far with io.EOF.
func (r *replyReader) ReadReply() ([]string, error) {
	rep := reply{max: r.maxReply}
	for {
		line, err := r.ReadLine()
		if err != nil {
			return rep.lines, err
		}
		done, err := rep.add(line)
		if err != nil || done {
			return rep.lines, err
		}
	}
}

func TestReadReply(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      error
	}{
		{"plain", "a\nb\nok\n", []string{"a", "b"}, nil},
		{"empty reply", "ok\n", nil, nil},
		{"BOM and CRLF", "\ufeffid X\r\nM;L\r\nok\r\n", []string{"id X", "M;L"}, nil},
		{"several CRs", "a\r\r\nok\r\n", []string{"a"}, nil},
		{"empty lines kept", "\n\nok\n", []string{"", ""}, nil},
		{"ok without newline at the end", "a\nok", []string{"a"}, nil},
		{"ok must be exact", "ok \n ok\nOK\nok\n", []string{"ok ", " ok", "OK"}, nil},
		{"no ok", "a\nb\n", []string{"a", "b"}, io.EOF},
		{"nothing", "", nil, io.EOF},
		{"line too long", "a\n" + strings.Repeat("y", 65) + "\nok\n", []string{"a"}, ErrLineTooLong},
		{"line at the limit", strings.Repeat("y", 64) + "\r\nok\n", []string{strings.Repeat("y", 64)}, nil},
		{"reply too long", strings.Repeat("z\n", 64*64), slices.Repeat([]string{"z"}, 64*64/2), ErrReplyTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time as well: a line is never split by how the pipe delivers it.
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				got, err := newReplyReader(r, 64).ReadReply()
				if !errors.Is(err, tc.err) || !slices.Equal(got, tc.want) {
					t.Errorf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
				}
			}
		})
	}
}

func TestReadLineBOMOnlyOnTheFirstLine(t *testing.T) {
	r := newReplyReader(strings.NewReader("\ufeffa\n\ufeffb\n"), 0)
	first, _ := r.ReadLine()
	second, _ := r.ReadLine()
	if first != "a" || second != "\ufeffb" {
		t.Errorf("got %q, %q", first, second)
	}
}

func TestReadLineGoesOnAfterATooLongLine(t *testing.T) {
	r := newReplyReader(strings.NewReader(strings.Repeat("x", 1000)+"\nnext\nok\n"), 10)
	line, err := r.ReadLine()
	if !errors.Is(err, ErrLineTooLong) || line != strings.Repeat("x", 10) {
		t.Fatalf("got %q, %v", line, err)
	}
	if lines, err := r.ReadReply(); err != nil || !slices.Equal(lines, []string{"next"}) {
		t.Errorf("after the long line: %q, %v", lines, err)
	}
}

// endless is an unending line of x.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestReadLineMemoryIsBounded(t *testing.T) {
	// 32 MiB of one line, read with a limit of 64 KiB.
	const limit = 64 << 10
	r := newReplyReader(io.MultiReader(io.LimitReader(endless{}, 32<<20), strings.NewReader("\nok\n")), limit)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	line, err := r.ReadLine()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLineTooLong) || len(line) != limit {
		t.Fatalf("got %d bytes, %v", len(line), err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 1<<20 {
		t.Errorf("%d bytes allocated to read past a 32 MiB line", allocated)
	}
	if lines, err := r.ReadReply(); err != nil || len(lines) != 0 {
		t.Errorf("after the line: %q, %v", lines, err)
	}
}

func FuzzReadReply(f *testing.F) {
	for _, s := range []string{
		"ok\n",
		"\ufeffid Mzinga v0.9\r\nMosquito;Ladybug;Pillbug\r\nok\r\n",
		"err Couldn't parse expansion pieces.\nParameter name: boardString\nok\n",
		"invalidmove That is not a valid move\nok\n",
		"wS1;1;0.5;wS1\nwG1;2;1.0;wG1 bS1\nok\n",
		"Base;InProgress;White[2];wS1;bS1 wS1-\nok\nwS1;wB1\nok\n",
		"a\x00b\r\n\nok",
	} {
		f.Add(s)
	}
	const limit = 32
	f.Fuzz(func(t *testing.T, s string) {
		r := newReplyReader(strings.NewReader(s), limit)
		for range len(s) + 1 {
			lines, err := r.ReadReply()
			size := 0
			for _, l := range lines {
				if len(l) > limit || strings.Contains(l, "\n") || strings.HasSuffix(l, "\r") || l == "ok" {
					t.Fatalf("line %q escaped the reader", l)
				}
				size += len(l) + 1
			}
			if size > replyLinesOfMaxLength*limit {
				t.Fatalf("a reply of %d bytes escaped the bound", size)
			}
			// Whatever the lines, the parsers answer without panicking.
			replyError("fuzz", "play wS1", lines)
			parseInfo(lines)
			bestMoveAnswer(lines)
			looksLikeGameString(lastLine(lines))
			if err == io.EOF {
				return
			}
			if err == nil && !strings.Contains(s, "ok") {
				t.Fatalf("a reply ended without an ok in %q", s)
			}
		}
		// Every call but the last consumed at least one byte.
		t.Fatalf("the reader did not reach the end of %q", s)
	})
}
