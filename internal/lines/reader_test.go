package lines

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadLine(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      error // after the lines
	}{
		{"plain", "a\nb\n", []string{"a", "b"}, io.EOF},
		{"BOM and CRLF", "\ufeffid X\r\n\ufeffM\r\n", []string{"id X", "\ufeffM"}, io.EOF},
		{"last line without its end", "a\nb", []string{"a", "b"}, io.EOF},
		{"empty lines kept", "\n\n", []string{"", ""}, io.EOF},
		{"at the bound", strings.Repeat("y", 8) + "\r\n", []string{strings.Repeat("y", 8)}, io.EOF},
		{"over the bound", "a\n" + strings.Repeat("y", 9) + "\nb\n", []string{"a"}, ErrTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time as well: a line is never split by how the pipe delivers it.
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				lr := NewReader(r, 8)
				var got []string
				var err error
				for {
					var line string
					if line, err = lr.ReadLine(); err != nil {
						break
					}
					got = append(got, line)
				}
				if !errors.Is(err, tc.err) || !slices.Equal(got, tc.want) {
					t.Errorf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
				}
			}
		})
	}
}

func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\ufeffid X\r\nok\r\n", strings.Repeat("z", 40) + "\nafter\n", "a\x00b\r\r\n\n"} {
		f.Add(s)
	}
	const limit = 16
	f.Fuzz(func(t *testing.T, s string) {
		lr := NewReader(strings.NewReader(s), limit)
		for range len(s) + 1 {
			line, err := lr.ReadLine()
			// A line cut at the bound may end with a CR that was no line end.
			if len(line) > limit || strings.Contains(line, "\n") || (err == nil && strings.HasSuffix(line, "\r")) {
				t.Fatalf("line %q, %v escaped the reader", line, err)
			}
			if err == io.EOF {
				return
			}
			if err != nil && !errors.Is(err, ErrTooLong) {
				t.Fatalf("error %v from a string", err)
			}
		}
		// Every call but the last consumed at least one byte.
		t.Fatalf("the reader did not reach the end of %q", s)
	})
}

func TestSend(t *testing.T) {
	var logged []string
	out := make(chan Line, 10)
	Send(strings.NewReader("a\n"+strings.Repeat("x", 20)+"\nb"), 8, out, nil, func(l string) { logged = append(logged, l) })
	var got []Line
	for l := range out {
		got = append(got, l)
	}
	want := []Line{{"a", nil}, {"xxxxxxxx", ErrTooLong}, {"b", nil}}
	if !slices.Equal(got, want) {
		t.Errorf("sent %q; want %q", got, want)
	}
	if wantLog := []string{"a", "xxxxxxxx [line cut: over the length limit]", "b"}; !slices.Equal(logged, wantLog) {
		t.Errorf("logged %q; want %q", logged, wantLog)
	}

	// Once stop is closed, a reader blocked on a full channel returns, closing it.
	full, stop := make(chan Line), make(chan struct{})
	done := make(chan struct{})
	go func() {
		Send(strings.NewReader("a\nb\n"), 8, full, stop, nil)
		close(done)
	}()
	close(stop)
	<-done
	for range full {
	}
}

// errAfter is a reader whose input has a transient error in the middle, as a pipe's read
// deadline is.
type errAfter struct {
	parts []string
	err   error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if len(r.parts) == 0 {
		return 0, io.EOF
	}
	part := r.parts[0]
	r.parts = r.parts[1:]
	if part == "" {
		return 0, r.err
	}
	return copy(p, part), nil
}

// TestReadLineAcrossAnError: a read error in the middle of a line (a deadline) loses none of
// it, nor the skipping of a line over the bound.
func TestReadLineAcrossAnError(t *testing.T) {
	timeout := errors.New("deadline")
	lr := NewReader(&errAfter{parts: []string{"hal", "", "f\n" + strings.Repeat("y", 12), "", "yy\nnext\n"}, err: timeout}, 8)
	var got []string
	for {
		line, err := lr.ReadLine()
		if err == io.EOF {
			break
		}
		got = append(got, fmt.Sprintf("%q %v", line, err))
	}
	want := []string{`"" deadline`, `"half" <nil>`, `"yyyyyyyy" line too long`, `"next" <nil>`}
	if !slices.Equal(got, want) {
		t.Errorf("read %q; want %q", got, want)
	}
}

// TestReadOKAllocatesNothing: "ok" ends every reply the arbiter reads, three a ply; it is no
// allocation of its own, with a CRLF line end too.
func TestReadOKAllocatesNothing(t *testing.T) {
	lr := NewReader(strings.NewReader("ok\n"+strings.Repeat("ok\r\n", 200)), 0)
	lr.ReadLine() // the first line, which may carry a byte-order mark
	if allocs := testing.AllocsPerRun(100, func() {
		if line, err := lr.ReadLine(); line != "ok" || err != nil {
			t.Fatalf("read %q, %v", line, err)
		}
	}); allocs != 0 {
		t.Errorf("reading ok allocates %v times", allocs)
	}
}
