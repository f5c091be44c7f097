package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// InterruptContext returns a context that Ctrl-C or SIGTERM (what a cancelled CI job sends)
// cancels, so that a command stops cleanly. Stopping takes a moment, so at the first signal
// notice is printed to w and the default handling is restored: a second signal ends the
// process at once. stop releases the signals; call it when the command returns.
func InterruptContext(parent context.Context, w io.Writer, notice string) (ctx context.Context, stop func()) {
	ctx, stopSignals := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-ctx.Done():
			stopSignals()
			fmt.Fprintln(w, notice)
		case <-done:
		}
	}()
	return ctx, func() {
		// The goroutine is waited for before the context is cancelled, or it could take that
		// for a signal and print the notice as the command ends.
		close(done)
		<-finished
		stopSignals()
	}
}
