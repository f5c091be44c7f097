package report

import (
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"hivearbiter/results"
)

var screenshots = flag.Bool("screenshots", false, "write the README's screenshots of a report and of the live page to docs/")

// hivebotRecords are the records of a real match between two profiles of the bundled engine,
// made with
//
//	arbiter match -engine builtin=hivebot name=hivebot-strong arg=-profile arg=strong \
//	  -engine builtin=hivebot name=hivebot-medium arg=-profile arg=medium \
//	  -each tc=3+0.05 fractional=true -rounds 10 -openings plies=2 -maxplies 150 -seed 7
func hivebotRecords(t *testing.T) []results.Record {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join("testdata", "hivebot.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestScreenshots writes docs/report.png, docs/replay.png and docs/live.png:
// go test ./report -run Screenshots -screenshots
func TestScreenshots(t *testing.T) {
	if !*screenshots {
		t.Skip("run with -screenshots to write the README's screenshots")
	}
	recs := hivebotRecords(t)
	docs := filepath.Join("..", "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	save := func(name string, png []byte) {
		path := filepath.Join(docs, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d KB)", path, len(png)>>10)
	}

	b := newBrowser(t, 1200, 1120)
	path := filepath.Join(t.TempDir(), "report.html")
	test := *sprtTest
	test.Elo1 = 50
	if err := WriteFile(path, Build(recs, Options{Title: "hivebot-strong vs hivebot-medium", SPRT: &test})); err != nil {
		t.Fatal(err)
	}
	b.open(t, "file://"+path)
	var png []byte
	b.run(t, chromedp.CaptureScreenshot(&png))
	save("report.png", png)

	// A game with a beetle on the hive, some way into it.
	b.run(t, chromedp.Click(`#games tbody tr[data-game="3"]`, chromedp.ByQuery))
	var plies int
	b.run(t, chromedp.Evaluate(`hiveReport.replayer.go(Math.min(40, hiveReport.replayer.ply)), hiveReport.replayer.ply`, &plies))
	b.run(t, chromedp.Screenshot(`#replay`, &png, chromedp.ByQuery))
	save("replay.png", png)
	b.noErrors(t)

	// The live page in the middle of a match: six games finished, two in progress.
	live := NewLive(Options{Engines: []string{"hivebot-strong", "hivebot-medium"}, SPRT: &test, Planned: len(recs)})
	srv := httptest.NewServer(live)
	defer func() { srv.CloseClientConnections(); srv.Close() }()
	for i := range 6 {
		live.GameFinished(&recs[i])
	}
	for _, r := range recs[6:8] {
		live.GameStarted(r.Game, r.White, r.Black, r.Opening)
		for _, m := range r.Moves[:min(len(r.Moves), 24+r.Game)] {
			live.MovePlayed(r.Game, m)
		}
	}
	lb := newBrowser(t, 1200, 1000)
	lb.open(t, srv.URL+"/")
	lb.run(t, chromedp.CaptureScreenshot(&png))
	save("live.png", png)
	lb.noErrors(t)
}
