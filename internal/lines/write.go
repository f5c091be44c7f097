package lines

import (
	"context"
	"io"
	"time"
)

// DeadlineWriter is a writer whose writes a deadline cuts short: a pipe (*os.File) or a
// connection (net.Conn).
type DeadlineWriter interface {
	io.Writer
	SetWriteDeadline(t time.Time) error
}

// Write writes p to w, and unblocks the write when ctx ends: a player that stops reading
// fills its pipe, and the write would otherwise block for ever. It returns only once a
// cancellation that began has set its deadline, so that a cancellation running late cannot
// cut short the next write, which starts by clearing the deadline.
func Write(ctx context.Context, w DeadlineWriter, p []byte) (int, error) {
	w.SetWriteDeadline(time.Time{})
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		w.SetWriteDeadline(time.Unix(1, 0))
		close(fired)
	})
	n, err := w.Write(p)
	if !stop() {
		<-fired
	}
	return n, err
}
