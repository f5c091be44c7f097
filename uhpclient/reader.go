package uhpclient

import (
	"errors"
	"io"

	"hivearbiter/internal/lines"
)

// DefaultMaxLineBytes bounds one line of engine output when Config.MaxLineBytes is zero:
// 1 MiB, which holds the GameString of a game of 100,000 plies (see lines.DefaultMaxBytes).
const DefaultMaxLineBytes = lines.DefaultMaxBytes

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
	// ErrLineTooLong is a line of output longer than the Reader's limit. It is the arbiter's
	// one such error, shared by every protocol.
	ErrLineTooLong = lines.ErrTooLong
	// ErrReplyTooLong is a reply that grew past its bound without an "ok" line.
	ErrReplyTooLong = errors.New("reply too long without ok")
)

// Reader reads the output of a UHP engine: lines, and replies made of lines up to an "ok"
// line. It strips a UTF-8 byte-order mark from the first line (Mzinga on mono writes one)
// and carriage returns from line ends. Memory stays bounded whatever the input.
type Reader struct {
	lines    *lines.Reader
	maxReply int
}

// NewReader returns a Reader of r whose lines are at most maxLineBytes long, without their
// line end; zero or less means DefaultMaxLineBytes.
func NewReader(r io.Reader, maxLineBytes int) *Reader {
	lr := lines.NewReader(r, maxLineBytes)
	return &Reader{lines: lr, maxReply: replyBound(lr.MaxBytes())}
}

// ReadLine returns the next line without its line end. A last line without a newline is
// still a line. At the end of input it returns io.EOF. A line over the limit returns its
// first maxLineBytes bytes with ErrLineTooLong as soon as the limit is passed, without
// waiting for the line to end; the next call skips the rest of it, keeping none of it.
func (r *Reader) ReadLine() (string, error) { return r.lines.ReadLine() }

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
