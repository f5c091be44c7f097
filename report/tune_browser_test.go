package report

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tuneCharts reads a tune page's charts: the number of points and of series of each.
func tuneCharts(t *testing.T, b *browser) map[string][2]int {
	t.Helper()
	var charts map[string][2]int
	b.run(t, chromedp.Evaluate(`Object.fromEntries(Object.entries(hiveReport.charts).map(([k, u]) => [k, [u.data[0].length, u.series.length]]))`, &charts))
	return charts
}

// TestTuneReportInBrowser opens a tune's report and finds its four charts, each with a point
// per pair and the start, a curve per parameter, and the tables with the values.
func TestTuneReportInBrowser(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	h, recs := syntheticTune(40, 2)
	path := filepath.Join(t.TempDir(), "tune.html")
	if err := WriteTuneFile(path, BuildTune(h, recs)); err != nil {
		t.Fatal(err)
	}
	b.open(t, "file://"+path)
	charts := tuneCharts(t, b)
	for name, series := range map[string]int{"tune-path": 3, "tune-c": 3, "tune-r": 3, "tune-score": 4} {
		if got := charts[name]; got != [2]int{len(recs) + 1, series} {
			t.Errorf("chart %s: %d points and %d series, want %d and %d (charts: %v)", name, got[0], got[1], len(recs)+1, series, charts)
		}
	}
	if tables := b.text(t, "#tables"); !strings.Contains(tables, "option.Weight=") || !strings.Contains(tables, "40 of 40 game pairs") {
		t.Errorf("the tables read %q", tables)
	}
	b.noErrors(t)
}

// TestTuneLivePageInBrowser: the live page of a tune redraws its charts as each pair is
// applied.
func TestTuneLivePageInBrowser(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	h, recs := syntheticTune(10, 3)
	live := NewTuneLive()
	srv := httptest.NewServer(live)
	defer func() { srv.CloseClientConnections(); srv.Close() }() // the event stream never ends by itself
	live.TuneStarted(h, recs[:3])
	b.open(t, srv.URL+"/")
	for i := 3; i < len(recs); i++ {
		live.PairFinished(&recs[i])
		var shown bool
		b.run(t, chromedp.Poll(fmt.Sprintf(`hiveReport.charts['tune-path'] && hiveReport.charts['tune-path'].data[0].length == %d`, i+2), &shown,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(2*time.Second)))
	}
	if sub := b.text(t, "#sub"); !strings.Contains(sub, "10 of 10 game pairs") || !strings.Contains(sub, "(live)") {
		t.Errorf("the live page's heading reads %q", sub)
	}
	b.noErrors(t)
}
