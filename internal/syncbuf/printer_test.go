package syncbuf

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// A block printed with Print stays together while other goroutines print single lines, and a
// nil writer takes nothing (and does not panic).
func TestPrinterKeepsBlocksTogether(t *testing.T) {
	var p Printer
	var out strings.Builder // not safe for concurrent writes: the printer must serialize them
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				if j%10 == 0 {
					p.Print(&out, func(w io.Writer) {
						for k := range 3 {
							fmt.Fprintf(w, "block %d.%d line %d\n", i, j, k)
						}
					})
					continue
				}
				p.Printf(&out, "line %d.%d\n", i, j)
			}
		})
	}
	wg.Wait()
	p.Printf(nil, "dropped %d\n", 1)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 8*(45+15) {
		t.Fatalf("%d lines, want %d", len(lines), 8*(45+15))
	}
	for n, l := range lines {
		var i, j, k int
		if _, err := fmt.Sscanf(l, "block %d.%d line %d", &i, &j, &k); err == nil && k == 0 {
			for k := 1; k < 3; k++ {
				if want := fmt.Sprintf("block %d.%d line %d", i, j, k); n+k >= len(lines) || lines[n+k] != want {
					t.Fatalf("line %d: block %d.%d cut: want %q after %q", n+k, i, j, want, l)
				}
			}
		}
	}
}
