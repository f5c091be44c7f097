package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// DefaultMaxBytes bounds one line when NewReader is given no bound. The longest line a
// player must print is a GameString, about 10 bytes a ply: 1 MiB holds a game of 100,000
// plies, far past any move limit, while a runaway line is still cut.
const DefaultMaxBytes = 1 << 20

// ErrTooLong is a line longer than its reader's bound. It is the one such error of every
// transport: package uhpclient names it ErrLineTooLong.
var ErrTooLong = errors.New("line too long")

// Reader reads lines of at most a given length, its memory bounded whatever the input.
type Reader struct {
	br       *bufio.Reader
	max      int
	started  bool   // the first line, which may carry a byte-order mark, has been read
	skipping bool   // the last line was too long and its rest is still to be skipped
	partial  []byte // the start of a line whose read a deadline cut short
}

// NewReader returns a Reader of r whose lines are at most maxBytes long, without their line
// end; zero or less means DefaultMaxBytes.
func NewReader(r io.Reader, maxBytes int) *Reader {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &Reader{br: bufio.NewReaderSize(r, 4096), max: maxBytes}
}

// Partial is the start of a line that a read error other than the end of input (a deadline)
// cut short: what the program printed without ending the line, for a message to quote.
func (r *Reader) Partial() string { return string(r.partial) }

// MaxBytes is the Reader's bound on a line.
func (r *Reader) MaxBytes() int { return r.max }

// ReadLine returns the next line without its line end. A last line without a newline is
// still a line. At the end of input it returns io.EOF. A line over the bound returns its
// first MaxBytes bytes with ErrTooLong as soon as the bound is passed, without waiting for
// the line to end; the next call skips the rest of it, keeping none of it. A read error
// other than the end of input (a deadline, on a pipe that takes one) loses nothing: the
// next call goes on with the line where it stopped.
func (r *Reader) ReadLine() (string, error) {
	if r.skipping {
		if err := r.skipLine(); err != nil {
			return "", err
		}
	}
	buf := r.partial
	r.partial = nil
	// The bound excludes the line end, and CRLF is two bytes of it.
	limit := r.max + 2
	for {
		chunk, err := r.br.ReadSlice('\n')
		if buf == nil && err == nil && len(chunk) <= limit {
			// The usual line, whole in the buffer: copied once, into the string. The arbiter
			// reads a GameString per engine per ply, which grows with the game.
			if line := r.cut(chunk); len(line) <= r.max {
				return line, nil
			}
		}
		if len(buf)+len(chunk) > limit {
			buf = append(buf, chunk[:limit-len(buf)]...)
			r.skipping = err != nil && err != io.EOF // the rest of the line is still to come
			line := r.cut(buf)
			return line[:min(len(line), r.max)], ErrTooLong
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			r.partial = buf
			return "", err
		}
		if err != nil && len(buf) == 0 {
			return "", err
		}
		break
	}
	line := r.cut(buf)
	if len(line) > r.max {
		return line[:r.max], ErrTooLong
	}
	return line, nil
}

// cut drops the line end, and the byte-order mark of the first line.
func (r *Reader) cut(buf []byte) string {
	buf = bytes.TrimSuffix(buf, []byte("\n"))
	for len(buf) > 0 && buf[len(buf)-1] == '\r' {
		buf = buf[:len(buf)-1]
	}
	if string(buf) == "ok" {
		// The end of every reply: a string of its own each time would be an allocation of
		// every command.
		return "ok"
	}
	line := string(buf)
	if !r.started {
		r.started = true
		line = strings.TrimPrefix(line, "\ufeff")
	}
	return line
}

// skipLine discards input up to and including the next newline.
func (r *Reader) skipLine() error {
	for {
		_, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			continue
		}
		// A deadline leaves the rest of the line still to be skipped.
		r.skipping = err != nil && err != io.EOF
		return err
	}
}
