package syncbuf

import (
	"fmt"
	"io"
	"sync"
)

// Printer serializes what several goroutines print to one writer (a server's, coordinator's or
// worker's console), so that no line is cut into another. The writer may be nil: nothing is
// printed. The zero value is ready.
type Printer struct{ mu sync.Mutex }

// Printf prints to w while no other print of p runs.
func (p *Printer) Printf(w io.Writer, format string, args ...any) {
	p.Print(w, func(w io.Writer) { fmt.Fprintf(w, format, args...) })
}

// Print runs print on w while no other print of p runs; a block of lines stays together.
func (p *Printer) Print(w io.Writer, print func(io.Writer)) {
	if w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	print(w)
}
