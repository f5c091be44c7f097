package lines

import (
	"io"
	"strings"
	"sync"
	"time"
)

// Transcript writes a conversation to a file a person reads: one line per line sent (">"),
// received ("<") or noted by the caller ("*"), each after its local time of day, as
// "15:04:05.000 > bestmove time 00:00:01". Every transport writes its transcript through one,
// so that all of them read alike. It is safe for concurrent use (a command's reply and a note
// from a timer may come at once); a nil *Transcript writes nothing.
type Transcript struct {
	mu sync.Mutex
	w  io.Writer
}

// NewTranscript returns a Transcript writing to w, or nil when w is nil.
func NewTranscript(w io.Writer) *Transcript {
	if w == nil {
		return nil
	}
	return &Transcript{w: w}
}

// Line writes one line in the given direction; a trailing line end is dropped.
func (t *Transcript) Line(direction, line string) {
	if t == nil {
		return
	}
	line = strings.TrimRight(line, "\r\n")
	stamp := time.Now().Format("15:04:05.000")
	t.mu.Lock()
	defer t.mu.Unlock()
	io.WriteString(t.w, stamp+" "+direction+" "+line+"\n")
}

// Note writes the caller's text, marked "*", a line for each of its lines.
func (t *Transcript) Note(text string) {
	if t == nil {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		t.Line("*", line)
	}
}
