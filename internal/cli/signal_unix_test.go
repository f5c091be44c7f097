//go:build unix

package cli

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"hivearbiter/internal/syncbuf"
)

// TestInterruptContext: SIGTERM cancels the context and prints the notice once; stop
// without a signal prints nothing.
func TestInterruptContext(t *testing.T) {
	var quiet syncbuf.Buffer
	_, stop := InterruptContext(context.Background(), &quiet, "stopping")
	stop()
	var out syncbuf.Buffer
	ctx, stop := InterruptContext(context.Background(), &out, "stopping")
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	deadline := time.Now().Add(10 * time.Second)
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if out.String() != "stopping\n" {
		t.Errorf("printed %q, want the notice once", out.String())
	}
	if s := quiet.String(); strings.Contains(s, "stopping") {
		t.Errorf("stop without a signal printed %q", s)
	}
}
