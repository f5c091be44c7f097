package lines

import (
	"errors"
	"io"
)

// Line is a line read, or the start of one over the bound, with ErrTooLong.
type Line struct {
	Text string
	Err  error // nil or ErrTooLong
}

// Send reads r's lines, at most maxBytes each, and sends them on out, for a conversation
// whose waits must honour a context: the reader blocks while out is full, and the program
// with it. It returns, closing out, at the end of the input or once stop is closed. log, if
// not nil, is given each line as it is read, a cut one marked as such.
func Send(r io.Reader, maxBytes int, out chan<- Line, stop <-chan struct{}, log func(line string)) {
	defer close(out)
	lr := NewReader(r, maxBytes)
	for {
		text, err := lr.ReadLine()
		if err != nil && !errors.Is(err, ErrTooLong) {
			return
		}
		logLine(log, text, err)
		select {
		case out <- Line{Text: text, Err: err}:
		case <-stop:
			return
		}
	}
}
