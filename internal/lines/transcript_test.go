package lines

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"hivearbiter/internal/syncbuf"
)

// Every transport's transcript reads alike: the local time of day, the direction, the line
// without its line end; notes a line each; nil writes nothing; lines written at once stay whole.
func TestTranscript(t *testing.T) {
	var b strings.Builder
	tr := NewTranscript(&b)
	tr.Line(">", "bestmove time 00:00:01")
	tr.Line("<", "wS1\r\n")
	tr.Note("game 3 begins\nfrom Base")
	want := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d\d\d > bestmove time 00:00:01\n\d\d:\d\d:\d\d\.\d\d\d < wS1\n` +
		`\d\d:\d\d:\d\d\.\d\d\d \* game 3 begins\n\d\d:\d\d:\d\d\.\d\d\d \* from Base\n$`)
	if !want.MatchString(b.String()) {
		t.Errorf("transcript:\n%s", b.String())
	}
	var none *Transcript = NewTranscript(nil)
	none.Line(">", "x")
	none.Note("y")

	var c syncbuf.Buffer
	tr = NewTranscript(&c)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				tr.Line("<", strings.Repeat("x", 100))
			}
		})
	}
	wg.Wait()
	for i, l := range strings.Split(strings.TrimSuffix(c.String(), "\n"), "\n") {
		if !strings.HasSuffix(l, " < "+strings.Repeat("x", 100)) {
			t.Fatalf("line %d torn: %q", i, l)
		}
	}
}
