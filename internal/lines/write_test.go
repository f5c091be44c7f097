package lines

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// TestWrite writes to a pipe that nobody reads until it is full: the context's end unblocks
// the write, and the next write, with a live context, is not cut short by the earlier
// deadline.
func TestWrite(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	big := make([]byte, 1<<22) // more than any pipe buffer
	if _, err := Write(ctx, w, big); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a write to a full pipe ended with %v; want the deadline exceeded", err)
	}

	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, r)
		done <- err
	}()
	for range 100 {
		if _, err := Write(t.Context(), w, []byte("line\n")); err != nil {
			t.Fatalf("a write after a cancelled one: %v", err)
		}
	}
	// A context that has already ended stops even a write that would not block; either
	// outcome is fine, but the call returns and the next write succeeds.
	ended, cancelEnded := context.WithCancel(t.Context())
	cancelEnded()
	Write(ended, w, []byte("x\n"))
	if _, err := Write(t.Context(), w, []byte("y\n")); err != nil {
		t.Fatalf("a write after one with an ended context: %v", err)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
