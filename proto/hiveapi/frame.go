package hiveapi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// MaxMessage bounds one message from a module (16 MiB): a module that sends more is broken,
// and the arbiter must not run out of memory reading it.
const MaxMessage = 16 << 20

// FrameError is a TCP message whose framing is broken.
type FrameError struct{ Why string }

// Error returns what went wrong, as a user reads it.
func (e *FrameError) Error() string { return "hiveapi: broken frame: " + e.Why }

// ReadFrame reads one TCP message, "<length>#<json>". The length counts characters as
// JavaScript does (UTF-16 code units), since the modules are written in JavaScript; the
// message is returned as UTF-8. Whitespace between frames is skipped.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	var digits []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) && len(digits) > 0 {
				return nil, &FrameError{Why: fmt.Sprintf("the stream ended inside the length %q", digits)}
			}
			return nil, err
		}
		switch {
		case c == '#':
			if len(digits) == 0 {
				return nil, &FrameError{Why: `"#" without a length before it`}
			}
		case c >= '0' && c <= '9':
			if digits = append(digits, c); len(digits) > 9 {
				return nil, &FrameError{Why: fmt.Sprintf("length %s... is too long", digits)}
			}
			continue
		case len(digits) == 0 && (c == ' ' || c == '\n' || c == '\r' || c == '\t'):
			continue
		default:
			rest, _ := r.Peek(min(r.Buffered(), 60))
			return nil, &FrameError{Why: fmt.Sprintf("want <length>#<json>, read %s", quote(append(append(digits, c), rest...)))}
		}
		break
	}
	n, _ := strconv.Atoi(string(digits))
	if n > MaxMessage {
		return nil, &FrameError{Why: fmt.Sprintf("a message of %d characters is more than the %d allowed", n, MaxMessage)}
	}
	var msg bytes.Buffer
	for units := 0; units < n; {
		c, size, err := r.ReadRune()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, &FrameError{Why: fmt.Sprintf("the stream ended after %d of %d characters: %s", units, n, quote(msg.Bytes()))}
			}
			return nil, err
		}
		if c == utf8.RuneError && size == 1 {
			msg.WriteByte(0xFF) // not UTF-8: kept as an invalid byte for the JSON reader to refuse
		} else {
			msg.WriteRune(c)
		}
		units++
		if c > 0xFFFF {
			units++
		}
	}
	return msg.Bytes(), nil
}

// AppendFrame appends a message framed for TCP. The message must be ASCII (see encode), so
// that its length in bytes is its length in characters.
func AppendFrame(buf, msg []byte) []byte {
	buf = strconv.AppendInt(buf, int64(len(msg)), 10)
	buf = append(buf, '#')
	return append(buf, msg...)
}

// ReadLine reads one message of the line transports (stdio and Node's IPC channel): a line,
// without its end ("\n" or "\r\n"). Blank lines are skipped.
func ReadLine(r *bufio.Reader) ([]byte, error) {
	for {
		var line []byte
		for {
			chunk, err := r.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > MaxMessage {
				return nil, &FrameError{Why: fmt.Sprintf("a line longer than %d bytes: %s", MaxMessage, quote(line[:100]))}
			}
			if err == nil {
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0 {
				return bytes.TrimRight(line, "\r"), nil // a last line without its end
			}
			return nil, err
		}
		if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}
