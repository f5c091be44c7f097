package viewerbridge

import (
	"context"
	"io"
	"os"
	"time"

	"hivearbiter/enginekit/uhpserver"
)

// Serve speaks UHP to the viewer on in and out until the input ends, "exit" or ctx, then
// closes the session. Each signal on interrupts stops the engine search under way, whose best
// move so far is the answer, as a viewer's SIGINT stops Mzinga's. It returns the
// conversation's error, else the error of closing the session.
func (s *Session) Serve(ctx context.Context, in io.Reader, out io.Writer, interrupts <-chan os.Signal) error {
	forwarding := make(chan struct{})
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		for {
			select {
			case <-interrupts:
				s.Interrupt()
			case <-forwarding:
				return
			}
		}
	}()
	serveErr := uhpserver.NewServer(s).Serve(ctx, in, out)
	close(forwarding)
	<-forwarded
	// The engines are stopped even when ctx is done, with time of their own to exit.
	closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	closeErr := s.Close(closeCtx)
	if serveErr != nil {
		return serveErr
	}
	return closeErr
}
