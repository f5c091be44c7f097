package pool

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/openings"
	"hivearbiter/pool/artifact"
	"hivearbiter/pool/people"
	"hivearbiter/results"
)

// updating says whether the tests run with -update (internal/testkit/golden's flag): the
// browser test then writes the docs' screenshots too.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// optionSubmission is an SPRT of an engine's option: two instant fake engines (random legal
// moves) that differ in one option, pairs game pairs, with the submitter's note and event.
func optionSubmission(tb testing.TB, pairs int) *Submission {
	tb.Helper()
	engine := func(name, aggression string) driver.EngineConfig {
		argv, env := uhpfake.Command(uhpfake.Config{ID: "fakebot v1.2", Play: "random", Seed: 11,
			Options: []uhpserver.Option{{Name: "Aggression", Type: "int", Value: "2", Default: "2", Extra: []string{"0", "5"}}}})
		return driver.EngineConfig{Name: name, Command: argv, Env: env, Time: driver.TimeControl{Depth: 1},
			Options: []driver.EngineOption{{Name: "Aggression", Value: aggression}}}
	}
	cfg := arbiter.Config{Engines: []driver.EngineConfig{engine("patch", "3"), engine("base", "2")}, Rounds: pairs, Seed: 5,
		Openings: openings.Config{RandomPlies: 2}, Adjudication: arbiter.Adjudication{MaxPlies: 60}, Event: "Aggression 3",
		SPRT: &arbiter.SPRTConfig{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}}
	if err := cfg.Normalize(); err != nil {
		tb.Fatal(err)
	}
	expect, err := distributed.Identify(context.Background(), cfg.Engines, cfg.GameType, 10*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	return &Submission{Config: cfg, Expect: expect, Platforms: []string{artifact.ThisPlatform()},
		Note: "Does a more aggressive queen hunt pay? Aggression 3 against the default 2."}
}

// TestPagesInChromium: a pool plays an SPRT of an option and a gauntlet; the dashboard lists
// both with their counts, and the SPRT's page shows the W/D/L, the Elo line and the LLR that
// "arbiter stats -sprt" computes from the run's records, its option that differs, its charts
// and its workers; its report, PGN and records open. With -update it writes the docs'
// screenshots of the dashboard and the test's page.
func TestPagesInChromium(t *testing.T) {
	t.Parallel()
	chromium := testenv.NeedChromium(t)
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")}, &Worker{Name: "w2", Creds: p.addWorker("w2")})
	p.addWorker("idle-one")
	sub := optionSubmission(t, 20)
	// Submitted by a person: ann's token names her (a Person the request gave is ignored).
	if _, err := p.srv.People().Add(ctx, "ann", "correct horse battery", people.User, "test"); err != nil {
		t.Fatal(err)
	}
	token, err := p.srv.People().NewToken(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	sub.Token = token
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	gauntlet, err := p.submitter.Submit(ctx, fakeSubmission(t, 2, 4, func(c *arbiter.Config) {
		c.Format, c.Seeds = arbiter.Gauntlet, 1
		c.Engines = append(c.Engines, c.Engines[1])
		c.Engines[2].Name = "c"
	}))
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the runs to finish", 60*time.Second, func() bool {
		runs, err := p.submitter.Runs(ctx)
		return err == nil && len(runs) == 2 && runs[0].Over() && runs[1].Over()
	})
	dash, err := ServeDashboard(ctx, p.srv, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	if _, err := ServeDashboard(ctx, p.srv, "0.0.0.0:0", false); err == nil {
		t.Error("the dashboard listened on every interface without being told it may")
	}

	// What "arbiter stats -sprt" says of the run's records.
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	test := sub.Config.SPRT.Test()
	stats, summary := statsOf(t, recs, &test)
	pairing := summary.Pairings[0]
	wantWDL := fmt.Sprintf("%d / %d / %d", pairing.Wins, pairing.Draws, pairing.Losses)
	wantLLR := fmt.Sprintf("%.2f", summary.SPRT.LLR)
	var wantElo string
	for line := range strings.Lines(stats) {
		if strings.HasPrefix(line, "Elo: ") {
			wantElo = strings.TrimSpace(line)
		}
	}
	if wantElo == "" || !strings.Contains(stats, "LLR: "+wantLLR) {
		t.Fatalf("arbiter stats printed no Elo line or another LLR than %s:\n%s", wantLLR, stats)
	}

	b := newPoolBrowser(t, chromium, 1200, 900)
	base := "http://" + dash.Addr() + "/"
	var runRow, gauntletRow, workers string
	b.run(t, chromedp.Navigate(base), chromedp.WaitVisible("#runs", chromedp.ByID),
		chromedp.Text(fmt.Sprintf(`tr[data-run=%q]`, st.ID), &runRow, chromedp.ByQuery),
		chromedp.Text(fmt.Sprintf(`tr[data-run=%q]`, gauntlet.ID), &gauntletRow, chromedp.ByQuery),
		chromedp.Text("#workers tbody", &workers, chromedp.ByQuery))
	for _, want := range []string{"patch vs base", "depth=1", "[0, 10]", fmt.Sprintf("%d / %d", len(recs), st.Scheduled), wantWDL,
		fmt.Sprintf("%s (-2.94, 2.94)", wantLLR), "finished", "ann"} {
		if !strings.Contains(runRow, want) {
			t.Errorf("the run's row %q lacks %q", runRow, want)
		}
	}
	if !strings.Contains(gauntletRow, "a, b, c") {
		t.Errorf("the gauntlet's row %q lacks its engines", gauntletRow)
	}
	for _, want := range []string{"w1", "w2", "idle-one", "patch: depth-3 search in"} {
		if !strings.Contains(workers, want) {
			t.Errorf("the workers' table %q lacks %q", workers, want)
		}
	}
	if updating() {
		b.screenshot(t, "pool-dashboard.png", false)
	}

	// The run's page, reached from the dashboard.
	var wdl, eloLine, llr, title, note, differs, runWorkers string
	var charts int
	b.run(t, chromedp.Click(fmt.Sprintf(`tr[data-run=%q] a`, st.ID), chromedp.ByQuery), chromedp.WaitVisible("#pairings", chromedp.ByID),
		chromedp.Text("#pairings td.wdl", &wdl, chromedp.ByQuery), chromedp.Text("#pairings td.elo", &eloLine, chromedp.ByQuery),
		chromedp.Text("#llr", &llr, chromedp.ByID), chromedp.Text("#title", &title, chromedp.ByID), chromedp.Text("#note", &note, chromedp.ByID),
		chromedp.Text(`#engines tr[data-differs]`, &differs, chromedp.ByQueryAll), chromedp.Text("#run-workers tbody", &runWorkers, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("svg.chart polyline").length`, &charts))
	for _, c := range []struct{ what, got, want string }{
		{"W/D/L", wdl, wantWDL}, {"Elo", eloLine, wantElo}, {"LLR", llr, wantLLR}, {"title", title, "patch vs base"}, {"note", note, sub.Note},
	} {
		if strings.TrimSpace(c.got) != c.want {
			t.Errorf("the run's page shows the %s %q, arbiter stats of its records %q", c.what, c.got, c.want)
		}
	}
	if !strings.Contains(differs, "Aggression") || !strings.Contains(differs, "3") {
		t.Errorf("the option that differs is not marked: the marked rows are %q", differs)
	}
	if charts != 2 {
		t.Errorf("%d charts drawn, want the LLR's and the Elo's (W/D/L %s, %s)", charts, wdl, eloLine)
	}
	for _, want := range []string{"w1", "w2"} {
		if !strings.Contains(runWorkers, want) {
			t.Errorf("the run's workers %q lack %s", runWorkers, want)
		}
	}
	if updating() {
		b.screenshot(t, "pool-run.png", true)
	}

	// The gauntlet's page has its cross table.
	var cross string
	b.run(t, chromedp.Navigate(base+"runs/"+gauntlet.ID), chromedp.WaitVisible("#cross", chromedp.ByID),
		chromedp.Text("#cross tbody", &cross, chromedp.ByQuery))
	for _, want := range []string{"a", "b", "c"} {
		if !strings.Contains(cross, want) {
			t.Errorf("the gauntlet's cross table %q lacks %s", cross, want)
		}
	}

	// Its games: the report and the live page (which for a run over leads to the report)
	// draw; the PGN and the records hold every game.
	for _, page := range []string{"runs/" + st.ID + "/report.html", "runs/" + st.ID + "/live/"} {
		var ready string
		b.run(t, chromedp.Navigate(base+page), chromedp.WaitVisible(`body[data-ready]`, chromedp.ByQuery),
			chromedp.AttributeValue(`body`, "data-ready", &ready, nil, chromedp.ByQuery))
		if ready != "1" {
			t.Errorf("%s did not draw (data-ready=%q)", page, ready)
		}
	}
	for file, count := range map[string]func(string) int{
		"games.pgn":     func(s string) int { return strings.Count(s, "[Event \"Aggression 3\"]") },
		"records.jsonl": func(s string) int { return strings.Count(s, "\n") },
	} {
		resp, err := http.Get(base + "runs/" + st.ID + "/" + file)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n := count(string(body)); resp.StatusCode != http.StatusOK || n != len(recs) {
			t.Errorf("%s: %d with %d games, want %d", file, resp.StatusCode, n, len(recs))
		}
	}
	b.noErrors(t)
}

// poolBrowser is a headless Chromium for the pool's pages.
type poolBrowser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func newPoolBrowser(t *testing.T, chromium string, width, height int) *poolBrowser {
	t.Helper()
	// Not t.TempDir: Chromium's helpers may still write to the profile as it is removed.
	profile, err := os.MkdirTemp("", "pool-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(profile), chromedp.WindowSize(width, height))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc(); os.RemoveAll(profile) })
	b := &poolBrowser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		if ev, ok := ev.(*runtime.EventExceptionThrown); ok {
			b.mu.Lock()
			b.errors = append(b.errors, ev.ExceptionDetails.Error())
			b.mu.Unlock()
		}
	})
	return b
}

func (b *poolBrowser) run(t *testing.T, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// screenshot writes the page (the window, or all of it) to docs/name.
func (b *poolBrowser) screenshot(t *testing.T, name string, full bool) {
	t.Helper()
	var png []byte
	if full {
		b.run(t, chromedp.FullScreenshot(&png, 100))
	} else {
		b.run(t, chromedp.CaptureScreenshot(&png))
	}
	path := filepath.Join("..", "docs", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d KB)", path, len(png)>>10)
}

func (b *poolBrowser) noErrors(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errors) > 0 {
		t.Errorf("the pages threw: %v", b.errors)
	}
}
