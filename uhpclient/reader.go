package uhpclient

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// DefaultMaxLineBytes bounds one line of engine output when Config.MaxLineBytes is zero. The
// longest line an engine must print is a GameString, about 10 bytes a ply: 1 MiB holds a game
// of 100,000 plies, far past any move limit, while a runaway line is still cut.
const DefaultMaxLineBytes = 1 << 20

// A reply may hold many lines (bestmove's intermediate lines, perft tables), but an engine
// that prints without end and never says "ok" must not take all memory: a reply is bounded
// to this many times the line limit, but to no more than maxReplyBytes (or two whole lines,
// if more).
const (
	replyLinesOfMaxLength = 64
	maxReplyBytes         = 4 << 20
)

// replyBound is the bound of one reply for a line limit.
func replyBound(maxLineBytes int) int {
	return max(min(replyLinesOfMaxLength*maxLineBytes, maxReplyBytes), 2*maxLineBytes)
}

var (
	// ErrLineTooLong is a line of output longer than the Reader's limit.
	ErrLineTooLong = errors.New("line too long")
	// ErrReplyTooLong is a reply that grew past its bound without an "ok" line.
	ErrReplyTooLong = errors.New("reply too long without ok")
)

// Reader reads the output of a UHP engine: lines, and replies made of lines up to an "ok"
// line. It strips a UTF-8 byte-order mark from the first line (Mzinga on mono writes one)
// and carriage returns from line ends. Memory stays bounded whatever the input.
type Reader struct {
	br       *bufio.Reader
	maxLine  int
	maxReply int
	started  bool // the first line, which may carry a byte-order mark, has been read
	skipping bool // the last line was too long and its rest is still to be skipped
}

// NewReader returns a Reader of r whose lines are at most maxLineBytes long, without their
// line end; zero or less means DefaultMaxLineBytes.
func NewReader(r io.Reader, maxLineBytes int) *Reader {
	if maxLineBytes <= 0 {
		maxLineBytes = DefaultMaxLineBytes
	}
	return &Reader{
		br:       bufio.NewReaderSize(r, 4096),
		maxLine:  maxLineBytes,
		maxReply: replyBound(maxLineBytes),
	}
}

// ReadLine returns the next line without its line end. A last line without a newline is
// still a line. At the end of input it returns io.EOF. A line over the limit returns its
// first maxLineBytes bytes with ErrLineTooLong as soon as the limit is passed, without
// waiting for the line to end; the next call skips the rest of it, keeping none of it.
func (r *Reader) ReadLine() (string, error) {
	if r.skipping {
		if err := r.skipLine(); err != nil {
			return "", err
		}
	}
	var buf []byte
	// The limit excludes the line end, and CRLF is two bytes of it.
	limit := r.maxLine + 2
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(buf)+len(chunk) > limit {
			buf = append(buf, chunk[:limit-len(buf)]...)
			r.skipping = err == bufio.ErrBufferFull
			line := r.cut(buf)
			return line[:min(len(line), r.maxLine)], ErrLineTooLong
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(buf) == 0) {
			return "", err
		}
		break
	}
	line := r.cut(buf)
	if len(line) > r.maxLine {
		return line[:r.maxLine], ErrLineTooLong
	}
	return line, nil
}

// cut drops the line end, and the byte-order mark of the first line.
func (r *Reader) cut(buf []byte) string {
	line := strings.TrimRight(strings.TrimSuffix(string(buf), "\n"), "\r")
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
		r.skipping = false
		return err
	}
}

// ReadReply reads one reply and returns its lines without the final "ok". An input that
// ends before the "ok" returns the lines read so far with io.EOF.
func (r *Reader) ReadReply() ([]string, error) {
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

// reply gathers the lines of one reply. Reader.ReadReply and Engine share it, so that the
// end of a reply and its bound are defined once.
type reply struct {
	lines []string
	size  int
	max   int
}

// add takes the next line and reports whether it ended the reply.
func (r *reply) add(line string) (done bool, err error) {
	// Exactly "ok": a move list or an error message may well contain the letters.
	if line == "ok" {
		return true, nil
	}
	r.size += len(line) + 1
	if r.size > r.max {
		return false, ErrReplyTooLong
	}
	r.lines = append(r.lines, line)
	return false, nil
}
