package report

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLargeReport measures a report of 10,000 games (random legal games of 30 to 90 plies, of
// two engines on a clock): it must stay under 5 MB and open in a browser in under 2 s. Making
// the games takes most of its 20 s, so it is skipped with -short and under the race detector
// (go test ./report runs it).
func TestLargeReport(t *testing.T) {
	if testing.Short() {
		t.Skip("a report of 10,000 games takes a while to make (go test ./report runs it)")
	}
	// The race detector makes 10,000 games too slow to make: CI's race run checks 2,000 games
	// against a fifth of the size bound, and its run without the detector checks them all.
	games := 10000
	if raceEnabled {
		games = 2000
	}
	maxBytes := 5e6 * float64(games) / 10000
	b := newBrowser(t, 1280, 900)
	began := time.Now()
	recs := synthetic{engines: []string{"new", "old"}, games: games, minPlies: 30, maxPlies: 90, times: []string{"60+0.5"}}.
		records(rand.New(rand.NewPCG(10, 10)))
	plies := 0
	for _, r := range recs {
		plies += len(r.Moves) + 2
	}
	made := time.Now()
	d := Build(recs, Options{SPRT: sprtTest})
	built := time.Now()
	path := filepath.Join(t.TempDir(), "large.html")
	if err := WriteFile(path, d); err != nil {
		t.Fatal(err)
	}
	written := time.Now()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games, %d plies: records made in %v, built in %v, written in %v: %.2f MB",
		len(recs), plies, made.Sub(began).Round(time.Millisecond), built.Sub(made).Round(time.Millisecond),
		written.Sub(built).Round(time.Millisecond), float64(fi.Size())/1e6)
	if float64(fi.Size()) > maxBytes {
		t.Errorf("the report of %d games is %.2f MB, want under %.1f MB", games, float64(fi.Size())/1e6, maxBytes/1e6)
	}
	b.open(t, "file://"+path)
	var ms struct{ Start, Data, Ready float64 }
	b.run(t, chromedp.Evaluate(`({Start: hiveReport.startMs, Data: hiveReport.dataMs, Ready: hiveReport.readyMs})`, &ms))
	ready := ms.Ready
	t.Logf("the browser drew the report %.0f ms after navigation started: the page loaded in %.0f ms, its data was decoded in %.0f ms, drawn in %.0f ms",
		ready, ms.Start, ms.Data-ms.Start, ms.Ready-ms.Data)
	if ready > 2000 {
		t.Errorf("the report took %.0f ms to open, want under 2 s", ready)
	}
	b.noErrors(t)
}
