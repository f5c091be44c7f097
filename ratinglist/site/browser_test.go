package site

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hivearbiter/internal/testkit/testenv"
)

// TestSiteInBrowser loads the site from disk in headless Chromium, as a reader who opened
// index.html would: the ranked table has a row per entrant in the table's order, the engine
// page's chart has a point per rated version, and the head-to-head link leads to the matrix.
func TestSiteInBrowser(t *testing.T) {
	path := testenv.NeedChromium(t)
	l, table, recs := compute(t)
	dir := t.TempDir()
	if err := Write(dir, l, table, recs, checks()); err != nil {
		t.Fatal(err)
	}
	// Chromium's helpers may write to the profile for a moment after it stops: removed with
	// retries, as package report's browser tests do.
	profile, err := os.MkdirTemp("", "site-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for try := 0; os.RemoveAll(profile) != nil && try < 50; try++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1200, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })

	index := "file://" + filepath.ToSlash(filepath.Join(dir, "index.html"))
	var players []string
	var points, cells int
	var title string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(index),
		chromedp.WaitVisible(`#ranking`, chromedp.ByID),
		chromedp.Evaluate(`[...document.querySelectorAll("#ranking tbody tr")].map(r => r.dataset.player)`, &players),
		chromedp.Click(`#ranking tbody tr a`, chromedp.ByQuery), // the first engine's page
		chromedp.WaitVisible(`svg.chart`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("svg.chart circle").length`, &points),
		chromedp.Evaluate(`document.querySelector("h1").textContent`, &title),
		chromedp.Click(`nav a[href$="head-to-head.html"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#matrix`, chromedp.ByID),
		chromedp.Evaluate(`document.querySelectorAll("#matrix td.ahead, #matrix td.behind, #matrix td.even").length`, &cells),
	); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range table.Rows {
		want = append(want, r.Player)
	}
	if !slices.Equal(players, want) {
		t.Errorf("the ranked table shows %q, want %q", players, want)
	}
	if title != table.Rows[0].Name || points != len(table.Versions(title)) {
		t.Errorf("the first engine's page is %q with %d points on its chart, want %q with %d", title, points, table.Rows[0].Name, len(table.Versions(table.Rows[0].Name)))
	}
	if cells != 2*len(table.HeadToHead) {
		t.Errorf("the matrix shows %d scores, want %d (each pairing from both sides)", cells, 2*len(table.HeadToHead))
	}
}
