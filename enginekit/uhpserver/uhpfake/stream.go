package uhpfake

import (
	"io"
	"sync"
	"time"
)

// stream is one of the engine's output streams. It adds the byte-order mark and CRLF line
// ends, lets a fault silence the server's next reply, and notes when the server wrote its
// last "ok". It is safe for concurrent use: faults write from the input's goroutine too.
type stream struct {
	w         io.Writer
	bom, crlf bool

	mu      sync.Mutex
	started bool      // something was written: the byte-order mark is behind us
	drop    bool      // the server's reply is dropped up to its "ok"
	noOK    bool      // the "ok" of the server's next reply is dropped
	hold    bool      // nothing is written until release: output never flushed
	held    []byte    // what hold kept back
	line    []byte    // the start of the server's current line, up to 3 bytes
	lastOK  time.Time // when the server last wrote an "ok"
}

func newStream(w io.Writer, bom, crlf bool) *stream {
	return &stream{w: w, bom: bom, crlf: crlf}
}

// Write writes text of the server's, unless a fault silenced its reply.
func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]byte, 0, len(p))
	ok := false
	for _, b := range p {
		if !s.drop {
			out = append(out, b)
		}
		if b != '\n' {
			if len(s.line) < 3 {
				s.line = append(s.line, b)
			}
			continue
		}
		if string(s.line) == "ok" {
			ok = true
			if s.noOK && !s.drop && len(out) >= 3 {
				out = out[:len(out)-3]
				s.noOK = false
			}
			s.drop = false
		}
		s.line = s.line[:0]
	}
	if err := s.writeLocked(out); err != nil {
		return 0, err
	}
	if ok {
		s.lastOK = time.Now() // once it is out
	}
	return len(p), nil
}

// raw writes text of a fault's, as it is but for the byte-order mark and line ends.
func (s *stream) raw(p []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeLocked(p)
}

func (s *stream) writeLocked(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if s.hold {
		s.held = append(s.held, p...)
		return nil
	}
	var out []byte
	if !s.started && s.bom {
		out = append(out, "\ufeff"...)
	}
	s.started = true
	if !s.crlf {
		out = append(out, p...)
	} else {
		for _, b := range p {
			if b == '\n' {
				out = append(out, '\r')
			}
			out = append(out, b)
		}
	}
	_, err := s.w.Write(out)
	return err
}

// dropOK drops the "ok" that ends the server's next reply.
func (s *stream) dropOK() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noOK = true
}

// release writes what hold kept back, as a buffer is flushed when its program exits.
func (s *stream) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	held := s.held
	s.hold, s.held = false, nil
	s.writeLocked(held)
}

// silence drops the server's next reply, up to and with its "ok".
func (s *stream) silence() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop = true
}

// sinceOK is the time since the server last wrote an "ok".
func (s *stream) sinceOK() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.lastOK)
}
