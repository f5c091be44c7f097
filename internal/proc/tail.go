package proc

import "sync"

// The tail of a program's standard error: enough lines, and enough of each, to read a panic
// message, not to keep a flood.
const (
	TailLines     = 20
	TailLineBytes = 500
)

// tail keeps the last lines of a stream, each at most TailLineBytes long.
type tail struct {
	mu  sync.Mutex
	buf []string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == TailLines {
		copy(t.buf, t.buf[1:])
		t.buf = t.buf[:TailLines-1]
	}
	t.buf = append(t.buf, line[:min(len(line), TailLineBytes)])
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.buf...)
}
