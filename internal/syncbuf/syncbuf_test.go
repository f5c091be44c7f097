package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWritesAndReads: lines written by several goroutines while another reads all
// arrive whole (run under -race, the test also shows the buffer is safe).
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("line\n"))
			}
		})
	}
	wg.Go(func() {
		for range 100 {
			_ = b.String()
		}
	})
	wg.Wait()
	if got := strings.Count(b.String(), "line\n"); got != 400 {
		t.Errorf("%d whole lines, want 400", got)
	}
}
