package pool

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"hivearbiter/arbiter"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

// TestDashboardInChromium: the dashboard lists a finished SPRT run with its counts, Elo and
// LLR, and the workers with their games; its report opens without an error, and so does its
// live page, which for a run over leads to the report.
func TestDashboardInChromium(t *testing.T) {
	chromium := testenv.NeedChromium(t)
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")})
	p.addWorker("idle-one")
	st, err := p.submitter.Submit(ctx, fakeSubmission(t, 3, 3, func(c *arbiter.Config) {
		c.SPRT = &arbiter.SPRTConfig{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	}))
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the run to finish", 20*time.Second, func() bool {
		runs, err := p.submitter.Runs(ctx)
		return err == nil && len(runs) == 1 && runs[0].State == StateFinished
	})
	dash, err := ServeDashboard(ctx, p.srv, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	if _, err := ServeDashboard(ctx, p.srv, "0.0.0.0:0", false); err == nil {
		t.Error("the dashboard listened on every interface without being told it may")
	}

	// Not t.TempDir: Chromium's helpers may still write to the profile as it is removed.
	profile, err := os.MkdirTemp("", "pool-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(profile))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	bctx, cancelTimeout := context.WithTimeout(bctx, time.Minute)
	defer cancelTimeout()
	var mu sync.Mutex
	var pageErrors []string
	chromedp.ListenTarget(bctx, func(ev any) {
		if ev, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			pageErrors = append(pageErrors, ev.ExceptionDetails.Error())
			mu.Unlock()
		}
	})
	base := "http://" + dash.Addr() + "/"
	var runRow, workers string
	if err := chromedp.Run(bctx, chromedp.Navigate(base), chromedp.WaitVisible("#runs", chromedp.ByID),
		chromedp.Text(fmt.Sprintf(`tr[data-run=%q]`, st.ID), &runRow, chromedp.ByQuery),
		chromedp.Text("#workers tbody", &workers, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	var wdl [3]int
	for _, r := range recs {
		switch s := r.ScoreOf("a"); {
		case s == 1:
			wdl[0]++
		case s == 0:
			wdl[2]++
		default:
			wdl[1]++
		}
	}
	for _, want := range []string{"finished", fmt.Sprintf("%d / %d", len(recs), st.Scheduled),
		fmt.Sprintf("%d / %d / %d", wdl[0], wdl[1], wdl[2]), "(-2.94, 2.94)", "report"} {
		if !strings.Contains(runRow, want) {
			t.Errorf("the run's row %q lacks %q", runRow, want)
		}
	}
	for _, want := range []string{"w1", fmt.Sprint(len(recs)), "idle-one", "a: depth-3 search in"} {
		if !strings.Contains(workers, want) {
			t.Errorf("the workers' table %q lacks %q", workers, want)
		}
	}
	for _, page := range []string{"runs/" + st.ID + "/report.html", "runs/" + st.ID + "/live/"} {
		var ready string
		if err := chromedp.Run(bctx, chromedp.Navigate(base+page), chromedp.WaitVisible(`body[data-ready]`, chromedp.ByQuery),
			chromedp.AttributeValue(`body`, "data-ready", &ready, nil, chromedp.ByQuery)); err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		if ready != "1" {
			t.Errorf("%s did not draw (data-ready=%q)", page, ready)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(pageErrors) > 0 {
		t.Errorf("the pages threw: %v", pageErrors)
	}
}
