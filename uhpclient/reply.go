package uhpclient

import (
	"errors"

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
	// ErrLineTooLong is a line of output longer than the engine's limit (Config.MaxLineBytes).
	// It is the arbiter's one such error, shared by every protocol.
	ErrLineTooLong = lines.ErrTooLong
	// ErrReplyTooLong is a reply that grew past its bound without an "ok" line.
	ErrReplyTooLong = errors.New("reply too long without ok")
)

// reply gathers the lines of one reply, up to a line that is exactly "ok", within its bound.
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
